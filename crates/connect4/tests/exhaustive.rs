//! Every reachable position of small boards, against an independent
//! memoised minimax written here through the plain trait methods: the speed
//! hooks must agree with the rules everywhere, and `value_bounds` must
//! contain the exact value.

use connect4::{Column, Connect4, Position};
use game_api::{Game, Player, Status, Value};
use std::collections::{HashMap, HashSet};

/// The payoff to player 1 of a finished game, from the definition: the
/// winner's `s`-th stone wins `C - s` with `C = ceil(rows * cols / 2) + 1`.
fn payoff_by_definition(g: &Connect4, s: &Position, status: Status) -> Value {
    let c = (g.rows() * g.cols()).div_ceil(2) + 1;
    let stones_of_winner = s.moves_played().div_ceil(2);
    match status {
        Status::Win(p) => p.sign() * (c - stones_of_winner) as Value,
        Status::Draw => 0,
        Status::Ongoing(_) => unreachable!("only finished games have a payoff"),
    }
}

/// Exact minimax values (to player 1) of every position reachable from `s`.
fn solve(g: &Connect4, s: &Position, values: &mut HashMap<Position, Value>) -> Value {
    if let Some(&v) = values.get(s) {
        return v;
    }
    let v = match g.game_status(s) {
        Status::Ongoing(p) => {
            let children = g
                .legal_moves(s)
                .into_iter()
                .map(|m| solve(g, &g.next_state(s, &m).unwrap(), values));
            match p {
                Player::P1 => children.max(),
                Player::P2 => children.min(),
            }
            .expect("an ongoing game has moves")
        }
        over => payoff_by_definition(g, s, over),
    };
    values.insert(*s, v);
    v
}

/// Whether `m` lets the opponent win on the very next move.
fn loses_at_once(g: &Connect4, s: &Position, m: Column, mover: Player) -> bool {
    let next = g.next_state(s, &m).unwrap();
    !g.game_status(&next).is_over()
        && g.legal_moves(&next)
            .iter()
            .any(|r| g.game_status(&g.next_state(&next, r).unwrap()) == Status::Win(mover.other()))
}

fn check_every_position(rows: u32, cols: u32, connect: u32) -> usize {
    let g = Connect4::new(rows, cols, connect).unwrap();
    let mut values = HashMap::new();
    solve(&g, &g.initial_state(), &mut values);
    let mut keys = HashMap::with_capacity(values.len());
    let mut buf = Vec::new();
    let name = format!("{rows}x{cols} connect {connect}");
    for (s, &exact) in &values {
        let status = g.game_status(s);
        let board = || g.string_of_state(s);
        if let Some(other) = keys.insert(g.state_key(s), *s) {
            panic!(
                "{name}: these positions have the same state key:\n{}\n{}",
                board(),
                g.string_of_state(&other)
            );
        }
        let (low, high) = g.value_bounds(s);
        assert!(
            low <= exact && exact <= high,
            "{name}:\n{}\nexact value {exact} outside ({low}, {high})",
            board()
        );
        let Status::Ongoing(mover) = status else {
            assert_eq!(g.payoff(s, status), exact, "{name}:\n{}\n", board());
            assert_eq!(
                (low, high),
                (exact, exact),
                "{name}: bounds of a finished game are its payoff"
            );
            continue;
        };
        let legal = g.legal_moves(s);
        let wins: Vec<Column> = legal
            .iter()
            .copied()
            .filter(|m| g.game_status(&g.next_state(s, m).unwrap()) == Status::Win(mover))
            .collect();
        match g.winning_move(s) {
            Some(w) => {
                assert!(
                    wins.contains(&w),
                    "{name}:\n{}\nwinning_move {w} does not win",
                    board()
                );
                assert_eq!(
                    (low, high),
                    (exact, exact),
                    "{name}:\n{}\na win now has exact bounds",
                    board()
                );
            }
            None => assert!(
                wins.is_empty(),
                "{name}:\n{}\nwinning_move missed {wins:?}",
                board()
            ),
        }
        let safe: HashSet<Column> = legal
            .iter()
            .copied()
            .filter(|&m| !loses_at_once(&g, s, m, mover))
            .collect();
        g.non_losing_moves_into(s, &mut buf);
        let got: HashSet<Column> = buf.iter().copied().collect();
        assert_eq!(
            got.len(),
            buf.len(),
            "{name}:\n{}\nnon_losing_moves_into repeats a move",
            board()
        );
        assert_eq!(
            got,
            safe,
            "{name}:\n{}\nnon_losing_moves_into is not the set of moves that do not lose at once",
            board()
        );
        if safe.is_empty() {
            assert_eq!(
                (low, high),
                (exact, exact),
                "{name}:\n{}\na forced loss has exact bounds",
                board()
            );
        }
    }
    values.len()
}

#[test]
fn hooks_and_bounds_agree_with_full_search_on_4x4_connect_3() {
    assert!(check_every_position(4, 4, 3) > 1000);
}

#[test]
fn hooks_and_bounds_agree_with_full_search_on_4x4_connect_4() {
    assert!(check_every_position(4, 4, 4) > 1000);
}

#[test]
fn hooks_and_bounds_agree_with_full_search_on_3x5_connect_3() {
    // An odd number of cells: player 1 has one stone more.
    assert!(check_every_position(3, 5, 3) > 1000);
}

#[test]
fn hooks_and_bounds_agree_with_full_search_on_5x3_connect_3() {
    // Taller than wide: no horizontal line of 4 would fit, 3 does.
    assert!(check_every_position(5, 3, 3) > 1000);
}
