//! Speed of the Connect-4 primitives: move generation and every speed hook.
//!
//! ```sh
//! cargo run --release -p connect4 --example bench
//! ```
//!
//! Prints leaves per second of a full-width walk of the first plies (legal
//! moves and next state only), then nanoseconds per call of each hook over
//! the 6000 positions of Pascal Pons' benchmark sets; each figure is the
//! best of several trials.

use connect4::{Column, Connect4, Position};
use game_api::Game;
use std::hint::black_box;
use std::time::Instant;

/// Timing trials per figure; the best one is printed.
const TRIALS: usize = 7;

/// Counts the leaves `depth` plies below `s`, reusing one buffer per ply.
fn walk(g: &Connect4, s: &Position, depth: usize, buffers: &mut [Vec<Column>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
    g.legal_moves_into(s, buf);
    let mut leaves = 0;
    for m in buf.iter() {
        let next = g.next_state(s, m).expect("legal");
        leaves += walk(g, &next, depth - 1, rest);
    }
    leaves
}

fn benchmark_positions(g: &Connect4) -> Vec<Position> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/connect4");
    let mut positions = Vec::new();
    for file in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
    ] {
        let path = format!("{dir}/{file}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (i, line) in text.lines().enumerate() {
            let moves = line.split(' ').next().unwrap_or_default();
            positions.push(
                g.state_from_digits(moves)
                    .unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1)),
            );
        }
    }
    positions
}

/// Runs `f` on every position `rounds` times, in several trials, and prints
/// the best trial's ns per call (the least disturbed by other processes).
fn time_hook(
    name: &str,
    positions: &[Position],
    rounds: usize,
    mut f: impl FnMut(&Position) -> u64,
) {
    let mut best = f64::INFINITY;
    for _ in 0..TRIALS {
        let start = Instant::now();
        let mut sink = 0u64;
        for _ in 0..rounds {
            for s in positions {
                sink = sink.wrapping_add(f(black_box(s)));
            }
        }
        black_box(sink);
        best = best.min(start.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64);
    }
    println!("{name:<28} {best:>7.2} ns/call");
}

fn main() {
    let g = Connect4::default();
    let depth = 8;
    let mut buffers: Vec<Vec<Column>> = (0..depth).map(|_| Vec::with_capacity(7)).collect();
    let mut secs = f64::INFINITY;
    let mut leaves = 0;
    for _ in 0..TRIALS {
        let start = Instant::now();
        leaves = walk(&g, &g.initial_state(), depth, &mut buffers);
        secs = secs.min(start.elapsed().as_secs_f64());
    }
    println!(
        "walk to depth {depth}: {leaves} leaves in {secs:.3} s, {:.1} M leaves/s",
        leaves as f64 / secs / 1e6
    );

    let positions = benchmark_positions(&g);
    let rounds = 100;
    println!(
        "hooks over {} benchmark positions x {rounds}:",
        positions.len()
    );
    let mut buf = Vec::with_capacity(7);
    time_hook("game_status", &positions, rounds, |s| {
        g.game_status(s).is_over().into()
    });
    time_hook("legal_moves_into", &positions, rounds, |s| {
        g.legal_moves_into(s, &mut buf);
        buf.len() as u64
    });
    time_hook("next_state (column 4)", &positions, rounds, |s| {
        g.next_state(s, &Column::from_index(3))
            .map_or(0, |n| g.state_key(&n))
    });
    time_hook("state_key", &positions, rounds, |s| g.state_key(s));
    time_hook("winning_move", &positions, rounds, |s| {
        g.winning_move(s).map_or(0, |c| c.number().into())
    });
    time_hook("non_losing_moves_into", &positions, rounds, |s| {
        g.non_losing_moves_into(s, &mut buf);
        buf.len() as u64
    });
    time_hook("move_order_hint (x7 cols)", &positions, rounds, |s| {
        (0..7)
            .map(|c| g.move_order_hint(s, &Column::from_index(c)) as u64)
            .sum()
    });
    time_hook("value_bounds", &positions, rounds, |s| {
        let (lo, hi) = g.value_bounds(s);
        (lo + hi) as u64
    });
    time_hook("estimate_value", &positions, rounds, |s| {
        g.estimate_value(s) as u64
    });
}
