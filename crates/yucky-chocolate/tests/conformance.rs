//! Yucky Chocolate obeys every law of the `game_api` conformance kit, on
//! bars of every shape: the default, square, one row, one column, large.

use game_api::conformance::assert_conforms;
use yucky_chocolate::YuckyChocolate;

#[test]
fn the_default_bar_conforms() {
    assert_conforms(&YuckyChocolate::default());
}

#[test]
fn square_bars_conform() {
    assert_conforms(&YuckyChocolate::new(2, 2).unwrap());
    assert_conforms(&YuckyChocolate::new(10, 10).unwrap());
}

#[test]
fn one_row_and_one_column_bars_conform() {
    assert_conforms(&YuckyChocolate::new(1, 2).unwrap());
    assert_conforms(&YuckyChocolate::new(2, 1).unwrap());
    assert_conforms(&YuckyChocolate::new(1, 100).unwrap());
}

#[test]
fn the_largest_bar_conforms() {
    assert_conforms(&YuckyChocolate::new(100, 100).unwrap());
}
