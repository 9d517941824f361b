//! # Yucky Chocolate: never be left with the bad square
//!
//! A reference [`Game`] of the course, chosen because its whole theory fits
//! in one line (the first player wins exactly when the bar is not square:
//! make it square, then mirror the opponent), so the tests can check every
//! player against it on many sizes.
//!
//! A bar of chocolate has `rows` rows and `cols` columns; its bottom-left
//! square is yucky. Players take turns breaking off one or more whole rows
//! from the top, or whole columns from the right, and eating them. A move
//! can never take the yucky square: at least one row and one column stay.
//! The player left facing the lone yucky square must eat it and loses.
//!
//! The default bar, [`YuckyChocolate::default`], has 4 rows and 7 columns: a
//! small bar that still takes a few moves, and not square, so the first
//! player can win.
//!
//! ```
//! use game_api::{Configurable, Game, Options, Player, Status};
//! use yucky_chocolate::YuckyChocolate;
//!
//! let game = YuckyChocolate::default();
//! let s = game.initial_state();
//! let s = game.next_state(&s, &game.move_of_string("C 3").unwrap()).unwrap();
//! assert_eq!((s.rows(), s.cols()), (4, 4));
//! assert_eq!(game.game_status(&s), Status::Ongoing(Player::P2));
//! println!("{}", game.string_of_state(&s));
//!
//! let game = YuckyChocolate::from_options(&Options::parse_args(["rows=2", "cols=1"]).unwrap()).unwrap();
//! let s = game.next_state(&game.initial_state(), &game.move_of_string("r1").unwrap()).unwrap();
//! assert_eq!(game.game_status(&s), Status::Win(Player::P1));
//! ```

#![warn(missing_docs)]

use game_api::{
    echo, whole_number, Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError,
    ParseMoveError, Player, Status, Value, WholeNumberError,
};
use std::fmt;
use std::num::NonZeroU32;

/// The most rows, and the most columns, a bar may have: enough for any game
/// worth playing, small enough to draw.
pub const MAX_SIDE: u32 = 100;

/// The notation, for messages.
const EXPECTED: &str = "expected `R n` (break off n rows from the top) \
                        or `C n` (break off n columns from the right)";

/// What is left of the bar, and whose turn it is.
///
/// ```
/// use game_api::{Game, Player};
/// let game = yucky_chocolate::YuckyChocolate::default();
/// let s = game.initial_state();
/// assert_eq!((s.rows(), s.cols(), s.to_move()), (4, 7, Player::P1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bar {
    rows: u32,
    cols: u32,
    to_move: Player,
}

impl Bar {
    /// Rows left (at least 1).
    #[must_use]
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns left (at least 1).
    #[must_use]
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The player whose turn it is; when only the yucky square is left,
    /// the one who must eat it.
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    fn only_the_yucky_square(&self) -> bool {
        self.rows == 1 && self.cols == 1
    }
}

/// A move: break off some whole rows from the top, or some whole columns
/// from the right (at least one). Written `R 3` or `C 2`.
///
/// ```
/// use yucky_chocolate::Break;
/// let b = Break::rows(3).unwrap();
/// assert!(matches!(b, Break::Rows(n) if n.get() == 3));
/// assert_eq!(b.to_string(), "R 3");
/// assert_eq!(Break::cols(0), None); // a move breaks off at least one column
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Break {
    /// Break off this many rows from the top.
    Rows(NonZeroU32),
    /// Break off this many columns from the right.
    Cols(NonZeroU32),
}

impl Break {
    /// Break off `n` rows from the top; `None` when `n` is 0.
    ///
    /// ```
    /// assert_eq!(yucky_chocolate::Break::rows(2).unwrap().to_string(), "R 2");
    /// ```
    #[must_use]
    pub fn rows(n: u32) -> Option<Break> {
        NonZeroU32::new(n).map(Break::Rows)
    }

