//! The games the program knows, reached by name.
//!
//! Every command is generic over [`Game`]: it implements [`GameCommand`]
//! once, and [`run_game`] builds the named game from its `name=value`
//! options and calls the command with the concrete game type. The games
//! themselves are registered in one place, the `registry` crate; this
//! module only adds the options.

use anyhow::{Context, Result};
use game_api::{Configurable, Game, Options};

/// The games, as named on the command line.
pub fn names() -> Vec<&'static str> {
    registry::names()
}

/// A command that works with any game.
pub trait GameCommand {
    /// What the command returns.
    type Output;
    /// Runs the command on `game`.
    fn run<G: Game + Configurable>(self, game: G) -> Result<Self::Output>;
}

/// Builds the game called `name` from `options` (`name=value` arguments) and
/// runs `command` on it.
pub fn run_game<C: GameCommand, S: AsRef<str>>(
    name: &str,
    options: &[S],
    command: C,
) -> Result<C::Output> {
    let options = Options::parse_args(options)?;
    registry::visit(name, Build { options, command })?
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
