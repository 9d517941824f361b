//! The players as players: what each one decides, given a game and a
//! position.

mod common;

use common::game;
use connect4::Connect4;
use game_api::{Game, Status};
use nim::Nim;
use players::minimax::{best_move, minimax, minimax_depth};
use players::{Agent, Decision, Engine, EngineConfig, Human, Level, Minimax, RandomAgent};
use std::collections::BTreeSet;
use std::io::{self, Write};
use std::time::Duration;

fn column(c4: &Connect4, text: &str) -> <Connect4 as Game>::Move {
    c4.move_of_string(text).unwrap()
}

/// Runs a human on `input` in `state`; returns the decision and what was shown.
fn human_decides(
    c4: &Connect4,
    digits: &str,
    input: &str,
) -> (Decision<<Connect4 as Game>::Move>, String) {
    let state = c4.state_from_digits(digits).unwrap();
    let mut human = Human::new(input.as_bytes(), Vec::new());
    let decision = human.decide(c4, &state);
    let (_, shown) = human.into_parts();
    (decision, String::from_utf8(shown).unwrap())
}

#[test]
fn human_gets_the_reason_and_the_legal_moves_until_a_legal_move() {
    let c4 = Connect4::default();
    // Column 4 is full after six stones in it.
    let (decision, shown) = human_decides(&c4, "444444", "banana\n\n4\n9\n3\n");
    assert_eq!(decision, Decision::Play(column(&c4, "3"), None));
    assert!(shown.contains("`banana` is not a move"), "{shown}");
    assert!(shown.contains("column 4 is full"), "{shown}");
    assert!(shown.contains("there is no column 9"), "{shown}");
    assert_eq!(
        shown.matches("legal moves: 1, 2, 3, 5, 6, 7").count(),
        3,
        "{shown}"
    );
    assert_eq!(
        shown.matches("Player 1 (X), your move: ").count(),
        5,
        "{shown}"
    );
}

