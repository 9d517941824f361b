//! The rules of Connect-4, checked on hand-built games: lines in every
//! direction and at the edges, draws, move notation, errors and rendering.

use connect4::{Column, Connect4, DigitsError};
use game_api::{Configurable, Game, Options, OptionsError, Player, Status};

fn standard() -> Connect4 {
    Connect4::default()
}

/// The status after the moves in `digits` on `game`.
fn status_after(game: &Connect4, digits: &str) -> Status {
    game.game_status(&game.state_from_digits(digits).unwrap())
}

#[test]
fn four_in_a_column_at_the_left_edge_wins() {
    let g = standard();
    assert_eq!(status_after(&g, "121212"), Status::Ongoing(Player::P1));
    assert_eq!(status_after(&g, "1212121"), Status::Win(Player::P1));
}

#[test]
fn four_in_a_column_reaching_the_top_row_wins() {
    // X: column 7 rows 1, 3, 4, 5, 6 (the top); O fills in columns 1 and 2.
    let g = standard();
    assert_eq!(status_after(&g, "77717271"), Status::Ongoing(Player::P1));
    assert_eq!(status_after(&g, "777172717"), Status::Win(Player::P1));
}

#[test]
fn four_in_a_row_at_the_right_edge_wins() {
    let g = standard();
    assert_eq!(status_after(&g, "445566"), Status::Ongoing(Player::P1));
    assert_eq!(status_after(&g, "4455667"), Status::Win(Player::P1));
}

#[test]
fn four_in_the_top_row_wins() {
    // Columns 1-4 are filled to five stones without a line (colours
    // alternating in each column, X at the bottom of columns 1 and 2, O of
    // columns 3 and 4), then X takes the top cells of columns 1, 2 and 3
    // while O plays columns 7 and 6, and the fourth top cell wins.
    let g = standard();
    let s = g.state_from_digits("11111333332222244444172736").unwrap();
    assert_eq!(
        g.game_status(&s),
        Status::Ongoing(Player::P1),
        "{}",
        g.string_of_state(&s)
    );
    let won = g.next_state(&s, &Column::from_number(4).unwrap()).unwrap();
    assert_eq!(g.game_status(&won), Status::Win(Player::P1));
    insta::assert_snapshot!(g.string_of_state(&won));
}

#[test]
fn rising_diagonal_from_the_bottom_left_corner_wins() {
    let g = standard();
    assert_eq!(status_after(&g, "1223433474"), Status::Ongoing(Player::P1));
    assert_eq!(status_after(&g, "12234334744"), Status::Win(Player::P1));
}

#[test]
fn falling_diagonal_to_the_bottom_right_corner_wins_for_player_2() {
    // The mirror image of the rising diagonal, shifted by one opening move of
    // X in column 1 so that O builds it.
    let g = standard();
    assert_eq!(status_after(&g, "17665455434"), Status::Ongoing(Player::P2));
    let s = g.state_from_digits("176654554344").unwrap();
    assert_eq!(g.game_status(&s), Status::Win(Player::P2));
    insta::assert_snapshot!(g.string_of_state(&s));
}

#[test]
fn full_board_without_a_line_is_a_draw() {
    // Columns filled with alternating colours, in the pattern A A B B A A B
    // (A starts with X at the bottom, B with O): no line anywhere.
    let g = standard();
    let s = g
        .state_from_digits("111111222222533333355555677777744444466666")
        .unwrap();
    assert_eq!(s.moves_played(), 42);
    assert_eq!(g.game_status(&s), Status::Draw);
    assert!(g.legal_moves(&s).is_empty());
    assert_eq!(g.payoff(&s, Status::Draw), 0);
    insta::assert_snapshot!(g.string_of_state(&s));
}

#[test]
fn line_completed_by_the_last_cell_is_a_win_not_a_draw() {
    let g = Connect4::new(1, 3, 2).unwrap();
    let s = g.state_from_digits("132").unwrap();
    assert_eq!(g.game_status(&s), Status::Win(Player::P1));
}

