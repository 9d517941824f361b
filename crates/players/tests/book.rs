//! The Connect-4 opening book against the solver, and what the engine does
//! with it on the empty board.

use connect4::{Column, Connect4};
use game_api::{Game, Status};
use players::{Engine, EngineConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The book's value of `state`, if it holds it.
fn book_value(game: &Connect4, book: &[(u64, i32)], state: &connect4::Position) -> Option<i32> {
    let key = game.book_key(state)?;
    book.binary_search_by_key(&key, |e| e.0)
        .ok()
        .map(|i| book[i].1)
}

/// Random 12-stone positions (seeded) with their moves, each with a flag:
/// whether the book should hold it (nobody has won and the player to move
/// cannot win at once).
fn sampled_positions(count: usize, seed: u64) -> Vec<(String, connect4::Position, bool)> {
    let game = Connect4::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let (mut digits, mut state) = (String::new(), game.initial_state());
        for _ in 0..12 {
            if game.game_status(&state).is_over() {
                break;
            }
            let moves = game.legal_moves(&state);
            let mv = moves[rng.gen_range(0..moves.len())];
            digits.push_str(&mv.to_string());
            state = game.next_state(&state, &mv).unwrap();
        }
        if state.moves_played() == 12 {
            let held = matches!(game.game_status(&state), Status::Ongoing(_))
                && game.winning_move(&state).is_none();
            out.push((digits, state, held));
        }
    }
    out
}

#[test]
fn book_values_match_the_solver_on_sampled_positions() {
    let game = Connect4::default();
    let book = game.opening_book().expect("the standard board has a book");
    assert_eq!(book.len(), 4_200_899, "one entry per position of the file");
    let mut solver: Engine<Connect4> = Engine::new(EngineConfig {
        use_book: false,
        ..EngineConfig::default()
    })
    .unwrap();
    let mut checked = 0;
    for (_, state, held) in sampled_positions(40, 12) {
        let found = book_value(&game, &book, &state);
        if !held {
            continue;
        }
        let found = found.unwrap_or_else(|| panic!("the book lacks {state:?}"));
        // Every twelfth-stone position the book holds is at most as hard as
        // Pons' begin sets: seconds at worst in this profile.
        assert_eq!(found, solver.solve(&game, &state).value, "{state:?}");
        checked += 1;
    }
    assert!(
        checked >= 20,
        "only {checked} sampled positions were checked"
    );
}

#[test]
fn a_position_and_its_mirror_image_share_a_book_value() {
    let game = Connect4::default();
    let book = game.opening_book().unwrap();
    // Column c and column 8 - c swapped.
    let mirror = |digits: &str| -> String {
        digits
            .chars()
            .map(|c| char::from(b'8' - (c as u8 - b'0')))
            .collect()
    };
    let mut found = 0;
    for (digits, a, _) in sampled_positions(200, 3) {
        let b = game.state_from_digits(&mirror(&digits)).unwrap();
        assert_eq!(game.book_key(&a), game.book_key(&b));
        let value = book_value(&game, &book, &a);
        assert_eq!(value, book_value(&game, &book, &b), "{digits}");
        found += usize::from(value.is_some());
    }
    assert!(found > 100, "only {found} of 200 found");
    // Other boards have no book, and other stone counts no key.
    let small = Connect4::new(5, 6, 4).unwrap();
    assert!(small.opening_book().is_none());
    assert_eq!(
        game.book_key(&game.state_from_digits("4444").unwrap()),
        None
    );
}

#[test]
fn on_the_empty_board_the_engine_ranks_column_4_first_with_exact_values() {
    let game = Connect4::default();
    let mut engine = Engine::new(EngineConfig {
        // However loaded the machine, solve to the end.
        solve_time_limit: None,
        ..EngineConfig::default()
    })
    .unwrap();
    let analysis = engine.analyse(&game, &game.initial_state()).unwrap();
    assert_eq!(analysis.chosen, Column::from_number(4).unwrap());
    assert!(analysis.moves.iter().all(|m| m.exact), "{analysis:?}");
    // Pons' scores of the seven first moves, from the left: only the centre
    // wins (player 1's last stone), its neighbours draw.
    let mut values: Vec<(u32, i32)> = analysis
        .moves
        .iter()
        .map(|m| (m.mv.number(), m.value))
        .collect();
    assert_eq!(values[0], (4, 1));
    values.sort_unstable();
    assert_eq!(
        values,
        vec![(1, -2), (2, -1), (3, 0), (4, 1), (5, 0), (6, -1), (7, -2)]
    );
}

#[test]
fn past_the_time_limit_a_game_with_a_book_gets_exact_values_and_the_best_move() {
    let game = Connect4::default();
    let mut solver: Engine<Connect4> = Engine::new(EngineConfig {
        use_book: false,
        ..EngineConfig::default()
    })
    .unwrap();
    // No time for anything but the first iteration, then as long as the
    // exact solution takes: the result cannot depend on the machine's load.
    let config = EngineConfig {
        time_limit: Some(std::time::Duration::ZERO),
        solve_time_limit: None,
        table_megabytes: 16,
        ..EngineConfig::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut positions = 0;
    while positions < 6 {
        // Random positions of 16 to 24 stones, past the book.
        let mut state = game.initial_state();
        for _ in 0..rng.gen_range(16..=24) {
            if game.game_status(&state).is_over() {
                break;
            }
            let moves = game.legal_moves(&state);
            state = game
                .next_state(&state, &moves[rng.gen_range(0..moves.len())])
                .unwrap();
        }
        let Status::Ongoing(mover) = game.game_status(&state) else {
            continue;
        };
        positions += 1;
        let exact = |mv: &Column, solver: &mut Engine<Connect4>| {
            let next = game.next_state(&state, mv).unwrap();
            match game.game_status(&next) {
                Status::Ongoing(_) => solver.solve(&game, &next).value,
                over => game.payoff(&next, over),
            }
        };
        let best = game
            .legal_moves(&state)
            .iter()
            .map(|mv| exact(mv, &mut solver) * mover.sign())
            .max()
            .unwrap();

        let analysis = Engine::new(config.clone())
            .unwrap()
            .analyse(&game, &state)
            .unwrap();
        for m in &analysis.moves {
            assert!(m.exact, "{state:?}: {analysis:?}");
            assert_eq!(
                m.value,
                exact(&m.mv, &mut solver),
                "{state:?}: {analysis:?}"
            );
        }
        assert_eq!(analysis.moves[0].value * mover.sign(), best, "{state:?}");

        let (mv, info) = Engine::new(config.clone())
            .unwrap()
            .search(&game, &state)
            .unwrap();
        assert!(info.exact, "{state:?}: {info:?}");
        assert_eq!(exact(&mv, &mut solver) * mover.sign(), best, "{state:?}");
        assert_eq!(info.value * mover.sign(), best, "{state:?}");
    }
}
