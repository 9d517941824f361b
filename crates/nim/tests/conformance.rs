//! Nim obeys every law of the `game_api` conformance kit, in every kind of
//! setup: one pile or several, with or without a limit, misère or normal.

use game_api::{conformance::assert_conforms, Configurable, Options};
use nim::Nim;

fn nim(args: &[&str]) -> Nim {
    Nim::from_options(&Options::parse_args(args).unwrap()).unwrap()
}

#[test]
fn the_classic_lab_game_conforms() {
    assert_conforms(&Nim::default());
}

#[test]
fn normal_play_conforms() {
    assert_conforms(&nim(&["rule=normal"]));
}

#[test]
fn several_piles_with_and_without_a_limit_conform() {
    assert_conforms(&nim(&["piles=3,4,5", "max_take=none", "rule=normal"]));
    assert_conforms(&nim(&["piles=3,4,5", "max_take=3"]));
    assert_conforms(&nim(&[
        "piles=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2",
        "max_take=none",
    ]));
}

#[test]
fn a_single_stone_and_a_long_pile_conform() {
    assert_conforms(&nim(&["piles=1"]));
    assert_conforms(&nim(&["piles=60", "max_take=1", "rule=normal"]));
}