#[test]
fn payoff_rewards_the_winner_for_winning_early() {
    let g = standard();
    let fast = g.state_from_digits("1212121").unwrap(); // X's 4th stone
    let slow = g.state_from_digits("12234334744").unwrap(); // X's 6th stone
    let by_o = g.state_from_digits("176654554344").unwrap(); // O's 6th stone
    assert_eq!(g.payoff(&fast, g.game_status(&fast)), 18);
    assert_eq!(g.payoff(&slow, g.game_status(&slow)), 16);
    assert_eq!(g.payoff(&by_o, g.game_status(&by_o)), -16);
    assert_eq!(g.max_payoff(), 18);
}

#[test]
fn moves_are_column_numbers_with_spaces_allowed() {
    let g = standard();
    assert_eq!(g.move_of_string("4"), Ok(Column::from_index(3)));
    assert_eq!(g.move_of_string("  7 \n"), Ok(Column::from_index(6)));
    assert_eq!(g.move_of_string("1"), Ok(Column::from_index(0)));
    assert_eq!(g.string_of_move(&Column::from_index(3)), "4");
}

#[test]
fn text_that_is_not_a_column_gets_a_clear_parse_error() {
    let g = standard();
    for (text, message) in [
        ("0", "`0` is not a move: there is no column 0: expected a column number from 1 to 7"),
        ("8", "`8` is not a move: there is no column 8: expected a column number from 1 to 7"),
        ("x", "`x` is not a move: expected a column number from 1 to 7"),
        ("", "`` is not a move: expected a column number from 1 to 7"),
        ("-3", "`-3` is not a move: expected a column number from 1 to 7"),
        ("4 5", "`4 5` is not a move: expected a column number from 1 to 7"),
        (
            "99999999999999999999999",
            "`99999999999999999999999` is not a move: there is no column 99999999999999999999999: expected a \
             column number from 1 to 7",
        ),
    ] {
        assert_eq!(g.move_of_string(text).unwrap_err().to_string(), message);
    }
}

#[test]
fn full_column_missing_column_and_finished_game_are_illegal() {
    let g = standard();
    let s = g.state_from_digits("111111").unwrap();
    let err = g
        .next_state(&s, &Column::from_number(1).unwrap())
        .unwrap_err();
    assert_eq!(err.to_string(), "illegal move 1: column 1 is full");
    let err = g.next_state(&s, &Column::from_index(7)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move 8: there is no column 8: columns are 1 to 7"
    );
    let won = g.state_from_digits("1212121").unwrap();
    let err = g
        .next_state(&won, &Column::from_number(3).unwrap())
        .unwrap_err();
    assert_eq!(err.to_string(), "illegal move 3: the game is over");
    assert!(g.legal_moves(&won).is_empty());
}

#[test]
fn digit_strings_report_the_position_of_the_first_bad_character() {
    let g = standard();
    assert_eq!(
        g.state_from_digits("4458"),
        Err(DigitsError::NotAColumn {
            position: 4,
            found: '8',
            cols: 7
        })
    );
    assert_eq!(
        g.state_from_digits("  4x").unwrap_err().to_string(),
        "character 4 (`x`) is not a column: expected a digit from 1 to 7"
    );
    // The message names the place; the reason is its source (each cause
    // printed once in a chain).
    let err = g.state_from_digits("12121213").unwrap_err();
    assert_eq!(err.to_string(), "character 8");
    assert_eq!(
        std::error::Error::source(&err).unwrap().to_string(),
        "illegal move 3: the game is over"
    );
    assert_eq!(
        g.state_from_digits(" 4453 ").unwrap(),
        g.state_from_digits("4453").unwrap()
    );
    assert_eq!(g.state_from_digits("").unwrap(), g.initial_state());
}

