//! `games solve`: the exact value of positions read from standard input,
//! one a line, and with `--check` a comparison with expected values (this
//! is how the Connect-4 benchmark sets are verified).

use crate::moves::{is_compact, reach, read_moves, Reached};
use crate::registry::{run_game, GameCommand, Games};
use crate::spec::table_megabytes;
use anyhow::{anyhow, bail, Result};
use game_api::text::{read_line, EndlessLines, Line, LINE_LIMIT};
use game_api::{echo, Configurable, Game, Value};
use players::{Engine, EngineConfig, Solved};
use std::io::Write;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

/// How long one position may take before stderr says it is taking long.
const SLOW_NOTICE: Duration = Duration::from_secs(5);

/// The word for the start position.
const START: &str = "start";

/// Solve positions read from stdin, one a line.
///
/// A line is a sequence of moves in the game's notation separated by spaces;
/// Connect-4 also takes the benchmark form, column digits optionally
/// followed by the expected score (`4453 18`). The start position is an
/// empty line or the word `start`; a line of only spaces is refused. Each
/// line gets `<position> <value>`: the exact value for the player to move,
/// in the game's payoff units (for Connect-4, Pons' scores). With --check,
/// each line must end with the expected value (`start 0` for the start
/// position: a lone number is refused as ambiguous); a summary follows and
/// the exit code is non-zero if any line failed or was malformed. A
/// position still unsolved after 5 s is said on stderr: positions far from
/// the end of a large game (the empty Connect-4 board) take minutes. With
/// --weak, only who wins: the value's sign (1, 0 or -1), found faster, and
/// --check compares it with the sign of the expected value.
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
    /// Memory for the engine's transposition table, in MiB (from 1 to half
    /// of this machine's memory).
    #[arg(long, default_value_t = 64, value_name = "MIB", value_parser = table_megabytes)]
    table_mb: usize,
    /// Solve by search alone, without the game's opening book (to measure
    /// the solver, e.g. on the empty Connect-4 board).
    #[arg(long)]
    no_book: bool,
    /// Only who wins: print the sign of the value (1: the player to move
    /// wins, 0: a draw, -1: the player to move loses), a faster search.
    #[arg(long)]
    weak: bool,
}

/// Runs `games solve`.
pub fn run(args: &Args, games: impl Games) -> Result<ExitCode> {
    run_game(
        games,
        &args.game,
        &args.options,
        Solve {
            check: args.check,
            table_mb: args.table_mb,
            use_book: !args.no_book,
            weak: args.weak,
        },
    )
}

struct Solve {
    check: bool,
    table_mb: usize,
    use_book: bool,
    weak: bool,
}

