//! Published truths about Connect-4: the number of positions after each ply
//! (OEIS A212693) and the properties of Pascal Pons' benchmark positions.

use connect4::Connect4;
use game_api::{Game, Status};
use std::collections::HashSet;

/// Number of legal 7 x 6 Connect-Four positions after n plies, n = 0..=9
/// (OEIS A212693, John Tromp).
const A212693: [usize; 10] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186];

#[test]
fn positions_after_each_ply_match_oeis_a212693() {
    // A position is legal if some game reaches it: positions where the game
    // has just been won count, but a finished game is not continued (the
    // first wins appear at ply 7).
    let g = Connect4::default();
    let mut layer = vec![g.initial_state()];
    let mut moves = Vec::new();
    for (ply, &expected) in A212693.iter().enumerate() {
        // Sorting by the key brings equal positions together (a HashSet is
        // several times slower here).
        layer.sort_unstable_by_key(|s| g.state_key(s));
        layer.dedup();
        assert_eq!(layer.len(), expected, "positions after {ply} plies");
        let mut next = Vec::with_capacity(expected * 4);
        for s in &layer {
            g.legal_moves_into(s, &mut moves);
            next.extend(moves.iter().map(|m| g.next_state(s, m).unwrap()));
        }
        layer = next;
    }
}

#[test]
fn finished_games_first_appear_at_ply_7() {
    let g = Connect4::default();
    let mut layer = HashSet::from([g.initial_state()]);
    for ply in 1..=7 {
        layer = layer
            .iter()
            .flat_map(|s| {
                g.legal_moves(s)
                    .into_iter()
                    .map(|m| g.next_state(s, &m).unwrap())
            })
            .collect();
        let won = layer.iter().filter(|s| g.game_status(s).is_over()).count();
        assert_eq!(won > 0, ply == 7, "finished games after {ply} plies: {won}");
    }
}

/// One benchmark line: the moves and Pons' score for the side to move.
struct Line {
    file: &'static str,
    number: usize,
    moves: String,
    score: i32,
}

const BENCHMARK_FILES: [&str; 6] = [
    "Test_L3_R1",
    "Test_L2_R1",
    "Test_L2_R2",
    "Test_L1_R1",
    "Test_L1_R2",
    "Test_L1_R3",
];

fn benchmark_lines() -> Vec<Line> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/connect4");
    let mut lines = Vec::new();
    for file in BENCHMARK_FILES {
        let path = format!("{dir}/{file}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (i, line) in text.lines().enumerate() {
            let (moves, score) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("{path}:{}: no score", i + 1));
            let score = score
                .parse()
                .unwrap_or_else(|e| panic!("{path}:{}: score: {e}", i + 1));
            lines.push(Line {
                file,
                number: i + 1,
                moves: moves.to_owned(),
                score,
            });
        }
    }
    lines
}

#[test]
fn every_benchmark_position_is_legal_ongoing_and_has_no_immediate_win() {
    let g = Connect4::default();
    let lines = benchmark_lines();
    assert_eq!(lines.len(), 6000);
    for l in &lines {
        let s = g
            .state_from_digits(&l.moves)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", l.file, l.number));
        assert_eq!(s.moves_played() as usize, l.moves.len());
        assert_eq!(
            g.game_status(&s),
            Status::Ongoing(s.player_to_move()),
            "{}:{}",
            l.file,
            l.number
        );
        assert_eq!(g.winning_move(&s), None, "{}:{}", l.file, l.number);
    }
}

#[test]
fn value_bounds_contain_every_published_benchmark_score() {
    let g = Connect4::default();
    // Lines whose bounds are closed on a win for the player to move: with
    // no win at once (see above), two winning spots stacked above a move.
    let mut stacked_wins = 0;
    for l in benchmark_lines() {
        let s = g.state_from_digits(&l.moves).unwrap();
        let value = l.score * s.player_to_move().sign();
        let (low, high) = g.value_bounds(&s);
        stacked_wins += usize::from(low == high && l.score > 0);
        assert!(
            low <= value && value <= high,
            "{}:{} ({}): score {} (value {value} to player 1) is outside value_bounds ({low}, {high})",
            l.file,
            l.number,
            l.moves,
            l.score
        );
        // The published range of scores on 7 x 6 is within the payoffs.
        assert!(value.abs() <= g.max_payoff());
    }
    assert!(stacked_wins > 0, "no line has a stacked win to check");
}
