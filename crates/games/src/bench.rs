//! `games bench`: how fast the engine solves Pascal Pons' Connect-4
//! benchmark sets, beside the reference figures of his specialised solver.
//!
//! A benchmark, not a test: it prints figures. Each position is solved from
//! an empty transposition table (as the reference does), and its score is
//! checked, so a fast but wrong engine does not go unnoticed.
//!
//! The reference columns are Pons' published figures, from his machine.
//! `--against` times another solver on the same lines in the same run
//! (Pons' own program, BitBully behind a small script), so a comparison
//! needs no spreadsheet and no second sitting.

use anyhow::{bail, Context, Result};
use connect4::Connect4;
use players::{Engine, EngineConfig};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// Time the engine on the Connect-4 benchmark sets.
///
/// Prints, per set: positions, mean and median time, mean nodes, nodes per
/// second, and the ratios to the reference solver's mean time and nodes.
#[derive(clap::Args)]
pub struct Args {
    /// The folder holding the sets (Test_L3_R1 ... Test_L1_R3).
    #[arg(long, value_name = "DIR", default_value = default_data_dir())]
    data: PathBuf,
    /// Only these sets (comma-separated names, e.g. Test_L3_R1,Test_L2_R1).
    #[arg(long, value_delimiter = ',', value_name = "SET")]
    sets: Vec<String>,
    /// At most this many positions per set (default: all, and the first 50
    /// of Test_L1_R3, which takes hours in full).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Memory for the engine's transposition table, in MiB (from 1 to half
    /// of this machine's memory).
    #[arg(long, default_value_t = 64, value_name = "MIB", value_parser = crate::spec::table_megabytes)]
    table_mb: usize,
    /// Also time another solver on the same lines, in this run: a command
    /// (split at spaces, no shell) that reads positions in the sets' notation
    /// (`4453`) on stdin, one a line, and prints a line for each, ending
    /// with its score, as Pons' `c4solver` does. Its time per position is
    /// its whole run's, less its start-up (the quickest of three runs on no
    /// input), shared out; its scores are checked too.
    #[arg(long, value_name = "COMMAND")]
    against: Option<String>,
}

fn default_data_dir() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/connect4")
}

/// A benchmark set and the reference solver's figures on it (from the
/// sets' README: mean time in seconds, mean nodes per position).
struct Set {
    name: &'static str,
    label: &'static str,
    reference_time: f64,
    reference_nodes: f64,
    default_limit: Option<usize>,
}

const SETS: [Set; 6] = [
    Set {
        name: "Test_L3_R1",
        label: "end-easy",
        reference_time: 6.2e-6,
        reference_nodes: 51.0,
        default_limit: None,
    },
    Set {
        name: "Test_L2_R1",
        label: "middle-easy",
        reference_time: 59e-6,
        reference_nodes: 449.0,
        default_limit: None,
    },
    Set {
        name: "Test_L2_R2",
        label: "middle-medium",
        reference_time: 6.2e-3,
        reference_nodes: 39_807.0,
        default_limit: None,
    },
    Set {
        name: "Test_L1_R1",
        label: "begin-easy",
        reference_time: 0.38e-3,
        reference_nodes: 3_296.0,
        default_limit: None,
    },
    Set {
        name: "Test_L1_R2",
        label: "begin-medium",
        reference_time: 0.166,
        reference_nodes: 1_187_923.0,
        default_limit: None,
    },
    Set {
        name: "Test_L1_R3",
        label: "begin-hard",
        reference_time: 6.9,
        reference_nodes: 49.8e6,
        default_limit: Some(50),
    },
];

