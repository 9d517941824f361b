//! Snapshot tests of whole games: `game_api::transcript::render` writes,
//! after every move, the status, the legal moves and the board, and insta
//! keeps that text in `tests/snapshots/`. The first run records it (review
//! it with `cargo insta review`, or accept it by renaming the `.snap.new`
//! file); from then on any change in what the game answers shows as a diff.
//! The grader's answer keys are written by the same function.

use game_api::transcript::render;
use game_api::{Configurable, Options};
use my_nim::Submission;

fn game(options: &[&str]) -> Submission {
    Submission::from_options(&Options::parse_args(options).unwrap()).unwrap()
}

#[test]
fn three_piles_played_to_the_end() {
    let game = game(&["piles=1,2,1", "max_take=none"]);
    insta::assert_snapshot!(render(&game, &["2:2", "1:1", "3:1"]).unwrap());
}

#[test]
fn a_move_that_is_not_legal_is_named() {
    let game = game(&["piles=3"]);
    let error = render(&game, &["2", "2"]).unwrap_err();
    assert_eq!(error.index(), 2);
}
