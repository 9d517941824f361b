//! The engine's exact values, checked against the taught minimax (an
//! independent, obviously correct search) on random positions of small
//! games, and against published theory: Nim (the `n mod (k+1)` rule and
//! Bouton's theorem), Yucky Chocolate (the first player wins exactly when the
//! bar is not square) and Pons' Connect-4 scores.

mod common;

use common::{game, random_position};
use connect4::Connect4;
use game_api::{Game, Status};
use nim::Nim;
use players::minimax::minimax;
use players::{Engine, EngineConfig};
use proptest::prelude::*;
use yucky_chocolate::YuckyChocolate;

fn engine<G: Game>(table_megabytes: usize) -> Engine<G> {
    Engine::new(EngineConfig {
        table_megabytes,
        ..EngineConfig::default()
    })
    .unwrap()
}

/// The engine's exact value of a position, to the player to move.
fn value_to_mover<G: Game>(engine: &mut Engine<G>, game: &G, state: &G::State) -> i32 {
    let mover = game
        .game_status(state)
        .to_move()
        .expect("an ongoing position");
    engine.solve(game, state).value * mover.sign()
}

fn assert_solve_matches_minimax<G: Game>(
    game: &G,
    seed: u64,
    plies: usize,
) -> Result<(), TestCaseError> {
    let state = random_position(game, seed, plies);
    let expected = minimax(game, &state);
    // Any table size gives the exact value: a small table only slows the
    // search down (the engine's unit tests try a one-bucket table, below
    // the 1 MiB that `Engine::new` accepts).
    for megabytes in [4, 1] {
        let solved = engine(megabytes).solve(game, &state);
        prop_assert_eq!(
            solved.value,
            expected,
            "table {} MiB, {:?}",
            megabytes,
            state
        );
        let weak = engine(megabytes).solve_weak(game, &state);
        prop_assert_eq!(
            weak.value,
            expected.signum(),
            "weak, table {} MiB, {:?}",
            megabytes,
            state
        );
    }
    Ok(())
}

/// With no depth limit the engine's move is optimal and its value exact.
fn assert_search_is_optimal<G: Game>(
    game: &G,
    seed: u64,
    plies: usize,
) -> Result<(), TestCaseError> {
    let state = random_position(game, seed, plies);
    if game.game_status(&state).is_over() {
        return Ok(());
    }
    let config = EngineConfig {
        table_megabytes: 1,
        max_depth: None,
        time_limit: None,
        ..EngineConfig::default()
    };
    let (mv, info) = Engine::new(config)
        .unwrap()
        .search(game, &state)
        .expect("a move in an ongoing game");
    let value = minimax(game, &state);
    prop_assert!(info.exact);
    prop_assert_eq!(info.value, value);
    let child = game.next_state(&state, &mv).expect("a legal move");
    prop_assert_eq!(
        minimax(game, &child),
        value,
        "{:?} is not an optimal move",
        mv
    );
    prop_assert_eq!(info.pv.first(), Some(&game.string_of_move(&mv)));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn engine_equals_minimax_on_nim(seed: u64, plies in 0usize..8, normal: bool, max_take in 0u32..4) {
        let rule = if normal { "normal" } else { "misere" };
        let nim: Nim = game(&[("piles", "3,4,2"), ("max_take", &max_take.to_string()), ("rule", rule)]);
        assert_solve_matches_minimax(&nim, seed, plies)?;
        assert_search_is_optimal(&nim, seed, plies)?;
    }

    #[test]
    fn engine_equals_minimax_on_yucky_chocolate(seed: u64, plies in 0usize..6, rows in 1u32..6, cols in 2u32..7) {
        let bar: YuckyChocolate = game(&[("rows", &rows.to_string()), ("cols", &cols.to_string())]);
        assert_solve_matches_minimax(&bar, seed, plies)?;
        assert_search_is_optimal(&bar, seed, plies)?;
    }

    #[test]
    fn engine_equals_minimax_on_connect4_4x4(seed: u64, plies in 3usize..16, connect in 3u32..5) {
        let c4: Connect4 = game(&[("rows", "4"), ("cols", "4"), ("connect", &connect.to_string())]);
        assert_solve_matches_minimax(&c4, seed, plies)?;
        assert_search_is_optimal(&c4, seed, plies)?;
    }

    #[test]
    fn engine_equals_minimax_on_connect4_5x4(seed: u64, plies in 9usize..20, wide: bool) {
        let (rows, cols) = if wide { ("4", "5") } else { ("5", "4") };
        let c4: Connect4 = game(&[("rows", rows), ("cols", cols)]);
        assert_solve_matches_minimax(&c4, seed, plies)?;
        assert_search_is_optimal(&c4, seed, plies)?;
    }
}

