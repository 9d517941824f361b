//! The games the program knows, reached by name.
//!
//! Every command is generic over [`Game`]: it implements [`GameCommand`]
//! once, and [`run_game`] builds the named game from its `name=value`
//! options and calls the command with the concrete game type. Adding a game
//! to the program is one line in [`run_game`] and one in [`NAMES`].

use anyhow::{bail, Context, Result};
use game_api::{echo, Configurable, Game, Options};

/// The games, as named on the command line.
pub const NAMES: [&str; 3] = [
    nim::Nim::NAME,
    yucky_chocolate::YuckyChocolate::NAME,
    connect4::Connect4::NAME,
];

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
    match name {
        nim::Nim::NAME => command.run(build::<nim::Nim>(&options)?),
        yucky_chocolate::YuckyChocolate::NAME => {
            command.run(build::<yucky_chocolate::YuckyChocolate>(&options)?)
        }
        connect4::Connect4::NAME => command.run(build::<connect4::Connect4>(&options)?),
        other => bail!(
            "unknown game `{}` (the games are: {})",
            echo(other),
            NAMES.join(", ")
        ),
    }
}

fn build<G: Configurable>(options: &Options) -> Result<G> {
    G::from_options(options).with_context(|| format!("cannot set up {}", G::NAME))
}
