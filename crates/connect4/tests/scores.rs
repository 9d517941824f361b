//! The payoffs and hooks together reproduce Pascal Pons' published scores: a
//! small alpha-beta solver written here (through the `Game` trait only)
//! finds, for benchmark positions, exactly the score in the data files.
//!
//! This is the contract the generic engine relies on: its exact negamax value
//! for the side to move equals the benchmark score.

use connect4::{Column, Connect4, Position};
use game_api::{Game, Value};
use std::collections::HashMap;

/// A plain null-window alpha-beta solver using every speed hook, with an
/// upper-bound table.
struct Solver<'a> {
    game: &'a Connect4,
    upper: HashMap<u64, Value>,
}

impl Solver<'_> {
    /// The value for the side to move, if it lies in `(alpha, beta)`;
    /// otherwise a bound on the same side of the window.
    fn negamax(&mut self, s: &Position, mut alpha: Value, mut beta: Value) -> Value {
        let g = self.game;
        let sign = s.player_to_move().sign();
        let status = g.game_status(s);
        if status.is_over() {
            return g.payoff(s, status) * sign;
        }
        if let Some(w) = g.winning_move(s) {
            let next = g.next_state(s, &w).unwrap();
            return g.payoff(&next, g.game_status(&next)) * sign;
        }
        let (low, high) = g.value_bounds(s);
        let (low, high) = if sign > 0 { (low, high) } else { (-high, -low) };
        let high = self
            .upper
            .get(&g.state_key(s))
            .map_or(high, |&u| u.min(high));
        alpha = alpha.max(low);
        beta = beta.min(high);
        if alpha >= beta {
            return alpha;
        }
        let mut moves = Vec::new();
        g.non_losing_moves_into(s, &mut moves);
        assert!(
            !moves.is_empty(),
            "a forced loss has exact bounds, so it is never searched"
        );
        moves.sort_by_key(|m: &Column| -g.move_order_hint(s, m));
        for m in &moves {
            let v = -self.negamax(&g.next_state(s, m).unwrap(), -beta, -alpha);
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
        self.upper.insert(g.state_key(s), alpha);
        alpha
    }

    /// The exact score of `s` for the side to move, by narrowing null
    /// windows between the bounds.
    fn solve(&mut self, s: &Position) -> Value {
        let sign = s.player_to_move().sign();
        let (low, high) = self.game.value_bounds(s);
        let (mut low, mut high) = if sign > 0 { (low, high) } else { (-high, -low) };
        while low < high {
            let mut mid = low + (high - low) / 2;
            if mid <= 0 && low / 2 < mid {
                mid = low / 2;
            } else if mid >= 0 && high / 2 > mid {
                mid = high / 2;
            }
            let v = self.negamax(s, mid, mid + 1);
            if v <= mid {
                high = v;
            } else {
                low = v;
            }
        }
        low
    }
}

fn score(game: &Connect4, digits: &str) -> Value {
    let s = game.state_from_digits(digits).unwrap();
    Solver {
        game,
        upper: HashMap::new(),
    }
    .solve(&s)
}

#[test]
fn published_examples_score_18_and_minus_15() {
    let g = Connect4::default();
    assert_eq!(score(&g, "4455"), 18);
    assert_eq!(score(&g, "44455554221"), -15);
}

/// Checks the first `count` lines of a benchmark file.
fn check_file(file: &str, count: usize) {
    let g = Connect4::default();
    let path = format!(
        "{}/../../../shared/data/connect4/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (i, line) in text.lines().take(count).enumerate() {
        let (moves, expected) = line.split_once(' ').unwrap();
        let expected: Value = expected.parse().unwrap();
        assert_eq!(score(&g, moves), expected, "{path}:{}: {moves}", i + 1);
    }
}

#[test]
fn end_easy_benchmark_scores_are_reproduced() {
    check_file("Test_L3_R1", 1000);
}

#[test]
fn middle_easy_benchmark_scores_are_reproduced() {
    check_file("Test_L2_R1", 1000);
}

#[test]
fn middle_medium_benchmark_scores_are_reproduced() {
    check_file("Test_L2_R2", 10);
}

#[test]
fn begin_easy_benchmark_scores_are_reproduced() {
    check_file("Test_L1_R1", 50);
}
