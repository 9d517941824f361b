//! The error types shared by every game: each says what was wrong, in words
//! a student can act on.

use thiserror::Error;

/// Text that is not a move in the game's notation.
///
/// ```
/// use game_api::ParseMoveError;
/// let e = ParseMoveError::new("x9", "expected a column number from 1 to 7");
/// assert_eq!(e.to_string(), "`x9` is not a move: expected a column number from 1 to 7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{input}` is not a move: {reason}")]
pub struct ParseMoveError {
    /// The text as given.
    pub input: String,
    /// What was expected instead.
    pub reason: String,
}

impl ParseMoveError {
    /// A parse error for `input`, with the reason.
    pub fn new(input: impl Into<String>, reason: impl Into<String>) -> Self {
        ParseMoveError {
            input: input.into(),
            reason: reason.into(),
        }
    }
}

/// A move that may not be played in the given position.
///
/// ```
/// use game_api::IllegalMove;
/// let e = IllegalMove::new("4", "column 4 is full");
/// assert_eq!(e.to_string(), "illegal move 4: column 4 is full");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// The move, in the game's notation.
    pub mv: String,
    /// Why it is illegal here.
    pub reason: String,
}

impl IllegalMove {
    /// An illegal-move error for `mv` (in the game's notation), with the reason.
    pub fn new(mv: impl Into<String>, reason: impl Into<String>) -> Self {
        IllegalMove {
            mv: mv.into(),
            reason: reason.into(),
        }
    }
}

/// Game options that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionsError {
    /// An option the game does not have.
    #[error("unknown option `{name}` (known: {known})")]
    Unknown {
        /// The option as given.
        name: String,
        /// The options the game knows, comma-separated.
        known: String,
    },
    /// A value that does not parse.
    #[error("option `{name}`: `{value}` is not valid: {reason}")]
    Invalid {
        /// The option.
        name: String,
        /// The value as given.
        value: String,
        /// What was expected.
        reason: String,
    },
    /// An argument not of the form `name=value`.
    #[error("`{0}` is not an option: expected name=value")]
    Syntax(String),
    /// Options that parse but that the game cannot play (a board too large...).
    #[error("{0}")]
    Unsupported(String),
}

/// A sequence of moves that cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// Move number `index` (from 1) does not parse.
    #[error("move {index}: {source}")]
    Parse {
        /// Position of the move in the sequence, from 1.
        index: usize,
        /// What was wrong with it.
        source: ParseMoveError,
    },
    /// Move number `index` (from 1) is illegal where it is played.
    #[error("move {index}: {source}")]
    Illegal {
        /// Position of the move in the sequence, from 1.
        index: usize,
        /// Why it is illegal.
        source: IllegalMove,
    },
}