/// Runs `games bench`.
pub fn run(args: &Args) -> Result<ExitCode> {
    for wanted in &args.sets {
        if !SETS.iter().any(|s| s.name == wanted) {
            let names: Vec<&str> = SETS.iter().map(|s| s.name).collect();
            bail!(
                "unknown set `{}` (the sets are: {})",
                game_api::echo(wanted),
                names.join(", ")
            );
        }
    }
    let other = args.against.as_deref().map(Other::new).transpose()?;
    let game = Connect4::default();
    let mut engine = Engine::new(EngineConfig {
        table_megabytes: args.table_mb,
        // The solver's own speed: the book would answer the 12-stone
        // positions of the begin sets.
        use_book: false,
        ..EngineConfig::default()
    })?;
    let mut out = std::io::stdout().lock();
    write!(
        out,
        "{:<24} {:>9} {:>10} {:>10} {:>12} {:>10} {:>10} {:>8} {:>8} {:>6}",
        "set",
        "positions",
        "mean time",
        "median",
        "mean nodes",
        "nodes/s",
        "ref time",
        "time x",
        "nodes x",
        "wrong"
    )?;
    if other.is_some() {
        write!(out, " {:>10} {:>8} {:>6}", "other", "other x", "wrong")?;
    }
    writeln!(out)?;
    let mut wrong_total = 0;
    let mut too_short = false;
    for set in SETS
        .iter()
        .filter(|s| args.sets.is_empty() || args.sets.iter().any(|w| w == s.name))
    {
        let positions = read_set(
            &game,
            &args.data.join(set.name),
            args.limit.or(set.default_limit),
        )?;
        let mut times = Vec::with_capacity(positions.len());
        let mut nodes = 0u64;
        let mut wrong = 0;
        for Line {
            state,
            score: expected,
            ..
        } in &positions
        {
            let solved = engine.solve(&game, state);
            times.push(solved.time);
            nodes += solved.nodes;
            if solved.value * state.player_to_move().sign() != *expected {
                wrong += 1;
            }
        }
        wrong_total += wrong;
        let n = positions.len().max(1) as f64;
        let total: Duration = times.iter().sum();
        let mean_time = total.as_secs_f64() / n;
        times.sort();
        let median = times
            .get(times.len() / 2)
            .map_or(0.0, Duration::as_secs_f64);
        let mean_nodes = nodes as f64 / n;
        let rate = nodes as f64 / total.as_secs_f64().max(1e-9);
        // The other solver before the row is written: an error leaves no
        // half-written row.
        let other_run = other.as_ref().map(|o| o.run(&positions)).transpose()?;
        write!(
            out,
            "{:<24} {:>9} {:>10} {:>10} {:>12.0} {:>10} {:>10} {:>8.2} {:>8.2} {:>6}",
            format!("{} ({})", set.name, set.label),
            positions.len(),
            seconds(mean_time),
            seconds(median),
            mean_nodes,
            format!("{:.2}M", rate / 1e6),
            seconds(set.reference_time),
            mean_time / set.reference_time,
            mean_nodes / set.reference_nodes,
            wrong
        )?;
        if let Some((time, other_wrong)) = other_run {
            wrong_total += other_wrong;
            let (other_mean, ratio) = match time {
                Some(time) => {
                    let other_mean = time.as_secs_f64() / n;
                    (
                        seconds(other_mean),
                        format!("{:.2}", mean_time / other_mean),
                    )
                }
                None => {
                    too_short = true;
                    ("-".to_owned(), "-".to_owned())
                }
            };
            write!(out, " {other_mean:>10} {ratio:>8} {other_wrong:>6}")?;
        }
        writeln!(out)?;
        out.flush()?;
    }
    if let (true, Some(other)) = (too_short, &other) {
        writeln!(
            out,
            "-: the other solver's run took less than twice its start-up ({}): too short to time, give more lines",
            seconds(other.start_up.as_secs_f64())
        )?;
    }
    Ok(if wrong_total > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A line of a set: the moves as written, the position and its score.
struct Line {
    moves: String,
    state: connect4::Position,
    score: i32,
}

/// The positions of a set file with their scores, at most `limit` of them.
fn read_set(game: &Connect4, path: &Path, limit: Option<usize>) -> Result<Vec<Line>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read {} (give the sets' folder with --data)",
            path.display()
        )
    })?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().take(limit.unwrap_or(usize::MAX)).enumerate() {
        let at = || format!("{}:{}", path.display(), i + 1);
        let (moves, score) = line
            .split_once(' ')
            .with_context(|| format!("{}: expected `<moves> <score>`", at()))?;
        let state = game.state_from_digits(moves).with_context(at)?;
        let score = score
            .trim()
            .parse()
            .with_context(|| format!("{}: `{}` is not a score", at(), game_api::echo(score)))?;
        positions.push(Line {
            moves: moves.to_owned(),
            state,
            score,
        });
    }
    Ok(positions)
}

