//! Yucky Chocolate against its published theory: the first player wins
//! exactly when the bar is not square (square it off, then mirror every
//! move). An exhaustive, memoised search written here, using only the
//! `Game` trait, must agree on every bar up to 20 by 20.

use game_api::{Configurable, Game, Options, Player, Status};
use std::collections::HashMap;
use yucky_chocolate::{Bar, YuckyChocolate};

/// Who wins from `bar` with perfect play on both sides.
fn winner(game: &YuckyChocolate, bar: &Bar, memo: &mut HashMap<Bar, Player>) -> Player {
    if let Some(&known) = memo.get(bar) {
        return known;
    }
    let result = match game.game_status(bar) {
        Status::Win(p) => p,
        Status::Draw => panic!("Yucky Chocolate has no draws, but {bar:?} is one"),
        Status::Ongoing(mover) => {
            let mover_wins = game.legal_moves(bar).iter().any(|m| {
                let next = game.next_state(bar, m).expect("legal moves are accepted");
                winner(game, &next, memo) == mover
            });
            if mover_wins {
                mover
            } else {
                mover.other()
            }
        }
    };
    memo.insert(*bar, result);
    result
}

#[test]
fn the_first_player_wins_exactly_the_bars_that_are_not_square() {
    for rows in 1..=20 {
        for cols in 1..=20 {
            if rows == 1 && cols == 1 {
                continue;
            }
            let game = YuckyChocolate::new(rows, cols).unwrap();
            let first_wins =
                winner(&game, &game.initial_state(), &mut HashMap::new()) == Player::P1;
            assert_eq!(first_wins, rows != cols, "{rows}x{cols}");
        }
    }
}

#[test]
fn the_default_bar_is_a_first_player_win() {
    let game = YuckyChocolate::from_options(&Options::new()).unwrap();
    assert_eq!(
        winner(&game, &game.initial_state(), &mut HashMap::new()),
        Player::P1
    );
}