/// One line of input, read.
struct Position<G: Game> {
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
            use_book: self.use_book,
            ..EngineConfig::default()
        })?;
        let mut out = std::io::stdout().lock();
        let mut input = EndlessLines::new(std::io::stdin().lock());
        let (mut passed, mut failed, mut malformed) = (0usize, 0usize, 0usize);
        let (mut time, mut nodes) = (Duration::ZERO, 0u64);
        for number in 1.. {
            let text = match read_line(&mut input, LINE_LIMIT)? {
                Line::End => break,
                // A byte-order mark may start the input, never a position.
                Line::Text(text) if number == 1 && text.starts_with('\u{feff}') => {
                    text['\u{feff}'.len_utf8()..].to_owned()
                }
                Line::Text(text) => text,
                Line::NotUtf8 { at } => {
                    eprintln!("<stdin>:{number}: not UTF-8 text (a bad byte at {at})");
                    malformed += 1;
                    continue;
                }
                Line::TooLong { bytes } => {
                    eprintln!("<stdin>:{number}: a line of {bytes} bytes is too long");
                    malformed += 1;
                    continue;
                }
            };
            let line = match parse_line(&game, &text, self.check) {
                Ok(line) => line,
                Err(e) => {
                    eprintln!("<stdin>:{number}: {e:#}");
                    malformed += 1;
                    continue;
                }
            };
            let solved = solve_noting_delay(&mut engine, &game, &line, number, self.weak);
            time += solved.time;
            nodes += solved.nodes;
            let value = solved.value * line.reached.to_move.sign();
            writeln!(out, "{} {value}", line.position)?;
            let expected = if self.weak {
                line.expected.map(Value::signum)
            } else {
                line.expected
            };
            match expected {
                Some(expected) if self.check && expected != value => {
                    eprintln!(
                        "<stdin>:{number}: `{}` is worth {value}, expected {expected}",
                        echo(&line.position)
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

/// Solves `line`; when that takes more than [`SLOW_NOTICE`], says so on
/// stderr (once) while the search goes on.
fn solve_noting_delay<G: Game>(
    engine: &mut Engine<G>,
    game: &G,
    line: &Position<G>,
    number: usize,
    weak: bool,
) -> Solved {
    let (done, wait) = mpsc::channel::<()>();
    let shown = if line.position.is_empty() {
        START.to_owned()
    } else {
        echo(&line.position)
    };
    std::thread::scope(|scope| {
        scope.spawn(move || {
            if wait.recv_timeout(SLOW_NOTICE) == Err(mpsc::RecvTimeoutError::Timeout) {
                eprintln!(
                    "<stdin>:{number}: `{shown}` is still being solved after {} s: positions far \
                     from the end of a large game can take minutes (Ctrl-C stops)",
                    SLOW_NOTICE.as_secs()
                );
            }
        });
        let solved = if weak {
            engine.solve_weak(game, &line.reached.state)
        } else {
            engine.solve(game, &line.reached.state)
        };
        drop(done);
        solved
    })
}

/// Reads one line: the moves (nothing, or the word `start`, for the start
/// position), then (with `check`, or after Connect-4's compact form) the
/// expected value.
fn parse_line<G: Game + Configurable>(game: &G, text: &str, check: bool) -> Result<Position<G>> {
    if !text.is_empty() && text.trim().is_empty() {
        bail!("a line of only spaces: write an empty line or `{START}` for the start position");
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let (moves, expected) = match words.as_slice() {
        [word, rest @ ..] if word.eq_ignore_ascii_case(START) => match rest {
            [] => (&[][..], None),
            [value] => (&[][..], Some(*value)),
            _ => bail!(
                "only an expected value may follow `{START}`, found `{}`",
                echo(&rest.join(" "))
            ),
        },
        [compact, rest @ ..] if is_compact(game, compact) => match rest {
            [] => (&words[..1], None),
            [score] => (&words[..1], Some(*score)),
            _ => bail!(
                "only an expected score may follow the moves `{compact}`, found `{}`",
                echo(&rest.join(" "))
            ),
        },
        [alone] if check => bail!(
            "`{}` alone is ambiguous with --check: write the moves then the expected \
             value, or `{START} {}` for the start position",
            echo(alone),
            echo(alone)
        ),
        [moves @ .., last] if check => (moves, Some(*last)),
        _ if check => bail!(
            "empty line: --check needs the expected value at the end of each line \
             (`{START} VALUE` for the start position)"
        ),
        _ => (words.as_slice(), None),
    };
    let expected = expected
        .map(|w| {
            w.parse::<Value>()
                .map_err(|_| anyhow!("`{}` is not an expected value (a whole number)", echo(w)))
        })
        .transpose()?;
    if check && expected.is_none() {
        bail!("no expected value to check against at the end of the line");
    }
    let position = if words.first().is_some_and(|w| w.eq_ignore_ascii_case(START)) {
        START.to_owned()
    } else {
        moves.join(" ")
    };
    let reached = reach(game, &read_moves(game, &moves.join(" ")))?;
    Ok(Position {
        position,
        reached,
        expected,
    })
}
