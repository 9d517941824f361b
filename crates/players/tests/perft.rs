//! Perft counts checked against counts derived by hand, and against a
//! naive recursive count on random positions.

mod common;

use common::{game, random_position};
use connect4::Connect4;
use game_api::Game;
use nim::Nim;
use players::perft;
use proptest::prelude::*;
use yucky_chocolate::YuckyChocolate;

#[test]
fn connect4_counts_are_powers_of_seven_until_a_column_overflows() {
    // No game can end before move 7 and no column fills before move 6, so
    // every sequence of up to 6 moves is legal: 7^d. At depth 7 the only
    // illegal sequences put all seven stones in one column (7 of them);
    // a player-1 win on move 7 still counts.
    let c4 = Connect4::default();
    let counts = perft(&c4, &c4.initial_state(), 7);
    assert_eq!(
        counts,
        vec![7, 49, 343, 2_401, 16_807, 117_649, 823_543 - 7]
    );
}

#[test]
fn nim_seven_stones_take_one_or_two_counts_by_hand() {
    // Sequences of 1s and 2s whose running total stays below 7 before the
    // last move and reaches at most 7 with it. Depth 4: all 16 but 2222
    // (which would take 2 with 1 stone left). Depth 5: after 4 moves the
    // totals are 4 (1 way), 5 (4 ways) or 6 (6 ways), leaving 3, 2 or 1
    // stones: 1*2 + 4*2 + 6*1 = 16. Depth 6: after 5 moves the total is 5
    // (1 way, 2 stones left) or 6 (5 ways, 1 left): 1*2 + 5*1 = 7. Depth 7:
    // only 1111111.
    let nim = Nim::default();
    let counts = perft(&nim, &nim.initial_state(), 8);
    assert_eq!(counts, vec![2, 4, 8, 15, 16, 7, 1, 0]);
}

#[test]
fn yucky_chocolate_two_by_two_has_two_games_of_two_moves() {
    // 2x2: break a row or a column, leaving 1x2 or 2x1; then one move
    // leaves the yucky square alone and the game is over.
    let bar: YuckyChocolate = game(&[("rows", "2"), ("cols", "2")]);
    assert_eq!(perft(&bar, &bar.initial_state(), 3), vec![2, 2, 0]);
}

#[test]
fn a_finished_game_has_no_sequences() {
    let c4 = Connect4::default();
    let won = c4.state_from_digits("1212121").unwrap();
    assert_eq!(perft(&c4, &won, 3), vec![0, 0, 0]);
    assert!(perft(&c4, &c4.initial_state(), 0).is_empty());
}

/// An independent count: the number of sequences of exactly `depth` moves.
fn naive<G: Game>(game: &G, state: &G::State, depth: usize) -> u64 {
    if game.game_status(state).is_over() {
        return 0;
    }
    let moves = game.legal_moves(state);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| naive(game, &game.next_state(state, m).unwrap(), depth - 1))
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn perft_agrees_with_a_naive_count(seed: u64, plies in 0usize..12, connect in 3u32..5) {
        let c4: Connect4 = game(&[("rows", "4"), ("cols", "5"), ("connect", &connect.to_string())]);
        let state = random_position(&c4, seed, plies);
        let counts = perft(&c4, &state, 5);
        for (d, &count) in counts.iter().enumerate() {
            prop_assert_eq!(count, naive(&c4, &state, d + 1), "depth {}", d + 1);
        }
    }
}