#[test]
fn end_of_input_is_a_resignation_not_a_panic() {
    let c4 = Connect4::default();
    let (decision, shown) = human_decides(&c4, "", "x\n");
    assert_eq!(decision, Decision::Resign);
    assert!(
        !shown.contains("resigns"),
        "the caller says what the end of input means: {shown}"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_asked_again() {
    let c4 = Connect4::default();
    let state = c4.initial_state();
    let mut human = Human::new(&b"\xff\xfe\n4\n"[..], Vec::new());
    assert_eq!(
        human.decide(&c4, &state),
        Decision::Play(column(&c4, "4"), None)
    );
    let shown = String::from_utf8(human.into_parts().1).unwrap();
    assert!(shown.contains("not UTF-8"), "{shown}");
    assert_eq!(shown.matches("your move: ").count(), 2, "{shown}");
}

#[test]
fn human_commands_become_decisions() {
    let c4 = Connect4::default();
    assert_eq!(human_decides(&c4, "", "quit\n").0, Decision::Resign);
    assert_eq!(human_decides(&c4, "", " UNDO \n").0, Decision::Undo);
    assert_eq!(human_decides(&c4, "", "hint\n").0, Decision::Hint);
    let (decision, shown) = human_decides(&c4, "4", "?\n 5 \n");
    assert_eq!(decision, Decision::Play(column(&c4, "5"), None));
    assert!(
        shown.contains("legal moves: 1, 2, 3, 4, 5, 6, 7"),
        "{shown}"
    );
}

#[test]
fn a_closed_output_is_a_resignation() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let c4 = Connect4::default();
    let mut human = Human::new("4\n".as_bytes(), Closed);
    assert_eq!(human.decide(&c4, &c4.initial_state()), Decision::Resign);
}

/// Plays a whole game between two agents; returns the final state.
fn play<G: Game>(game: &G, p1: &mut dyn Agent<G>, p2: &mut dyn Agent<G>) -> G::State {
    let mut state = game.initial_state();
    while let Status::Ongoing(p) = game.game_status(&state) {
        let agent: &mut dyn Agent<G> = if p == game_api::Player::P1 {
            &mut *p1
        } else {
            &mut *p2
        };
        match agent.decide(game, &state) {
            Decision::Play(mv, _) => {
                state = game
                    .next_state(&state, &mv)
                    .expect("agents play legal moves")
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    state
}

#[test]
fn random_player_is_legal_reproducible_and_seed_dependent() {
    let c4 = Connect4::default();
    let game_with = |seed| {
        play(
            &c4,
            &mut RandomAgent::new(seed),
            &mut RandomAgent::new(seed + 1),
        )
    };
    assert_eq!(game_with(1), game_with(1));
    let distinct: BTreeSet<String> = (0..10).map(|s| c4.string_of_state(&game_with(s))).collect();
    assert!(
        distinct.len() >= 9,
        "{} distinct games of 10",
        distinct.len()
    );
}

#[test]
fn random_player_is_uniform() {
    // Three legal moves: take 1, 2 or 3 stones.
    let nim: Nim = game(&[("piles", "9"), ("max_take", "3")]);
    let state = nim.initial_state();
    let mut agent = RandomAgent::new(42);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..3000 {
        let Decision::Play(mv, None) = agent.decide(&nim, &state) else {
            panic!("no move")
        };
        *counts.entry(nim.string_of_move(&mv)).or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 3);
    // Expected 1000 each, standard deviation about 26.
    assert!(
        counts.values().all(|&c| (850..=1150).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn minimax_as_taught_finds_wins_and_uses_estimates_at_its_depth() {
    // Misère, take 1 or 2: 8 stones is a win by taking 1 (7 = 3*2+1 loses).
    let nim: Nim = game(&[("piles", "8")]);
    let s = nim.initial_state();
    assert_eq!(minimax(&nim, &s), 1);
    let (value, mv) = best_move(&nim, &s, None).unwrap();
    assert_eq!((value, nim.string_of_move(&mv)), (1, "1".to_owned()));
    assert_eq!(minimax_depth(&nim, &s, 0), nim.estimate_value(&s));
    assert_eq!(minimax_depth(&nim, &s, 8), minimax(&nim, &s));
    let two: Nim = game(&[("piles", "2")]);
    let over = two
        .next_state(&two.initial_state(), &two.move_of_string("2").unwrap())
        .unwrap();
    assert!(two.game_status(&over).is_over());
    assert_eq!(best_move(&two, &over, Some(1)), None);

    let mut agent = Minimax::new(None);
    assert_eq!(Agent::<Nim>::name(&agent), "minimax");
    let Decision::Play(chosen, Some(info)) = agent.decide(&nim, &s) else {
        panic!("no move")
    };
    assert_eq!(chosen, mv);
    assert!(info.exact && info.value == 1 && info.nodes > 8, "{info:?}");
    assert_eq!(
        Agent::<Nim>::name(&Minimax::new(Some(3))),
        "minimax:depth=3"
    );
}

#[test]
fn engine_takes_a_win_and_blocks_a_threat() {
    let c4 = Connect4::default();
    let config = EngineConfig {
        max_depth: Some(2),
        time_limit: None,
        table_megabytes: 1,
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config).unwrap();
    // Player 1 has three stacked in column 1 and wins there.
    let (mv, info) = engine
        .search(&c4, &c4.state_from_digits("121212").unwrap())
        .unwrap();
    assert_eq!(mv, column(&c4, "1"));
    assert_eq!(info.value, 22 - 4);
    // Player 2 must block column 1.
    let (mv, _) = engine
        .search(&c4, &c4.state_from_digits("12121").unwrap())
        .unwrap();
    assert_eq!(mv, column(&c4, "1"));
}

#[test]
fn engine_search_reports_depth_nodes_and_a_legal_principal_variation() {
    let c4 = Connect4::default();
    let config = EngineConfig {
        max_depth: Some(6),
        time_limit: None,
        table_megabytes: 4,
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config).unwrap();
    let state = c4.state_from_digits("4453").unwrap();
    let (mv, info) = engine.search(&c4, &state).unwrap();
    assert_eq!(info.depth, 6);
    assert!(!info.exact && info.nodes > 6, "{info:?}");
    assert!(info.value.abs() < c4.max_payoff(), "an estimate: {info:?}");
    assert_eq!(info.pv[0], c4.string_of_move(&mv));
    let states = game_api::replay(
        &c4,
        &[
            &["4", "4", "5", "3"][..],
            &info.pv.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    assert!(states.is_ok(), "{:?}", info.pv);
    assert!(info.pv.len() <= 6);
    assert_eq!(Agent::<Connect4>::name(&engine), "ai:depth=6");
}

#[test]
fn engine_search_is_exact_near_the_end_and_agrees_with_solve() {
    let c4 = Connect4::default();
    // No time limit: exactness must not depend on how busy the machine is.
    let mut engine = Engine::new(EngineConfig {
        table_megabytes: 4,
        time_limit: None,
        ..EngineConfig::default()
    })
    .unwrap();
    // A Test_L3_R1 line: 38 stones played, a draw (score 0).
    let state = c4
        .state_from_digits("23163416124767223154467471272416755633")
        .unwrap();
    let (_, info) = engine.search(&c4, &state).unwrap();
    let mover = state.player_to_move().sign();
    assert!(info.exact, "{info:?}");
    assert_eq!(info.value * mover, 0);
    assert_eq!(engine.solve(&c4, &state).value, info.value);
}

#[test]
fn the_first_iteration_always_completes_whatever_the_time_budget() {
    let c4 = Connect4::default();
    let config = EngineConfig {
        time_limit: Some(Duration::ZERO),
        // With the book it would go on to solve the position.
        use_book: false,
        ..EngineConfig::default()
    };
    let mut engine = Engine::new(config).unwrap();
    let Decision::Play(mv, Some(info)) = engine.decide(&c4, &c4.initial_state()) else {
        panic!("no move")
    };
    assert!(c4.legal_moves(&c4.initial_state()).contains(&mv));
    assert!(info.depth >= 1 && !info.exact, "{info:?}");
}

#[test]
fn random_ties_vary_with_the_seed_and_repeat_with_it() {
    // Normal play, 8 stones, take up to 3: every move loses (8 = 2*4), so
    // all three moves are equally good.
    let nim: Nim = game(&[("piles", "8"), ("max_take", "3"), ("rule", "normal")]);
    let s = nim.initial_state();
    let choose = |seed, random_ties| {
        let config = EngineConfig {
            seed,
            random_ties,
            time_limit: None,
            ..EngineConfig::default()
        };
        let (mv, info) = Engine::new(config).unwrap().search(&nim, &s).unwrap();
        assert_eq!(info.value, -1);
        nim.string_of_move(&mv)
    };
    let with_ties: BTreeSet<String> = (0..20).map(|seed| choose(seed, true)).collect();
    assert_eq!(with_ties.len(), 3, "{with_ties:?}");
    assert!((0..5).all(|seed| choose(seed, true) == choose(seed, true)));
    let without: BTreeSet<String> = (0..20).map(|seed| choose(seed, false)).collect();
    assert_eq!(without.len(), 1, "{without:?}");
}

#[test]
fn random_ties_never_choose_a_worse_move() {
    // 9 stones, take up to 3, normal play: only taking 1 wins.
    let nim: Nim = game(&[("piles", "9"), ("max_take", "3"), ("rule", "normal")]);
    for seed in 0..10 {
        let config = EngineConfig {
            seed,
            random_ties: true,
            time_limit: None,
            ..EngineConfig::default()
        };
        let (mv, info) = Engine::new(config)
            .unwrap()
            .search(&nim, &nim.initial_state())
            .unwrap();
        assert_eq!((nim.string_of_move(&mv), info.value), ("1".to_owned(), 1));
    }
}

#[test]
fn engine_always_beats_a_random_player_from_a_winning_start() {
    // Nim-sum of 3, 4, 5 is 2: the first player wins under normal play.
    let nim: Nim = game(&[("piles", "3,4,5"), ("max_take", "0"), ("rule", "normal")]);
    for seed in 0..10 {
        let mut engine = Engine::new(EngineConfig {
            time_limit: None,
            table_megabytes: 1,
            ..EngineConfig::default()
        })
        .unwrap();
        let end = play(&nim, &mut engine, &mut RandomAgent::new(seed));
        assert_eq!(nim.game_status(&end), Status::Win(game_api::Player::P1));
    }
}

#[test]
fn engine_memory_follows_the_configured_table_size() {
    let engine: Engine<Connect4> = Engine::new(EngineConfig {
        table_megabytes: 2,
        ..EngineConfig::default()
    })
    .unwrap();
    assert_eq!(engine.table_capacity(), 2 * (1 << 20) / 16);
}

#[test]
fn agents_resign_when_the_game_is_over() {
    let c4 = Connect4::default();
    let won = c4.state_from_digits("1212121").unwrap();
    assert_eq!(
        Engine::new(EngineConfig::default())
            .unwrap()
            .decide(&c4, &won),
        Decision::Resign
    );
    assert_eq!(Minimax::new(Some(2)).decide(&c4, &won), Decision::Resign);
    assert_eq!(RandomAgent::new(0).decide(&c4, &won), Decision::Resign);
}

/// What level `n` plays in `state`, for each of `seeds`.
fn level_moves<G: Game>(game: &G, state: &G::State, n: u64, seeds: u64) -> BTreeSet<String> {
    (0..seeds)
        .map(|seed| {
            let config = EngineConfig {
                table_megabytes: 1,
                ..Level::new(n).unwrap().config(seed)
            };
            let mut engine = Engine::new(config).unwrap();
            let (mv, _) = engine.search(game, state).unwrap();
            game.string_of_move(&mv)
        })
        .collect()
}

#[test]
fn level_one_never_plays_a_move_that_loses_at_once_when_another_exists() {
    // Connect-4: X has three in column 1; O must block there.
    let c4 = Connect4::default();
    let state = c4.state_from_digits("17171").unwrap();
    assert_eq!(
        level_moves(&c4, &state, 1, 40),
        BTreeSet::from(["1".into()])
    );
    // Nim with the games' own default hooks: from 4 stones (normal play,
    // take 1 or 2), taking 2 lets the opponent take the last two and win.
    let normal = game::<Nim>(&[("piles", "4"), ("rule", "normal")]);
    let four = normal.initial_state();
    assert_eq!(
        level_moves(&normal, &four, 1, 40),
        BTreeSet::from(["1".into()])
    );
    // Misère, 2 stones: taking both loses at once.
    let misere = game::<Nim>(&[("piles", "2"), ("rule", "misere")]);
    let two = misere.initial_state();
    assert_eq!(
        level_moves(&misere, &two, 1, 40),
        BTreeSet::from(["1".into()])
    );
}

#[test]
fn level_one_draws_among_all_the_moves_that_do_not_lose() {
    let c4 = Connect4::default();
    let moves = level_moves(&c4, &c4.initial_state(), 1, 60);
    assert_eq!(moves.len(), 7, "{moves:?}");
}

#[test]
fn a_level_repeats_its_move_with_the_same_seed() {
    let c4 = Connect4::default();
    let state = c4.state_from_digits("4435").unwrap();
    for n in 1..Level::STRONGEST.number() {
        for seed in [0, 7, 99] {
            let config = EngineConfig {
                table_megabytes: 1,
                ..Level::new(n.into()).unwrap().config(seed)
            };
            let play = || {
                let mut engine: Engine<Connect4> = Engine::new(config.clone()).unwrap();
                engine.search(&c4, &state).unwrap().0
            };
            assert_eq!(play(), play(), "level {n}, seed {seed}");
        }
    }
}

#[test]
fn drawing_among_the_best_moves_never_takes_a_proven_loss_when_the_best_is_not_one() {
    // O must block in column 1; with best_of = 3, it still blocks.
    let c4 = Connect4::default();
    let state = c4.state_from_digits("17171").unwrap();
    for seed in 0..20 {
        let mut engine = Engine::new(EngineConfig {
            max_depth: Some(4),
            time_limit: None,
            table_megabytes: 1,
            seed,
            random_ties: true,
            best_of: 3,
            ..EngineConfig::default()
        })
        .unwrap();
        let (mv, _) = engine.search(&c4, &state).unwrap();
        assert_eq!(c4.string_of_move(&mv), "1", "seed {seed}");
    }
}

#[test]
fn analyse_values_every_move_best_first_and_chooses_the_first() {
    let c4 = Connect4::default();
    for digits in ["", "44", "4453", "17171"] {
        let state = c4.state_from_digits(digits).unwrap();
        let mut engine = Engine::new(EngineConfig {
            max_depth: Some(6),
            time_limit: None,
            table_megabytes: 4,
            ..EngineConfig::default()
        })
        .unwrap();
        let analysis = engine.analyse(&c4, &state).unwrap();
        assert_eq!(analysis.chosen, analysis.moves[0].mv, "{digits}");
        assert_eq!(analysis.info.value, analysis.moves[0].value, "{digits}");
        let sign = c4.game_status(&state).to_move().unwrap().sign();
        // Without proven values in these positions, plain value order.
        for pair in analysis.moves.windows(2) {
            if !pair[0].proven && !pair[1].proven {
                assert!(sign * pair[0].value >= sign * pair[1].value, "{digits}");
            }
        }
    }
}