#[test]
fn legal_moves_come_centre_first() {
    let g = standard();
    let numbers: Vec<u32> = g
        .legal_moves(&g.initial_state())
        .iter()
        .map(|c| c.number())
        .collect();
    assert_eq!(numbers, [4, 3, 5, 2, 6, 1, 7]);
    let even = Connect4::new(4, 6, 4).unwrap();
    let numbers: Vec<u32> = even
        .legal_moves(&even.initial_state())
        .iter()
        .map(|c| c.number())
        .collect();
    assert_eq!(numbers, [4, 3, 5, 2, 6, 1]);
    let s = g.state_from_digits("444444").unwrap();
    assert!(!g.legal_moves(&s).contains(&Column::from_number(4).unwrap()));
}

#[test]
fn options_round_trip_and_defaults_are_the_standard_game() {
    let g = Connect4::from_options(&Options::new()).unwrap();
    assert_eq!((g.rows(), g.cols(), g.connect()), (6, 7, 4));
    assert_eq!(g.options().to_string(), "cols=7 connect=4 rows=6");
    let odd =
        Connect4::from_options(&Options::parse_args(["rows=5", "cols=9", "connect=5"]).unwrap())
            .unwrap();
    assert_eq!(Connect4::from_options(&odd.options()).unwrap(), odd);
}

#[test]
fn unplayable_options_are_refused_with_the_reason() {
    let refuse =
        |args: &[&str]| Connect4::from_options(&Options::parse_args(args).unwrap()).unwrap_err();
    let unsupported = |args: &[&str]| match refuse(args) {
        OptionsError::Unsupported(why) => why,
        other => panic!("{args:?}: expected Unsupported, got {other:?}"),
    };
    assert_eq!(
        unsupported(&["rows=8", "cols=8"]),
        "a board of 8 rows and 8 columns is too large: cols * (rows + 1) must be at most 64 (it is 72)"
    );
    assert_eq!(
        unsupported(&["rows=0"]),
        "a 0 x 7 board has no cells: rows and cols must be at least 1"
    );
    assert_eq!(
        unsupported(&["connect=1"]),
        "connect=1 is meaningless: lines must be at least 2 long"
    );
    assert_eq!(
        unsupported(&["connect=8"]),
        "connect=8 cannot be reached on 6 rows and 7 columns: no line is that long"
    );
    assert_eq!(
        unsupported(&["rows=1", "cols=4", "connect=4"]),
        "a 1 x 4 board is too small for connect=4: the first player only ever has 2 stones"
    );
    assert_eq!(
        unsupported(&["rows=4000000000", "cols=7"]),
        "a board of 4000000000 rows and 7 columns is too large: cols * (rows + 1) must be at most 64 (it is \
         28000000007)"
    );
    assert!(matches!(
        refuse(&["rows=six"]),
        OptionsError::Invalid { .. }
    ));
    assert!(matches!(refuse(&["rows=-1"]), OptionsError::Invalid { .. }));
    assert!(matches!(
        refuse(&["colour=red"]),
        OptionsError::Unknown { .. }
    ));
}

#[test]
fn players_are_named_with_their_marks() {
    let g = standard();
    assert_eq!(g.string_of_player(Player::P1), "Player 1 (X)");
    assert_eq!(g.string_of_player(Player::P2), "Player 2 (O)");
    assert_eq!(Connect4::NAME, "connect4");
}

#[test]
fn board_is_drawn_with_column_numbers_and_whose_turn_it_is() {
    let g = standard();
    insta::assert_snapshot!(
        "empty_standard_board",
        g.string_of_state(&g.initial_state())
    );
    insta::assert_snapshot!(
        "after_4453",
        g.string_of_state(&g.state_from_digits("4453").unwrap())
    );
}

#[test]
fn wide_boards_align_two_digit_column_numbers() {
    let g = Connect4::new(3, 12, 4).unwrap();
    insta::assert_snapshot!(g.string_of_state(&g.state_from_digits("9").unwrap()));
}
