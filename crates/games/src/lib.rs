//! `games`: play, study and solve two-player games from the terminal.
//!
//! The command-line program of the course, as a library so that a game
//! written outside the course's workspace gets it too. The `games` binary
//! runs it with every registered game ([`main`]); a student's crate runs it
//! with its own game ([`main_for`]) from an example of a few lines,
//! `examples/play.rs` (see [`main_for`]);
//! `cargo run --example play -- play` then plays it against the engine, and
//! `tree`, `analyse`, `replay`, `perft`, `solve`, `tournament` and `list`
//! work as in the course's program (the game's name may be left out, or
//! given with `--game`). `game_api`'s crate documentation says how such a
//! crate depends on `game-api` and `games`.
//!
//! Each command is a module; `registry` builds a game from its name and
//! options and hands it to a command written once for every game.

mod analyse;
#[cfg(feature = "bench")]
mod bench;
mod elo;
mod list;
mod moves;
mod perft;
mod play;
mod registry;
mod render;
mod replay;
mod solve;
mod spec;
mod tournament;
mod tree;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use game_api::{Configurable, Game};
use registry::{Games, Only, Registered};
use std::process::ExitCode;

/// Play, study and solve two-player games.
#[derive(Parser)]
#[command(name = "games", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Play(play::Args),
    Replay(replay::Args),
    Analyse(analyse::Args),
    Tree(tree::Args),
    /// List the games, their options with defaults, and their move notation.
    List,
    Solve(solve::Args),
    Perft(perft::Args),
    #[cfg(feature = "bench")]
    Bench(bench::Args),
    Tournament(tournament::Args),
}

/// The commands that name a game as their first argument.
const NAMING_A_GAME: [&str; 6] = ["play", "analyse", "tree", "solve", "perft", "tournament"];

/// The course's program: every game of the `registry` crate.
#[must_use]
pub fn main() -> ExitCode {
    run(Registered, Cli::parse())
}

/// The program for one game, `G` (a student's own, say): the commands of
/// `games` with `G` as the only game, whose name may be left out (or given
/// with `--game`). `bench`, which measures the course's Connect-4, is not
/// there.
///
/// # Example
/// In `examples/play.rs` of a crate whose `Submission` is its game:
///
/// ```no_run
/// # mod my_nim { pub type Submission = nim::Nim; }
/// fn main() -> std::process::ExitCode {
///     games::main_for::<my_nim::Submission>()
/// }
/// ```
#[must_use]
pub fn main_for<G: Game + Configurable>() -> ExitCode {
    let mut command = Cli::command();
    #[cfg(feature = "bench")]
    {
        command = command.mut_subcommand("bench", |c| c.hide(true));
    }
    for name in NAMING_A_GAME {
        command = command.mut_subcommand(name, |c| {
            c.mut_arg("game", |a| {
                a.long("game")
                    .required(false)
                    .default_value(G::NAME)
                    .help(format!("The game: {} (the only one)", G::NAME))
            })
        });
    }
    let cli = Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit());
    #[cfg(feature = "bench")]
    if matches!(cli.command, Command::Bench(_)) {
        eprintln!(
            "error: `bench` measures the course's Connect-4 engine: run it from the course's `games`"
        );
        return ExitCode::FAILURE;
    }
    run(Only::<G>::default(), cli)
}

/// Runs the command line `cli` with the games `games`, printing an error
/// once at the edge.
fn run(games: impl Games, cli: Cli) -> ExitCode {
    let outcome = match cli.command {
        Command::Play(args) => play::run(&args, games),
        Command::Replay(args) => replay::run(&args, games),
        Command::Analyse(args) => analyse::run(&args, games),
        Command::Tree(args) => tree::run(&args, games),
        Command::List => list::run(games),
        Command::Solve(args) => solve::run(&args, games),
        Command::Perft(args) => perft::run(&args, games),
        #[cfg(feature = "bench")]
        Command::Bench(args) => bench::run(&args),
        Command::Tournament(args) => tournament::run(&args, games),
    };
    outcome.unwrap_or_else(|e| {
        if closed_pipe(&e) {
            // `games replay --all | head`: the reader has what it wanted.
            return ExitCode::SUCCESS;
        }
        // Each cause once: messages never repeat their source's text.
        eprintln!("error: {e:#}");
        ExitCode::FAILURE
    })
}

/// Whether the error is stdout (or another pipe) closed by its reader.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