/// Another solver, timed on the same lines (`--against`).
struct Other {
    /// The command as given, for messages.
    shown: String,
    program: String,
    args: Vec<String>,
    /// Its run on no input: start-up, taken off every set's time.
    start_up: Duration,
}

impl Other {
    /// The command, and its start-up time: the quickest of three runs on no
    /// input.
    fn new(command: &str) -> Result<Self> {
        let mut words = command.split_whitespace().map(str::to_owned);
        let program = words.next().context("--against: give a command")?;
        let mut other = Other {
            shown: game_api::echo(command),
            program,
            args: words.collect(),
            start_up: Duration::ZERO,
        };
        let mut start_up = Duration::MAX;
        for _ in 0..3 {
            start_up = start_up.min(other.time("")?.0);
        }
        other.start_up = start_up;
        Ok(other)
    }

    /// Runs it on `input`: its wall time and what it printed.
    fn time(&self, input: &str) -> Result<(Duration, String)> {
        let start = Instant::now();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("--against: cannot start `{}`", self.shown))?;
        let mut stdin = child.stdin.take().context("--against: no stdin")?;
        let input = input.to_owned();
        // Written while its output is read, so neither pipe fills up.
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let output = child.wait_with_output()?;
        let elapsed = start.elapsed();
        let written = writer.join().expect("the writer does not panic");
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let said = match stderr.trim() {
                "" => String::new(),
                text => format!(": {}", game_api::echo(text)),
            };
            bail!(
                "--against: `{}` failed ({}){said}",
                self.shown,
                output.status
            );
        }
        written.with_context(|| format!("--against: `{}` did not read its input", self.shown))?;
        Ok((
            elapsed,
            String::from_utf8_lossy(&output.stdout).into_owned(),
        ))
    }

    /// Its time on `lines`, start-up taken off (`None` when the run was no
    /// longer than twice its start-up: too short to tell), and how many
    /// scores it got wrong.
    fn run(&self, lines: &[Line]) -> Result<(Option<Duration>, usize)> {
        let input: String = lines.iter().map(|l| format!("{}\n", l.moves)).collect();
        let (elapsed, printed) = self.time(&input)?;
        let answers: Vec<&str> = printed.lines().collect();
        if answers.len() != lines.len() {
            bail!(
                "--against: `{}` printed {} line(s) for {} positions",
                self.shown,
                answers.len(),
                lines.len()
            );
        }
        let mut wrong = 0;
        for (k, (answer, line)) in answers.iter().zip(lines).enumerate() {
            let score = answer
                .split_whitespace()
                .last()
                .and_then(|w| w.parse::<i32>().ok());
            let Some(score) = score else {
                bail!(
                    "--against: line {} of `{}`'s output does not end with a score: `{}`",
                    k + 1,
                    self.shown,
                    game_api::echo(answer)
                );
            };
            wrong += usize::from(score != line.score);
        }
        let time = (elapsed > 2 * self.start_up).then(|| elapsed - self.start_up);
        Ok((time, wrong))
    }
}

/// Seconds in a readable unit: `6.2 µs`, `166 ms`, `6.90 s`.
fn seconds(s: f64) -> String {
    let (value, unit) = if s < 1e-3 {
        (s * 1e6, "µs")
    } else if s < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    if value < 10.0 {
        format!("{value:.2} {unit}")
    } else {
        format!("{value:.1} {unit}")
    }
}