    /// Break off `n` columns from the right; `None` when `n` is 0.
    ///
    /// ```
    /// assert_eq!(yucky_chocolate::Break::cols(2).unwrap().to_string(), "C 2");
    /// ```
    #[must_use]
    pub fn cols(n: u32) -> Option<Break> {
        NonZeroU32::new(n).map(Break::Cols)
    }
}

impl fmt::Display for Break {
    /// The canonical notation: `R 3`, `C 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Break::Rows(n) => write!(f, "R {n}"),
            Break::Cols(n) => write!(f, "C {n}"),
        }
    }
}

/// The game of Yucky Chocolate on a bar of a given size.
///
/// Build it with [`YuckyChocolate::new`], from options (`rows=5 cols=3`, see
/// [`Configurable`]), or take the 4 by 7 bar with
/// [`YuckyChocolate::default`].
///
/// ```
/// use game_api::Game;
/// let game = yucky_chocolate::YuckyChocolate::new(2, 3).unwrap();
/// // R 1, C 1 or C 2: the yucky square always stays.
/// assert_eq!(game.legal_moves(&game.initial_state()).len(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YuckyChocolate {
    start: Bar,
}

impl Default for YuckyChocolate {
    /// A bar of 4 rows and 7 columns.
    fn default() -> Self {
        YuckyChocolate::new(4, 7).expect("the default bar is valid")
    }
}

