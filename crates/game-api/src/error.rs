//! The error types shared by every game: each says what was wrong, in words
//! a student can act on. Text that came from input is shown through
//! [`echo`] (escaped, cut short); a cause kept as an error's `source` is not
//! repeated in its message, so a chain of causes prints each one once.

use crate::echo;
use thiserror::Error;

/// Text that is not a move in the game's notation.
///
/// ```
/// use game_api::ParseMoveError;
/// let e = ParseMoveError::new("x9", "expected a column number from 1 to 7");
/// assert_eq!(e.to_string(), "`x9` is not a move: expected a column number from 1 to 7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{}` is not a move: {reason}", echo(input))]
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
#[error("illegal move {}: {reason}", echo(mv))]
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
    #[error("unknown option `{}` (known: {known})", echo(name))]
    Unknown {
        /// The option as given.
        name: String,
        /// The options the game knows, comma-separated.
        known: String,
    },
    /// A value that does not parse.
    #[error("option `{}`: `{}` is not valid: {reason}", echo(name), echo(value))]
    Invalid {
        /// The option.
        name: String,
        /// The value as given.
        value: String,
        /// What was expected.
        reason: String,
    },
    /// An argument not of the form `name=value`.
    #[error("`{}` is not an option: expected name=value", echo(.0))]
    Syntax(String),
    /// An option given more than once.
    #[error("option `{}` is given more than once", echo(.0))]
    Repeated(String),
    /// Options that parse but that the game cannot play (a board too large...).
    #[error("{0}")]
    Unsupported(String),
}

/// A sequence of moves that cannot be replayed.
///
/// Its message names the move; what was wrong with it is its `source`
/// (shown after it by `{:#}` in `anyhow`, or by walking the chain).
///
/// ```
/// use game_api::{IllegalMove, ReplayError};
/// use std::error::Error;
/// let e = ReplayError::Illegal { index: 20, source: IllegalMove::new("1", "the game is over") };
/// assert_eq!(e.to_string(), "move 20");
/// assert_eq!(e.source().unwrap().to_string(), "illegal move 1: the game is over");
/// assert_eq!(e.index(), 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// Move number `index` (from 1) does not parse.
    #[error("move {index}")]
    Parse {
        /// Position of the move in the sequence, from 1.
        index: usize,
        /// What was wrong with it.
        source: ParseMoveError,
    },
    /// Move number `index` (from 1) is illegal where it is played.
    #[error("move {index}")]
    Illegal {
        /// Position of the move in the sequence, from 1.
        index: usize,
        /// Why it is illegal.
        source: IllegalMove,
    },
}

impl ReplayError {
    /// The number (from 1) of the move that failed.
    #[must_use]
    pub fn index(&self) -> usize {
        match self {
            ReplayError::Parse { index, .. } | ReplayError::Illegal { index, .. } => *index,
        }
    }
}
