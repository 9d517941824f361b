//! The `grader` binary: judges one built submission (its driver binary)
//! against the fixtures and answer keys, and writes its `results.json` and
//! `feedback.md`. `cargo xtask grade` builds submissions and runs it.
//! `grader gradescope` grades one Gradescope upload (the bundle that
//! `cargo xtask gradescope` writes runs it).

use anyhow::Context;
use clap::{Parser, Subcommand};
use grader::class::{grade_class, Prepared};
use grader::gradescope::{grade_upload, Autograder};
use grader::judge::{Judge, Sandboxed};
use grader::report::{write_atomic, SubmissionResult};
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
    Judge(Judged),
    /// Grade the Gradescope upload in <root>/submission into
    /// <root>/results/results.json (always written), or with --reference
    /// check that the reference crate scores full marks (which also builds
    /// the course's part of every driver, once).
    Gradescope {
        /// The course workspace (as the bundle unpacks it).
        #[arg(long)]
        course: PathBuf,
        /// The game.
        #[arg(long)]
        game: String,
        /// Gradescope's root folder (/autograder there).
        #[arg(long, required_unless_present = "reference")]
        root: Option<PathBuf>,
        /// Grade the reference crate instead; fail unless it scores full marks.
        #[arg(long, conflicts_with = "root")]
        reference: bool,
    },
}

fn main() -> anyhow::Result<()> {
    // The sandbox launcher: parsed by hand, before anything else, so that
    // nothing it is given can be read as a flag of this program.
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(grader::confine::SUBCOMMAND) {
        grader::confine::launch(&args[2..]);
    }
    match Cli::parse().command {
        Cmd::Gradescope {
            course,
            game,
            root,
            reference,
        } => {
            let ag = Autograder {
                course,
                game,
                root: root.unwrap_or_default(),
                grader_bin: std::env::current_exe().context("finding the grader binary")?,
            };
            if reference {
                check_reference(&ag)
            } else {
                let results = ag.root.join("results");
                std::fs::create_dir_all(&results)
                    .with_context(|| format!("creating {}", results.display()))?;
                let json = grade_upload(&ag, &|line| println!("{line}"));
                write_atomic(&results.join("results.json"), json.as_bytes())
                    .with_context(|| format!("writing {}/results.json", results.display()))
            }
        }
        Cmd::Judge(args) => judge(args),
    }
}

/// Grades the reference crate the way uploads are graded: it must score
/// full marks (the bundle's build step runs this once).
fn check_reference(ag: &Autograder) -> anyhow::Result<()> {
    let mut run = ag.class_run(PathBuf::new());
    run.reference = true;
    let report = grade_class(&run, &|line| println!("{line}"))?;
    print!("{}", report.summary);
    match report.results.first() {
        Some(r) if r.score == r.max_score && report.errors.is_empty() => Ok(()),
        Some(r) => anyhow::bail!(
            "the reference crate scored {} / {} (failing: {}){}",
            r.score,
            r.max_score,
            r.failing().join(", "),
            if report.errors.is_empty() {
                String::new()
            } else {
                format!(": {}", report.errors.join("; "))
            }
        ),
        None => anyhow::bail!("the reference crate was not graded"),
    }
}

/// The arguments of `grader judge`.
#[derive(clap::Args)]
struct Judged {
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
}

/// Judges one built submission and writes its reports.
fn judge(args: Judged) -> anyhow::Result<()> {
    let Judged {
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
    } = args;
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
        after_due_date,
    );
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
