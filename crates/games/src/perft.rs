//! `games perft`: counts the legal move sequences from a position, depth by
//! depth, to check a game's move generation against known counts.

use crate::moves::{reach, read_moves};
use crate::registry::{run_game, GameCommand, Games};
use anyhow::{Context, Result};
use game_api::{Configurable, Game};
use std::io::Write;
use std::process::ExitCode;

/// Count the legal move sequences of each length from 1 to DEPTH.
///
/// Prints one line per depth, `<depth> <count>`. A sequence stops once the
/// game is over, but a game ending exactly at a depth counts there.
#[derive(clap::Args)]
pub struct Args {
    /// The game (see `games list`).
    game: String,
    /// The longest sequences to count, in moves.
    depth: usize,
    /// Game options, as name=value (e.g. rows=4 cols=5).
    #[arg(value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Start after these moves, in the game's notation (e.g. --moves 4 4 3).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
}

/// Runs `games perft`.
pub fn run(args: &Args, games: impl Games) -> Result<ExitCode> {
    run_game(
        games,
        &args.game,
        &args.options,
        Perft {
            depth: args.depth,
            moves: args.moves.join(" "),
        },
    )
}

struct Perft {
    depth: usize,
    moves: String,
}

impl GameCommand for Perft {
    type Output = ExitCode;

    fn run<G: Game + Configurable>(self, game: G) -> Result<ExitCode> {
        let start = reach(&game, &read_moves(&game, &self.moves)).context("--moves")?;
        let counts = players::perft(&game, &start.state, self.depth);
        let mut out = std::io::stdout().lock();
        for (d, count) in counts.iter().enumerate() {
            writeln!(out, "{} {count}", d + 1)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}
