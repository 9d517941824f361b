//! The rules of Tic-tac-toe, checked on positions written by hand: every
//! line wins, a full board without a line is a draw, what is refused, and
//! the notation.

use game_api::{Configurable, Game, Options, Player, Status};
use tictactoe::{Board, TicTacToe};

/// The position after `moves` (in the notation), each one legal.
fn play(game: &TicTacToe, moves: &[&str]) -> Board {
    let mut s = game.initial_state();
    for text in moves {
        let mv = game.move_of_string(text).unwrap();
        s = game.next_state(&s, &mv).unwrap();
    }
    s
}

#[test]
fn the_game_starts_with_player_1_to_move_and_some_legal_moves() {
    let game = TicTacToe::default();
    let start = game.initial_state();
    assert_eq!(game.game_status(&start), Status::Ongoing(Player::P1));
    assert_eq!(game.legal_moves(&start).len(), 9);
}

#[test]
fn every_legal_move_is_written_in_a_notation_that_reads_back() {
    let game = TicTacToe::default();
    let start = game.initial_state();
    let texts: Vec<String> = game
        .legal_moves(&start)
        .iter()
        .map(|m| game.string_of_move(m))
        .collect();
    assert_eq!(
        texts,
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    );
    for mv in game.legal_moves(&start) {
        let text = game.string_of_move(&mv);
        assert_eq!(game.move_of_string(&text).unwrap(), mv, "{text}");
        assert!(game.next_state(&start, &mv).is_ok(), "{text}");
    }
    assert!(game.move_of_string("banana").is_err());
}

#[test]
fn the_notation_forgives_capitals_and_spaces_but_not_nonsense() {
    let game = TicTacToe::default();
    let b2 = game.move_of_string("b2").unwrap();
    for text in ["B2", " b2 ", "b 2", "\tB 2\n"] {
        assert_eq!(game.move_of_string(text).unwrap(), b2, "{text:?}");
    }
    for text in [
        "", " ", "2b", "b", "2", "b0", "b02", "b+2", "b-1", "bb2", "b2x", "b100", "é2", "b²",
        "b2 c3",
    ] {
        assert!(game.move_of_string(text).is_err(), "{text:?}");
    }
}

#[test]
fn every_row_column_and_diagonal_wins_for_whoever_completes_it() {
    let game = TicTacToe::default();
    let lines = [
        ["a1", "b1", "c1"],
        ["a2", "b2", "c2"],
        ["a3", "b3", "c3"],
        ["a1", "a2", "a3"],
        ["b1", "b2", "b3"],
        ["c1", "c2", "c3"],
        ["a1", "b2", "c3"],
        ["a3", "b2", "c1"],
    ];
    let squares = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    for line in lines {
        let others: Vec<&str> = squares.into_iter().filter(|s| !line.contains(s)).collect();
        // X completes the line while O's two marks are elsewhere.
        let s = play(&game, &[line[0], others[0], line[1], others[5], line[2]]);
        assert_eq!(game.game_status(&s), Status::Win(Player::P1), "{line:?}");
        assert!(game.legal_moves(&s).is_empty(), "{line:?}");
        assert_eq!(game.payoff(&s, game.game_status(&s)), 1);
        // O completes it while X's three marks (no line of theirs) are elsewhere.
        let moves = [others[0], line[0], others[1], line[1], others[5], line[2]];
        let before = play(&game, &moves[..5]);
        assert_eq!(
            game.game_status(&before),
            Status::Ongoing(Player::P2),
            "{line:?}"
        );
        let s = play(&game, &moves);
        assert_eq!(game.game_status(&s), Status::Win(Player::P2), "{line:?}");
        assert_eq!(game.payoff(&s, game.game_status(&s)), -1);
    }
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let game = TicTacToe::default();
    let s = play(
        &game,
        &["b2", "a1", "a3", "c1", "b1", "b3", "a2", "c2", "c3"],
    );
    assert_eq!(game.game_status(&s), Status::Draw);
    assert!(game.legal_moves(&s).is_empty());
    assert_eq!(game.payoff(&s, Status::Draw), 0);
    assert!(game
        .string_of_state(&s)
        .ends_with("Draw: the board is full"));
}

#[test]
fn a_taken_square_an_off_board_square_and_a_move_after_the_end_are_refused() {
    let game = TicTacToe::default();
    let s = play(&game, &["b2"]);
    let e = game
        .next_state(&s, &game.move_of_string("b2").unwrap())
        .unwrap_err();
    assert_eq!(e.to_string(), "illegal move b2: the square is taken (by X)");
    let e = game
        .next_state(&s, &game.move_of_string("d1").unwrap())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move d1: no such square on a 3x3 board (columns a to c, rows 1 to 3)"
    );
    let won = play(&game, &["a1", "a2", "b1", "b2", "c1"]);
    let e = game
        .next_state(&won, &game.move_of_string("c3").unwrap())
        .unwrap_err();
    assert_eq!(e.to_string(), "illegal move c3: the game is over");
}

#[test]
fn on_a_4x4_board_three_in_a_line_wins_anywhere() {
    let game = TicTacToe::from_options(&Options::parse_args(["rows=4", "cols=4", "k=3"]).unwrap())
        .unwrap();
    let s = play(&game, &["b2", "a1", "c3", "a4", "d4"]);
    assert_eq!(game.game_status(&s), Status::Win(Player::P1));
    let s = play(&game, &["b2", "a1", "c3", "a4"]);
    assert_eq!(game.game_status(&s), Status::Ongoing(Player::P1));
    assert_eq!(TicTacToe::from_options(&game.options()).unwrap(), game);
    assert_eq!((game.rows(), game.cols(), game.k()), (4, 4, 3));
}

#[test]
fn impossible_options_are_refused_with_the_reason() {
    let build = |args: &[&str]| {
        TicTacToe::from_options(&Options::parse_args(args).unwrap())
            .unwrap_err()
            .to_string()
    };
    assert!(build(&["k=4"]).contains("no line of 4 fits on a 3x3 board"));
    assert!(build(&["rows=0"]).contains("expected 1 to 26"));
    assert!(build(&["cols=27"]).contains("expected 1 to 26"));
    assert!(build(&["k=0"]).contains("expected at least 1"));
    assert!(build(&["size=3"]).contains("unknown option `size`"));
}

#[test]
fn the_board_is_drawn_top_row_first_with_letters_beneath() {
    let game = TicTacToe::default();
    let s = play(&game, &["b2", "a1"]);
    assert_eq!(
        game.string_of_state(&s),
        "3 . . .\n2 . X .\n1 O . .\n  a b c\nPlayer 1 (X) to move"
    );
}
