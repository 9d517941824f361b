//! `games`: play, study and solve two-player games from the terminal.
//!
//! This file only defines the command line and dispatches to the commands,
//! one module each; [`registry`] builds a game from its name and options and
//! hands it to a command written once for every game.

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

use clap::{Parser, Subcommand};
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

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Play(args) => play::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::List => list::run(),
        Command::Solve(args) => solve::run(&args),
        Command::Perft(args) => perft::run(&args),
        #[cfg(feature = "bench")]
        Command::Bench(args) => bench::run(&args),
        Command::Tournament(args) => tournament::run(&args),
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