impl YuckyChocolate {
    /// A game on a bar of `rows` by `cols` squares.
    ///
    /// ```
    /// use yucky_chocolate::YuckyChocolate;
    /// assert!(YuckyChocolate::new(3, 3).is_ok());
    /// assert!(YuckyChocolate::new(1, 1).is_err()); // over before it starts
    /// assert!(YuckyChocolate::new(0, 5).is_err());
    /// ```
    ///
    /// # Errors
    /// [`OptionsError::Invalid`] for a side of 0 or above [`MAX_SIDE`];
    /// [`OptionsError::Unsupported`] for a 1 by 1 bar, which is only the
    /// yucky square: that game would be over before the first move.
    pub fn new(rows: u32, cols: u32) -> Result<YuckyChocolate, OptionsError> {
        for (name, n) in [("rows", rows), ("cols", cols)] {
            if n == 0 || n > MAX_SIDE {
                return Err(side_out_of_range(name, n.to_string()));
            }
        }
        if rows == 1 && cols == 1 {
            return Err(OptionsError::Unsupported(
                "a 1x1 bar is only the yucky square, so the game would be over before \
                 it starts: give it at least 2 rows or 2 columns"
                    .to_owned(),
            ));
        }
        Ok(YuckyChocolate {
            start: Bar {
                rows,
                cols,
                to_move: Player::P1,
            },
        })
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// What a side's option is called in messages.
fn side_word(name: &str) -> &str {
    if name == "cols" {
        "columns"
    } else {
        name
    }
}

/// A side of 0 or above [`MAX_SIDE`], for option `name` ("rows" or "cols").
fn side_out_of_range(name: &str, value: String) -> OptionsError {
    OptionsError::Invalid {
        name: name.to_owned(),
        value,
        reason: format!("a bar has 1 to {MAX_SIDE} {}", side_word(name)),
    }
}

/// Reads option `name` ("rows" or "cols"), or gives `default`.
fn side(options: &Options, name: &str, default: u32) -> Result<u32, OptionsError> {
    let Some(text) = options.get(name) else {
        return Ok(default);
    };
    let text = text.trim();
    whole_number(text).map_err(|e| match e {
        WholeNumberError::NotANumber => OptionsError::Invalid {
            name: name.to_owned(),
            value: text.to_owned(),
            reason: format!(
                "expected a whole number of {}, from 1 to {MAX_SIDE}",
                side_word(name)
            ),
        },
        WholeNumberError::TooLarge => side_out_of_range(name, text.to_owned()),
    })
}

impl Game for YuckyChocolate {
    type State = Bar;
    type Move = Break;

    fn initial_state(&self) -> Bar {
        // BEGIN SOLUTION: the whole bar, as the options set it, player 1 to move
        self.start
        // END SOLUTION
    }

    fn legal_moves(&self, bar: &Bar) -> Vec<Break> {
        // BEGIN SOLUTION: every row break and every column break that leaves the yucky square
        let mut moves = Vec::new();
        self.legal_moves_into(bar, &mut moves);
        moves
        // END SOLUTION
    }

    fn next_state(&self, bar: &Bar, mv: &Break) -> Result<Bar, IllegalMove> {
        // BEGIN SOLUTION: refuse a break that eats the yucky square or more than the bar has, else eat it and pass the turn
        let illegal = |reason: String| IllegalMove::new(mv.to_string(), reason);
        if bar.only_the_yucky_square() {
            return Err(illegal(
                "the game is over: only the yucky square is left".to_owned(),
            ));
        }
        let (n, have, what) = match mv {
            Break::Rows(n) => (n.get(), bar.rows, "row"),
            Break::Cols(n) => (n.get(), bar.cols, "column"),
        };
        if n >= have {
            return Err(illegal(format!(
                "the bar has {}, and breaking off {} would take the yucky square: \
                 at least 1 {what} must stay",
                plural(have, what),
                plural(n, what)
            )));
        }
        let mut next = *bar;
        match mv {
            Break::Rows(_) => next.rows -= n,
            Break::Cols(_) => next.cols -= n,
        }
        next.to_move = bar.to_move.other();
        Ok(next)
        // END SOLUTION
    }

    /// Over exactly when only the yucky square is left: the player to move
    /// must eat it, so the other player wins.
    fn game_status(&self, bar: &Bar) -> Status {
        // BEGIN SOLUTION: over when only the yucky square is left: the player to move must eat it and loses
        if bar.only_the_yucky_square() {
            Status::Win(bar.to_move.other())
        } else {
            Status::Ongoing(bar.to_move)
        }
        // END SOLUTION
    }

    /// No heuristic here: every unfinished position is `0`.
    fn estimate_value(&self, _bar: &Bar) -> Value {
        // BEGIN SOLUTION: a constant strictly between a loss and a win is enough
        0
        // END SOLUTION
    }

    /// The bar, top row first, with `#` for chocolate and `X` for the yucky
    /// square (bottom left), then whose turn it is.
    fn string_of_state(&self, bar: &Bar) -> String {
        // BEGIN SOLUTION: draw the bar, the yucky square marked, then whose turn it is or who won
        let mut text = format!(
            "Yucky chocolate: {} by {}\n",
            plural(bar.rows, "row"),
            plural(bar.cols, "column")
        );
        let squares = |first: &str| {
            let mut line = first.to_owned();
            for _ in 1..bar.cols {
                line.push_str(" #");
            }
            line.push('\n');
            line
        };
        for _ in 1..bar.rows {
            text.push_str(&squares("#"));
        }
        text.push_str(&squares("X"));
        match self.game_status(bar) {
            Status::Ongoing(p) => text.push_str(&format!("{} to move", self.string_of_player(p))),
            Status::Win(p) => text.push_str(&format!(
                "Only the yucky square is left: {} must eat it, {} wins",
                self.string_of_player(p.other()),
                self.string_of_player(p)
            )),
            Status::Draw => text.push_str("Draw"),
        }
        text
        // END SOLUTION
    }

    fn string_of_move(&self, mv: &Break) -> String {
        // BEGIN SOLUTION: `R n` eats n rows from the top, `C n` n columns from the right
        mv.to_string()
        // END SOLUTION
    }

    /// Reads `R 3` / `C 2`, forgiving about case and spaces (`r3`, ` c  2 `);
    /// `row`, `rows`, `col`, `cols`, `column` and `columns` work as well.
    fn move_of_string(&self, text: &str) -> Result<Break, ParseMoveError> {
        // BEGIN SOLUTION: read `R n` or `C n` (any case, spaces allowed); anything else is a ParseMoveError naming the problem
        let fail = |reason: String| ParseMoveError::new(text, reason);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(fail(format!("nothing was typed: {EXPECTED}")));
        }
        let split = trimmed
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(trimmed.len());
        let (word, number) = (&trimmed[..split], trimmed[split..].trim_start());
        let (make, what): (fn(NonZeroU32) -> Break, &str) = match word.to_ascii_lowercase().as_str()
        {
            "r" | "row" | "rows" => (Break::Rows, "row"),
            "c" | "col" | "cols" | "column" | "columns" => (Break::Cols, "column"),
            "" => return Err(fail(format!("say rows or columns first: {EXPECTED}"))),
            _ => {
                return Err(fail(format!(
                    "`{}` is neither R nor C: {EXPECTED}",
                    echo(word)
                )))
            }
        };
        if number.is_empty() {
            return Err(fail(format!("how many {what}s? {EXPECTED}")));
        }
        if !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(fail(format!(
                "`{}` is not a number of {what}s: {EXPECTED}",
                echo(number)
            )));
        }
        match number.parse::<u32>() {
            Ok(n) => NonZeroU32::new(n)
                .map(make)
                .ok_or_else(|| fail(format!("break off at least 1 {what}"))),
            Err(_) => Err(fail(format!(
                "`{}` {what}s is more than any bar has",
                echo(number)
            ))),
        }
        // END SOLUTION
    }

