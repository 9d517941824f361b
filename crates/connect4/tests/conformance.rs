//! The conformance kit of `game-api`, on several board sizes and line lengths.

use connect4::Connect4;
use game_api::conformance::assert_conforms;

#[test]
fn standard_board_conforms() {
    assert_conforms(&Connect4::default());
}

#[test]
fn small_and_odd_boards_conform() {
    for (rows, cols, connect) in [
        (4, 4, 3),
        (4, 4, 4),
        (3, 5, 3),
        (5, 5, 4),
        (1, 9, 3),
        (8, 3, 6),
        (2, 3, 2),
    ] {
        assert_conforms(&Connect4::new(rows, cols, connect).unwrap());
    }
}

#[test]
fn largest_boards_conform() {
    // 64 bits used exactly (7 rows x 8 columns), the tallest board (63 rows,
    // 1 column) and the widest (1 row, 32 columns), with long lines.
    for (rows, cols, connect) in [(7, 8, 4), (7, 8, 5), (63, 1, 10), (1, 32, 5)] {
        assert_conforms(&Connect4::new(rows, cols, connect).unwrap());
    }
}
