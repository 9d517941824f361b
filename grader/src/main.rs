//! The `grader` binary: judges one built submission (its driver binary)
//! against the fixtures and answer keys, and writes its `results.json` and
//! `feedback.md`. `cargo xtask grade` builds submissions and runs it.

use anyhow::Context;
use clap::{Parser, Subcommand};
use grader::class::Prepared;
use grader::judge::{Judge, Sandboxed};
use grader::report::SubmissionResult;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
#[command(about = "Replays fixtures against a submission's driver and judges them")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Judge one submission, given its built driver.
    Judge {
        /// The driver binary built against the submission.
        #[arg(long)]
        driver: PathBuf,
        /// The game.
        #[arg(long)]
        game: String,
        /// The student's name in reports.
        #[arg(long)]
        student: String,
        /// Where `results.json` and `feedback.md` go.
        #[arg(long)]
        out: PathBuf,
        /// The game's fixtures folder.
        #[arg(long)]
        fixtures: PathBuf,
        /// The answer keys folder.
        #[arg(long)]
        keys: PathBuf,
        /// The settings file (grading.toml).
        #[arg(long)]
        config: PathBuf,
        /// Parent folder of the student process's scratch directories.
        #[arg(long)]
        scratch: PathBuf,
        /// Run only the fixtures with this tag (`laws`: only the laws).
        #[arg(long)]
        only: Option<String>,
        /// Show after-due-date tests (name and result) in the feedback.
        #[arg(long)]
        after_due_date: bool,
        /// The submission's version, recorded in the results.
        #[arg(long, default_value = "")]
        submission_version: String,
        /// Seconds spent building, added to the execution time.
        #[arg(long, default_value_t = 0.0)]
        build_seconds: f64,
    },
}

fn main() -> anyhow::Result<()> {
    // The sandbox launcher: parsed by hand, before anything else, so that
    // nothing it is given can be read as a flag of this program.
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(grader::confine::SUBCOMMAND) {
        grader::confine::launch(&args[2..]);
    }
    let Cmd::Judge {
        driver,
        game,
        student,
        out,
        fixtures,
        keys,
        config,
        scratch,
        only,
        after_due_date,
        submission_version,
        build_seconds,
    } = Cli::parse().command;
    let start = Instant::now();
    let launcher = std::env::current_exe().context("finding the grader binary")?;
    let prepared = Prepared::load(&config, &game, &fixtures, &keys, only.as_deref())?;
    let judge = Judge {
        config: &prepared.config,
        game: &prepared.game,
        fixtures: &prepared.fixtures,
        fixtures_dir: &fixtures,
        laws: prepared.laws,
    };
    let judged = judge.run(&mut Sandboxed::new(
        &driver,
        &launcher,
        &scratch,
        &prepared.config,
    ));
    let mut result = SubmissionResult::new(
        &student,
        &game,
        prepared.config.seed,
        judged.sandbox,
        judged.tests,
    );
    result.after_due_date = after_due_date;
    result.submission_version = submission_version;
    result.execution_time = build_seconds + start.elapsed().as_secs_f64();
    result
        .write(&out)
        .with_context(|| format!("writing the results of {student} into {}", out.display()))?;
    let _ = std::fs::remove_dir_all(&scratch);
    let failing = result.failing();
    println!(
        "{student}: {} / {}{}",
        result.score,
        result.max_score,
        if failing.is_empty() {
            String::new()
        } else {
            format!(" (failing: {})", failing.join(", "))
        }
    );
    Ok(())
}