    /// Every move removes at least one row or column, and one of each stays.
    fn max_game_length(&self) -> usize {
        // BEGIN SOLUTION: every move eats at least one row or column
        (self.start.rows - 1 + self.start.cols - 1) as usize
        // END SOLUTION
    }

    // BEGIN SOLUTION
    /// Fills `out` without allocating (once it has room): rows first, then
    /// columns, the smaller breaks first.
    fn legal_moves_into(&self, bar: &Bar, out: &mut Vec<Break>) {
        out.clear();
        out.extend((1..bar.rows).filter_map(NonZeroU32::new).map(Break::Rows));
        out.extend((1..bar.cols).filter_map(NonZeroU32::new).map(Break::Cols));
    }
    // END SOLUTION
}

impl Configurable for YuckyChocolate {
    const NAME: &'static str = "yucky-chocolate";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::new("rows", "4", "rows of the bar, 1 to 100"),
            OptionSpec::new("cols", "7", "columns of the bar, 1 to 100 (not a 1x1 bar)"),
        ]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        let default = YuckyChocolate::default().start;
        YuckyChocolate::new(
            side(options, "rows", default.rows)?,
            side(options, "cols", default.cols)?,
        )
    }

    fn options(&self) -> Options {
        Options::new()
            .with("rows", self.start.rows)
            .with("cols", self.start.cols)
    }

    fn notation() -> &'static str {
        "`R n` breaks off n rows from the top, `C n` n columns from the right (`r3`, `c 2` work too)"
    }

    fn rules() -> &'static str {
        "A bar of chocolate whose bottom-left square is yucky. Players take turns \
         breaking off one or more whole rows from the top or whole columns from the \
         right and eating them; the yucky square always stays. The player left with \
         only the yucky square must eat it and loses."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(args: &[&str]) -> YuckyChocolate {
        YuckyChocolate::from_options(&Options::parse_args(args).unwrap()).unwrap()
    }

    fn play(game: &YuckyChocolate, moves: &[&str]) -> Bar {
        moves.iter().fold(game.initial_state(), |s, m| {
            game.next_state(&s, &game.move_of_string(m).unwrap())
                .unwrap()
        })
    }

    #[test]
    fn moves_are_read_forgiving_case_spaces_and_words() {
        let g = YuckyChocolate::default();
        for text in ["R 3", "r3", "R3", " r   3 ", "rows 3", "Row 3", "R 03"] {
            assert_eq!(
                g.move_of_string(text),
                Ok(Break::rows(3).unwrap()),
                "{text:?}"
            );
        }
        for text in [
            "C 2",
            "c2",
            " c  2 ",
            "\tC\t2\n",
            "cols 2",
            "COLUMNS 2",
            "col2",
        ] {
            assert_eq!(
                g.move_of_string(text),
                Ok(Break::cols(2).unwrap()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn moves_are_written_r_n_and_c_n() {
        let g = YuckyChocolate::default();
        assert_eq!(g.string_of_move(&Break::rows(3).unwrap()), "R 3");
        assert_eq!(g.string_of_move(&Break::cols(12).unwrap()), "C 12");
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        let g = YuckyChocolate::default();
        let cases = [
            ("", "nothing was typed"),
            ("  ", "nothing was typed"),
            ("3", "say rows or columns first"),
            ("3 R", "say rows or columns first"),
            ("X 3", "`X` is neither R nor C"),
            ("rc 3", "`rc` is neither R nor C"),
            ("R", "how many rows?"),
            ("c  ", "how many columns?"),
            ("R 0", "break off at least 1 row"),
            ("C -1", "`-1` is not a number of columns"),
            ("R 2.5", "`2.5` is not a number of rows"),
            ("R 3 4", "`3 4` is not a number of rows"),
            ("R 99999999999999999999", "more than any bar has"),
        ];
        for (text, reason) in cases {
            let err = g.move_of_string(text).unwrap_err();
            assert_eq!(err.input, text);
            assert!(err.reason.contains(reason), "{text:?}: {}", err.reason);
        }
    }

    #[test]
    fn the_yucky_square_can_never_be_broken_off() {
        let g = game(&["rows=3", "cols=2"]);
        let s = g.initial_state();
        for (mv, reason) in [
            (
                "R 3",
                "the bar has 3 rows, and breaking off 3 rows would take the yucky square",
            ),
            ("R 7", "the bar has 3 rows"),
            ("C 2", "the bar has 2 columns, and breaking off 2 columns"),
        ] {
            let err = g
                .next_state(&s, &g.move_of_string(mv).unwrap())
                .unwrap_err();
            assert_eq!(err.mv, mv);
            assert!(err.reason.contains(reason), "{mv}: {}", err.reason);
        }
        let one_column = play(&g, &["C 1"]);
        let err = g
            .next_state(&one_column, &Break::cols(1).unwrap())
            .unwrap_err();
        assert!(
            err.reason.contains("the bar has 1 column,"),
            "{}",
            err.reason
        );
    }

    #[test]
    fn no_move_is_accepted_once_only_the_yucky_square_is_left() {
        let g = game(&["rows=2", "cols=2"]);
        let s = play(&g, &["R 1", "C 1"]);
        assert!(g.legal_moves(&s).is_empty());
        let err = g.next_state(&s, &Break::rows(1).unwrap()).unwrap_err();
        assert!(err.reason.contains("the game is over"), "{}", err.reason);
    }

    #[test]
    fn whoever_faces_the_lone_yucky_square_loses() {
        let g = game(&["rows=2", "cols=2"]);
        let s = play(&g, &["R 1"]);
        assert_eq!(g.game_status(&s), Status::Ongoing(Player::P2));
        // Player 2 leaves the yucky square to player 1.
        assert_eq!(
            g.game_status(&play(&g, &["R 1", "C 1"])),
            Status::Win(Player::P2)
        );
        let g = game(&["rows=1", "cols=5"]);
        assert_eq!(g.game_status(&play(&g, &["C 4"])), Status::Win(Player::P1));
    }

    #[test]
    fn legal_moves_break_off_all_but_one_row_or_column() {
        let g = game(&["rows=3", "cols=4"]);
        let moves: Vec<String> = g
            .legal_moves(&g.initial_state())
            .iter()
            .map(|m| g.string_of_move(m))
            .collect();
        assert_eq!(moves, ["R 1", "R 2", "C 1", "C 2", "C 3"]);
        let g = game(&["rows=1", "cols=2"]);
        assert_eq!(g.legal_moves(&g.initial_state()), [Break::cols(1).unwrap()]);
    }

    #[test]
    fn max_game_length_is_every_row_and_column_but_one_of_each() {
        assert_eq!(YuckyChocolate::default().max_game_length(), 9);
        assert_eq!(game(&["rows=100", "cols=100"]).max_game_length(), 198);
    }

    #[test]
    fn the_spec_defaults_build_the_default_game() {
        let spelled_out: Vec<String> = YuckyChocolate::option_specs()
            .iter()
            .map(|s| format!("{}={}", s.name, s.default))
            .collect();
        assert_eq!(
            game(&spelled_out.iter().map(String::as_str).collect::<Vec<_>>()),
            YuckyChocolate::default()
        );
        assert_eq!(game(&[]), YuckyChocolate::default());
    }

    #[test]
    fn options_rebuild_the_same_game() {
        for args in [
            &[][..],
            &["rows=1", "cols=2"],
            &["rows=100", "cols=1"],
            &["rows= 5 "],
        ] {
            let g = game(args);
            assert_eq!(
                YuckyChocolate::from_options(&g.options()),
                Ok(g.clone()),
                "{args:?}"
            );
        }
        assert_eq!(
            YuckyChocolate::default().options().to_string(),
            "cols=7 rows=4"
        );
    }

    #[test]
    fn bad_options_are_refused_naming_the_option_and_the_problem() {
        let cases: [(&[&str], &str); 9] = [
            (&["row=3"], "unknown option `row` (known: rows, cols)"),
            (&["rows=1", "cols=1"], "a 1x1 bar is only the yucky square"),
            (
                &["rows=0"],
                "option `rows`: `0` is not valid: a bar has 1 to 100 rows",
            ),
            (
                &["cols=101"],
                "option `cols`: `101` is not valid: a bar has 1 to 100 columns",
            ),
            (
                &["cols=99999999999"],
                "option `cols`: `99999999999` is not valid: a bar has 1 to 100",
            ),
            (
                &["rows=-2"],
                "option `rows`: `-2` is not valid: expected a whole number of rows",
            ),
            (&["rows=four"], "expected a whole number of rows"),
            (
                &["cols="],
                "option `cols`: `` is not valid: expected a whole number of columns",
            ),
            (&["rows=2.5"], "expected a whole number of rows"),
        ];
        for (args, message) in cases {
            let err =
                YuckyChocolate::from_options(&Options::parse_args(args).unwrap()).unwrap_err();
            assert!(err.to_string().contains(message), "{args:?}: {err}");
        }
    }

    #[test]
    fn the_state_draws_the_bar_with_the_yucky_square_bottom_left() {
        let g = YuckyChocolate::default();
        insta::assert_snapshot!(g.string_of_state(&g.initial_state()), @r"
        Yucky chocolate: 4 rows by 7 columns
        # # # # # # #
        # # # # # # #
        # # # # # # #
        X # # # # # #
        Player 1 to move
        ");
        insta::assert_snapshot!(g.string_of_state(&play(&g, &["R 2", "C 4"])), @r"
        Yucky chocolate: 2 rows by 3 columns
        # # #
        X # #
        Player 1 to move
        ");
    }

    #[test]
    fn the_state_names_who_must_eat_the_yucky_square() {
        let g = game(&["rows=2", "cols=1"]);
        insta::assert_snapshot!(g.string_of_state(&play(&g, &["R 1"])), @r"
        Yucky chocolate: 1 row by 1 column
        X
        Only the yucky square is left: Player 2 must eat it, Player 1 wins
        ");
    }
}
