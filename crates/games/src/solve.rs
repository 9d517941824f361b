//! `games solve`: the exact value of positions read from standard input,
//! one a line, and with `--check` a comparison with expected values (this
//! is how the Connect-4 benchmark sets are verified).

use crate::moves::{is_compact, reach, read_moves, Reached};
use crate::registry::{run_game, GameCommand};
use anyhow::{anyhow, bail, Result};
use game_api::{Configurable, Game, Value};
use players::{Engine, EngineConfig};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

/// Solve positions read from stdin, one a line.
///
/// A line is a sequence of moves in the game's notation separated by spaces
/// (an empty line is the start position); Connect-4 also takes the
/// benchmark form, column digits optionally followed by the expected score
/// (`4453 18`). Each line gets `<position> <value>`: the exact value for the
/// player to move, in the game's payoff units (for Connect-4, Pons'
/// scores). With --check, each line must end with the expected value; a
/// summary follows and the exit code is non-zero if any line failed or was
/// malformed.
#[derive(clap::Args)]
pub struct Args {
    /// The game (see `games list`).
    game: String,
    /// Game options, as name=value (e.g. rows=5 cols=4).
    #[arg(value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Compare each value with the expected value ending its line.
    #[arg(long)]
    check: bool,
    /// Memory for the engine's transposition table, in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    table_mb: usize,
}

/// Runs `games solve`.
pub fn run(args: &Args) -> Result<ExitCode> {
    run_game(
        &args.game,
        &args.options,
        Solve {
            check: args.check,
            table_mb: args.table_mb,
        },
    )
}

struct Solve {
    check: bool,
    table_mb: usize,
}

/// One line of input, read.
struct Line<G: Game> {
    /// The position as written (the moves, without the expected value).
    position: String,
    reached: Reached<G>,
    expected: Option<Value>,
}

impl GameCommand for Solve {
    type Output = ExitCode;

    fn run<G: Game + Configurable>(self, game: G) -> Result<ExitCode> {
        let mut engine = Engine::new(EngineConfig {
            table_megabytes: self.table_mb,
            ..EngineConfig::default()
        });
        let mut out = std::io::stdout().lock();
        let (mut passed, mut failed, mut malformed) = (0usize, 0usize, 0usize);
        let (mut time, mut nodes) = (Duration::ZERO, 0u64);
        for (number, text) in std::io::stdin().lock().lines().enumerate() {
            let number = number + 1;
            let line = match text
                .map_err(anyhow::Error::from)
                .and_then(|t| read_line(&game, &t, self.check))
            {
                Ok(line) => line,
                Err(e) => {
                    eprintln!("<stdin>:{number}: {e:#}");
                    malformed += 1;
                    continue;
                }
            };
            let solved = engine.solve(&game, &line.reached.state);
            time += solved.time;
            nodes += solved.nodes;
            let value = solved.value * line.reached.to_move.sign();
            writeln!(out, "{} {value}", line.position)?;
            match line.expected {
                Some(expected) if self.check && expected != value => {
                    eprintln!(
                        "<stdin>:{number}: `{}` is worth {value}, expected {expected}",
                        line.position
                    );
                    failed += 1;
                }
                _ => passed += 1,
            }
        }
        if self.check {
            let solved = u32::try_from(passed + failed).unwrap_or(u32::MAX).max(1);
            writeln!(out, "{} passed, {} failed", passed, failed + malformed)?;
            writeln!(
                out,
                "mean time {:.3?}, mean nodes {:.0} per position",
                time / solved,
                nodes as f64 / f64::from(solved)
            )?;
        }
        Ok(if failed + malformed > 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// Reads one line: the moves, then (with `check`, or after Connect-4's
/// compact form) the expected value.
fn read_line<G: Game + Configurable>(game: &G, text: &str, check: bool) -> Result<Line<G>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (moves, expected) = match words.as_slice() {
        [compact, rest @ ..] if is_compact(game, compact) => match rest {
            [] => (&words[..1], None),
            [score] => (&words[..1], Some(*score)),
            _ => bail!(
                "only an expected score may follow the moves `{compact}`, found `{}`",
                rest.join(" ")
            ),
        },
        [moves @ .., last] if check => (moves, Some(*last)),
        _ if check => bail!("empty line: --check needs the expected value at the end of each line"),
        _ => (words.as_slice(), None),
    };
    let expected = expected
        .map(|w| {
            w.parse::<Value>()
                .map_err(|_| anyhow!("`{w}` is not an expected value (a whole number)"))
        })
        .transpose()?;
    if check && expected.is_none() {
        bail!("no expected value to check against at the end of the line");
    }
    let position = moves.join(" ");
    let reached = reach(game, &read_moves(game, &position))?;
    Ok(Line {
        position,
        reached,
        expected,
    })
}
