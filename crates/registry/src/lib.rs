//! # The reference games, registered in one place
//!
//! Every program that works with "any game" (the `games` command line, the
//! grader's answer keys) reaches a game by its name through this crate. A
//! game is registered by **one line** in the [`register!`] call below,
//! `crate_name::GameType,` (plus its dependency in this crate's
//! `Cargo.toml`); `cargo xtask new-game` writes both.
//!
//! Code that must run with the concrete game type implements [`Visitor`]
//! once, generically, and [`visit`] calls it with the named game:
//!
//! ```
//! use game_api::{Configurable, Game};
//! use registry::{visit, Visitor};
//!
//! /// How many options the game has.
//! struct CountOptions;
//! impl Visitor for CountOptions {
//!     type Output = usize;
//!     fn visit<G: Game + Configurable>(self) -> usize {
//!         G::option_specs().len()
//!     }
//! }
//!
//! assert_eq!(visit("connect4", CountOptions).unwrap(), 3);
//! assert!(visit("chess", CountOptions).is_err());
//! ```

#![warn(missing_docs)]

use game_api::{echo, Configurable, Game};

/// Code that runs with one game's concrete type, whichever game it is.
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Runs with the game type `G`.
    fn visit<G: Game + Configurable>(self) -> Self::Output;
}

/// One registered game: its name and where its type comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The game's [`Configurable::NAME`], e.g. `"connect4"`.
    pub name: &'static str,
    /// The crate that defines it, as Rust writes it (`yucky_chocolate`).
    pub krate: &'static str,
    /// The game type's name in that crate, e.g. `"Connect4"`.
    pub type_name: &'static str,
}

/// A name that is not a registered game.
#[derive(Debug, thiserror::Error)]
#[error("unknown game `{}` (the games are: {})", echo(.name), names().join(", "))]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
}

/// The names of the registered games, in registration order.
///
/// ```
/// assert!(registry::names().contains(&"nim"));
/// ```
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|e| e.name).collect()
}

/// The registered game called `name`, if any.
///
/// ```
/// let e = registry::entry("yucky-chocolate").unwrap();
/// assert_eq!((e.krate, e.type_name), ("yucky_chocolate", "YuckyChocolate"));
/// ```
pub fn entry(name: &str) -> Option<&'static Entry> {
    GAMES.iter().find(|e| e.name == name)
}

/// Registers games: one `crate_name::GameType` per line. It defines
/// [`GAMES`] and [`visit`].
macro_rules! register {
    ($($krate:ident :: $ty:ident),+ $(,)?) => {
        /// Every registered game, in registration order.
        pub const GAMES: &[Entry] = &[$(Entry {
            name: <$krate::$ty as Configurable>::NAME,
            krate: stringify!($krate),
            type_name: stringify!($ty),
        }),+];

        /// Runs `visitor` with the game called `name`.
        ///
        /// # Errors
        /// [`UnknownGame`] when no registered game has that name.
        pub fn visit<V: Visitor>(name: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            $(if name == <$krate::$ty as Configurable>::NAME {
                return Ok(visitor.visit::<$krate::$ty>());
            })+
            Err(UnknownGame { name: name.to_owned() })
        }
    };
}

// The one place where a game is registered: one line per game.
register! {
    nim::Nim,
    yucky_chocolate::YuckyChocolate,
    connect4::Connect4,
    tictactoe::TicTacToe,
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl Visitor for Name {
        type Output = &'static str;
        fn visit<G: Game + Configurable>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn every_registered_game_is_reached_by_its_own_name_and_names_are_unique() {
        for e in GAMES {
            assert_eq!(visit(e.name, Name).unwrap(), e.name);
            assert_eq!(GAMES.iter().filter(|o| o.name == e.name).count(), 1);
        }
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_list_of_games_and_escaped() {
        let e = visit("che\u{1b}ss", Name).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "unknown game `che\\u{{1b}}ss` (the games are: {})",
                names().join(", ")
            )
        );
        assert!(e.contains("nim, yucky-chocolate, connect4"), "{e}");
    }
}