#[test]
fn nim_one_pile_verdicts_follow_n_mod_k_plus_1() {
    for k in 1..=7u32 {
        for normal in [true, false] {
            let mut engine = engine(1);
            for n in 1..=120u32 {
                let rule = if normal { "normal" } else { "misere" };
                let nim: Nim = game(&[
                    ("piles", &n.to_string()),
                    ("max_take", &k.to_string()),
                    ("rule", rule),
                ]);
                let wins = value_to_mover(&mut engine, &nim, &nim.initial_state()) > 0;
                // Normal play: the mover loses on multiples of k+1; misère:
                // one more than a multiple.
                let losing = if normal {
                    n % (k + 1) == 0
                } else {
                    n % (k + 1) == 1
                };
                assert_eq!(wins, !losing, "n={n} k={k} {rule}");
            }
        }
    }
}

#[test]
fn nim_several_piles_verdicts_follow_bouton() {
    let mut engine = engine(4);
    for a in 0..=6u32 {
        for b in a..=6 {
            for c in b..=6 {
                for d in [0, 3, 7] {
                    let piles: Vec<u32> = [a, b, c, d].into_iter().filter(|&p| p > 0).collect();
                    if piles.is_empty() {
                        continue;
                    }
                    let text: Vec<String> = piles.iter().map(u32::to_string).collect();
                    let nim_sum = piles.iter().fold(0, |x, p| x ^ p);
                    for rule in ["normal", "misere"] {
                        let nim: Nim = game(&[
                            ("piles", &text.join(",")),
                            ("max_take", "0"),
                            ("rule", rule),
                        ]);
                        let wins = value_to_mover(&mut engine, &nim, &nim.initial_state()) > 0;
                        // Bouton: normal play is lost exactly on nim-sum 0;
                        // misère differs only when every pile has one stone.
                        let all_ones = piles.iter().all(|&p| p == 1);
                        let losing = if rule == "misere" && all_ones {
                            nim_sum == 1
                        } else {
                            nim_sum == 0
                        };
                        assert_eq!(wins, !losing, "piles {piles:?} {rule}");
                    }
                }
            }
        }
    }
}

#[test]
fn yucky_chocolate_first_player_wins_exactly_when_the_bar_is_not_square() {
    let mut engine = engine(4);
    for rows in 1..=14u32 {
        for cols in 1..=14u32 {
            if rows * cols == 1 {
                continue;
            }
            let bar: YuckyChocolate =
                game(&[("rows", &rows.to_string()), ("cols", &cols.to_string())]);
            let wins = value_to_mover(&mut engine, &bar, &bar.initial_state()) > 0;
            assert_eq!(wins, rows != cols, "{rows}x{cols}");
        }
    }
}

#[test]
fn connect4_scores_of_pons_blog_examples() {
    let c4 = Connect4::default();
    let mut engine = engine(16);
    for (digits, score) in [("4455", 18), ("44455554221", -15)] {
        let state = c4.state_from_digits(digits).unwrap();
        assert_eq!(value_to_mover(&mut engine, &c4, &state), score, "{digits}");
    }
}

#[test]
fn solving_a_finished_game_gives_its_payoff() {
    let c4 = Connect4::default();
    let won = c4.state_from_digits("1212121").unwrap();
    let status = c4.game_status(&won);
    assert_eq!(status, Status::Win(game_api::Player::P1));
    assert_eq!(engine(1).solve(&c4, &won).value, c4.payoff(&won, status));
}
