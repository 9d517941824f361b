//! Tic-tac-toe obeys every law of the `game_api` conformance kit, on the
//! standard board and on other m,n,k-games.

use game_api::conformance::assert_conforms;
use tictactoe::TicTacToe;

#[test]
fn the_default_game_conforms() {
    assert_conforms(&TicTacToe::default());
}

#[test]
fn larger_boards_and_other_line_lengths_conform() {
    for (rows, cols, k) in [(4, 4, 3), (3, 5, 4), (6, 7, 4), (8, 8, 5)] {
        assert_conforms(&TicTacToe::new(rows, cols, k).unwrap());
    }
}

#[test]
fn degenerate_boards_conform() {
    for (rows, cols, k) in [(1, 1, 1), (1, 5, 2), (5, 1, 5), (2, 2, 1), (4, 26, 26)] {
        assert_conforms(&TicTacToe::new(rows, cols, k).unwrap());
    }
}
