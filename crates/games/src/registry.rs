//! The games a program knows, reached by name.
//!
//! Every command is generic over [`Game`]: it implements [`GameCommand`]
//! once, and [`run_game`] builds the named game from its `name=value`
//! options and calls the command with the concrete game type. Which games
//! there are is a [`Games`]: the course's program has every game of the
//! `registry` crate ([`Registered`]); a student's own program, made with
//! [`crate::main_for`], has one game ([`Only`]). This module only adds the
//! options.

use anyhow::{bail, Context, Result};
use game_api::{echo, Configurable, Game, Options};
use std::marker::PhantomData;

/// The games a program can run, by name.
pub trait Games: Copy {
    /// Their names, in the order `list` shows them.
    fn names(self) -> Vec<&'static str>;
    /// Runs `visitor` with the type of the game called `name`.
    ///
    /// # Errors
    /// No game of that name.
    fn visit<V: registry::Visitor>(self, name: &str, visitor: V) -> Result<V::Output>;
}

/// Every game registered in the `registry` crate.
#[derive(Clone, Copy, Debug)]
pub struct Registered;

impl Games for Registered {
    fn names(self) -> Vec<&'static str> {
        registry::names()
    }
    fn visit<V: registry::Visitor>(self, name: &str, visitor: V) -> Result<V::Output> {
        Ok(registry::visit(name, visitor)?)
    }
}

/// One game, `G`: a student's own, outside the registry.
#[derive(Debug)]
pub struct Only<G>(PhantomData<fn() -> G>);

impl<G> Default for Only<G> {
    fn default() -> Self {
        Only(PhantomData)
    }
}

impl<G> Clone for Only<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Only<G> {}

impl<G: Game + Configurable> Games for Only<G> {
    fn names(self) -> Vec<&'static str> {
        vec![G::NAME]
    }
    fn visit<V: registry::Visitor>(self, name: &str, visitor: V) -> Result<V::Output> {
        if name != G::NAME {
            bail!(
                "unknown game `{}`: this program plays only {}",
                echo(name),
                G::NAME
            );
        }
        Ok(visitor.visit::<G>())
    }
}

/// A command that works with any game.
pub trait GameCommand {
    /// What the command returns.
    type Output;
    /// Runs the command on `game`.
    fn run<G: Game + Configurable>(self, game: G) -> Result<Self::Output>;
}

/// Builds the game of `games` called `name` from `options` (`name=value`
/// arguments) and runs `command` on it.
pub fn run_game<C: GameCommand, S: AsRef<str>>(
    games: impl Games,
    name: &str,
    options: &[S],
    command: C,
) -> Result<C::Output> {
    let options = Options::parse_args(options)?;
    games.visit(name, Build { options, command })?
}

/// The visitor that builds the game from its options, then runs the command.
struct Build<C> {
    options: Options,
    command: C,
}

impl<C: GameCommand> registry::Visitor for Build<C> {
    type Output = Result<C::Output>;
    fn visit<G: Game + Configurable>(self) -> Result<C::Output> {
        let game =
            G::from_options(&self.options).with_context(|| format!("cannot set up {}", G::NAME))?;
        self.command.run(game)
    }
}
