//! Course chores, run as `cargo xtask <command>`:
//!
//! - `grade`: build every submission (one shared build cache) and have the
//!   `grader` binary judge each, then write the gradebook and the summary;
//! - `bench-grade`: the grading benchmark (a folder of zoo submissions);
//! - `keys`: record (and review) the answer keys of the fixtures;
//! - `new-game`: scaffold a reference game and register it;
//! - `gradescope`: the autograder zip for Gradescope;
//! - `classroom`: the GitHub Classroom autograding workflow.
//! - `handout`: generate the starter workspace students receive for a game.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use grader::class::{grade_class, ClassReport, ClassRun};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

mod classroom;
mod gradescope;
mod handout;
mod keys;
mod new_game;

#[derive(Parser)]
#[command(about = "Course chores: grading submissions, answer keys, new games")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Grade a submission, or a folder of submissions, of one game.
    Grade {
        /// A submission folder, or a folder of submission folders.
        #[arg(required_unless_present = "reference")]
        submissions: Option<PathBuf>,
        /// The game (a folder of fixtures/).
        #[arg(long)]
        game: String,
        /// Where results go (default: target/grades/<game>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Students built and judged at once (default: the machine's cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        jobs: Option<u64>,
        /// Run only the fixtures with this tag (`laws`: only the laws).
        #[arg(long)]
        only: Option<String>,
        /// Regrade students that already have results.
        #[arg(long)]
        force: bool,
        /// Grade our own reference crate (it must score full marks).
        #[arg(long, conflicts_with = "submissions")]
        reference: bool,
        /// Show after-due-date tests (name and result) in the feedback.
        #[arg(long)]
        after_due_date: bool,
    },
    /// Benchmark: grade a folder of zoo submissions, print the timings.
    BenchGrade {
        /// How many submissions (the game's zoo, repeated under new names).
        #[arg(long, default_value_t = 20)]
        count: usize,
        /// The game whose zoo specimens are graded.
        #[arg(long, default_value = "connect4")]
        game: String,
        /// Students built and judged at once (default: the machine's cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        jobs: Option<u64>,
        /// Keep the build cache of a previous run (default: start cold, so
        /// the first submission also builds the shared dependencies).
        #[arg(long)]
        warm: bool,
    },
    /// Record the answer keys of every fixture (insta snapshots), pending review.
    Keys {
        /// Only this game's fixtures (a [games.<game>] of fixtures/grading.toml).
        #[arg(long)]
        game: Option<String>,
        /// Review the new and changed keys with `cargo insta review`.
        #[arg(long)]
        review: bool,
        /// Accept every new and changed key (then read `git diff`).
        #[arg(long, conflicts_with = "review")]
        accept: bool,
    },
    /// Generate the handout of a game: the workspace a student starts from.
    Handout {
        /// The game (a section of fixtures/grading.toml).
        #[arg(long)]
        game: String,
        /// Where to write it (default: target/handout/<game>); it must not
        /// exist, unless --force.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Replace an existing folder's contents (all but its target/).
        #[arg(long)]
        force: bool,
        /// Keep the solutions (only the markers removed): the handout as a
        /// student who solved it holds it, to check that it passes.
        #[arg(long)]
        with_solutions: bool,
    },
    /// Scaffold a new reference game: its crate, a fixture, its registration.
    NewGame {
        /// The game's name (a crate name: lowercase letters, digits, hyphens).
        name: String,
        /// The game type's name (default: the name in CamelCase).
        #[arg(long = "type")]
        type_name: Option<String>,
    },
    /// Build the autograder zip for Gradescope (setup.sh, run_autograder,
    /// the grader, the fixtures with the hidden ones, the keys).
    Gradescope {
        /// The game (a [games.<game>] of fixtures/grading.toml).
        #[arg(long)]
        game: String,
        /// The zip to write.
        #[arg(long, default_value = "autograder.zip")]
        out: PathBuf,
    },
    /// Write the GitHub Classroom autograding workflow
    /// (<out>/.github/workflows/classroom.yml).
    Classroom {
        /// The game (a [games.<game>] of fixtures/grading.toml).
        #[arg(long)]
        game: String,
        /// The repository's root (default: the workspace's).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Runs the chore; an error is printed as one line, the message and each
/// cause once (`error: a: b: c`), never with a backtrace (even with
/// `RUST_BACKTRACE=1`, which `main` returning a `Result` would honour).
fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let ws = workspace();
    match cli.command {
        Cmd::Grade {
            submissions,
            game,
            out,
            jobs,
            only,
            force,
            reference,
            after_due_date,
        } => {
            // Checked before the grader is built, which takes a while.
            if let Some(folder) = &submissions {
                std::fs::metadata(folder)
                    .with_context(|| format!("cannot read {}", folder.display()))?;
            }
            let mut run =
                ClassRun::new(&ws, &game, submissions.unwrap_or_default(), PathBuf::new());
            run.reference = reference;
            match out {
                Some(out) => run.out = out,
                None if reference => {
                    run.out = ws.join("target/grades").join(format!("{game}-reference"))
                }
                None => {}
            }
            if let Some(jobs) = jobs {
                run.jobs = usize::try_from(jobs).unwrap_or(usize::MAX);
            }
            (run.only, run.force, run.after_due_date) = (only, force, after_due_date);
            // The course's files (settings, fixtures, keys) are checked
            // before anything is built, the grader included.
            let prepared = grader::class::Prepared::load(
                &run.config_path,
                &run.game,
                &run.fixtures_dir,
                &run.keys_dir,
                run.only.as_deref(),
            )?;
            let fixtures = prepared.fixtures.iter().map(|(f, _)| f);
            for warning in prepared
                .config
                .points_policy_warnings(&run.config_path, fixtures)
            {
                eprintln!("warning: {warning}");
            }
            run.grader_bin = build_grader(&ws)?;
            run.launcher.clone_from(&run.grader_bin);
            let report = grade_class(&run, &|line| eprintln!("{line}"))?;
            print!("{}", report.summary);
            println!("results in {}", run.out.display());
            check_complete(&report, reference)
        }
        Cmd::BenchGrade {
            count,
            game,
            jobs,
            warm,
        } => bench(&ws, &game, count, jobs, warm),
        Cmd::Keys {
            game,
            review,
            accept,
        } => {
            let then = match (review, accept) {
                (true, _) => keys::Then::Review,
                (_, true) => keys::Then::Accept,
                _ => keys::Then::List,
            };
            keys::run(&ws, game.as_deref(), then)
        }
        Cmd::Handout {
            game,
            out,
            force,
            with_solutions,
        } => {
            let out = out.unwrap_or_else(|| ws.join("target/handout").join(&game));
            if !force && out.exists() {
                bail!(
                    "{} exists: choose another --out, or --force to replace what it holds (all but target/)",
                    out.display()
                );
            }
            let solutions = if with_solutions {
                handout::Solutions::Kept
            } else {
                handout::Solutions::Stubbed
            };
            let h = handout::plan(&ws, &game, solutions)?;
            handout::write(&out, &h).with_context(|| format!("writing {}", out.display()))?;
            println!(
                "wrote the {game} handout ({} files) in {}",
                h.files.len(),
                out.display()
            );
            Ok(())
        }
        Cmd::NewGame { name, type_name } => {
            let ty = type_name.unwrap_or_else(|| new_game::type_name(&name));
            let plan = new_game::plan(&ws, &name, &ty)?;
            new_game::write(&ws, &plan).context("writing the new game's files")?;
            for (path, _, created) in &plan.files {
                let verb = if *created { "created" } else { "changed" };
                println!("{verb} {}", path.display());
            }
            print!("{}", new_game::next_steps(&name));
            Ok(())
        }
        Cmd::Gradescope { game, out } => {
            let entries = gradescope::bundle(&ws, &game)?;
            gradescope::write_zip(&entries, &out)?;
            println!(
                "wrote {} ({} files): upload it as the autograder of a Gradescope programming assignment",
                out.display(),
                entries.len()
            );
            Ok(())
        }
        Cmd::Classroom { game, out } => {
            let points = classroom::public_points(&ws, &game)?;
            let text = classroom::workflow(&game, &classroom::course_commands(&game), points);
            let dir = out.unwrap_or_else(|| ws.clone()).join(".github/workflows");
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            let path = dir.join("classroom.yml");
            grader::report::write_atomic(&path, text.as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {} ({points} public points)", path.display());
            Ok(())
        }
    }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is in the workspace")
        .to_owned()
}

/// Builds the `grader` binary (release) and returns its path.
fn build_grader(ws: &Path) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "grader",
            "--bin",
            "grader",
        ])
        .current_dir(ws)
        .status()
        .context("running cargo to build the grader")?;
    if !status.success() {
        bail!("the grader did not build");
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| ws.join("target"), PathBuf::from);
    Ok(target.join("release/grader"))
}

fn check_complete(report: &ClassReport, reference: bool) -> Result<()> {
    if !report.errors.is_empty() {
        bail!(
            "no final result (not the students' fault; the next run regrades them) for: {}",
            report.errors.join("; ")
        );
    }
    if reference {
        if let Some(r) = report.results.iter().find(|r| r.score < r.max_score) {
            bail!(
                "the reference scored {} / {}: failing {}",
                r.score,
                r.max_score,
                r.failing().join(", ")
            );
        }
    }
    Ok(())
}

/// Grades `count` zoo submissions of `game` and prints the figures.
fn bench(ws: &Path, game: &str, count: usize, jobs: Option<u64>, warm: bool) -> Result<()> {
    let zoo = ws.join("grader/zoo");
    let specimens: Vec<_> = grader::zoo::load(&zoo)
        .map_err(anyhow::Error::msg)?
        .into_iter()
        .filter(|s| s.game == game)
        .collect();
    if specimens.is_empty() {
        bail!("the zoo (grader/zoo/zoo.toml) has no {game} specimen");
    }
    let root = ws.join("target/bench-grade");
    let folder = root.join("submissions");
    let _ = std::fs::remove_dir_all(&folder);
    for i in 0..count {
        let mut s = specimens[i % specimens.len()].clone();
        s.name = format!("student-{i:02}-{}", s.name);
        grader::zoo::materialize(&zoo, &s, ws, &folder).map_err(anyhow::Error::msg)?;
    }
    let grader = build_grader(ws)?;
    let mut run = ClassRun::new(ws, game, folder, grader);
    run.out = root.join("grades");
    run.build_dir = root.join("build");
    run.force = true;
    if let Some(jobs) = jobs {
        run.jobs = usize::try_from(jobs).unwrap_or(usize::MAX);
    }
    if !warm {
        let _ = std::fs::remove_dir_all(&run.build_dir);
    }
    let start = Instant::now();
    let report = grade_class(&run, &|line| eprintln!("{line}"))?;
    let total = start.elapsed();
    print!("{}", report.summary);
    let first = report
        .graded
        .first()
        .map_or(Duration::ZERO, |t| t.build + t.judge);
    let judged: Vec<_> = report.graded.iter().filter(|t| t.built).collect();
    let judge_time: Duration = judged.iter().map(|t| t.judge).sum();
    let build_time: Duration = report.graded.iter().map(|t| t.build).sum();
    let moves = report.moves_per_submission * judged.len();
    let n = report.graded.len();
    println!(
        "\nbench-grade: {n} submissions of {game} ({} built and judged), {} at once",
        judged.len(),
        run.jobs
    );
    println!("total wall time:            {:.1} s", total.as_secs_f64());
    println!(
        "wall time per submission:   {:.2} s (total / {n}; linear: 100 in {:.0} min, 300 in {:.0} min)",
        total.as_secs_f64() / n.max(1) as f64,
        total.as_secs_f64() / n.max(1) as f64 * 100.0 / 60.0,
        total.as_secs_f64() / n.max(1) as f64 * 300.0 / 60.0
    );
    println!("first submission:           {:.1} s (build + judge; the course's template, built before it, is in the total only)", first.as_secs_f64());
    if report.graded.len() > 1 {
        println!(
            "per submission after first: {:.2} s (wall)",
            (total.saturating_sub(first)).as_secs_f64() / (report.graded.len() - 1) as f64
        );
    }
    println!(
        "build time, summed:         {:.1} s",
        build_time.as_secs_f64()
    );
    println!(
        "judge time, summed:         {:.1} s",
        judge_time.as_secs_f64()
    );
    println!(
        "judging rate:               {:.0} fixture moves/s ({moves} moves in {:.1} s of judging, the laws included)",
        moves as f64 / judge_time.as_secs_f64().max(1e-9),
        judge_time.as_secs_f64()
    );
    replay_rate(
        ws,
        game,
        &run,
        // A submission with full marks: every fixture replays to its end.
        report
            .results
            .iter()
            .find(|r| r.max_score > 0.0 && r.score == r.max_score)
            .map(|r| r.student.as_str()),
    )?;
    check_complete(&report, false)
}

/// Replays every fixture of `game` through one built driver: with a fresh
/// process per fixture (as graded), and through a single process (the
/// protocol alone).
fn replay_rate(ws: &Path, game: &str, run: &ClassRun, student: Option<&str>) -> Result<()> {
    let Some(student) = student else {
        return Ok(());
    };
    let driver = grader::class::driver_path(run, student);
    let prepared = grader::class::Prepared::load(
        &run.config_path,
        game,
        &run.fixtures_dir,
        &run.keys_dir,
        None,
    )?;
    let judge = grader::judge::Judge {
        config: &prepared.config,
        game: &prepared.game,
        fixtures: &prepared.fixtures,
        fixtures_dir: &run.fixtures_dir,
        laws: false,
    };
    let scratch = run.build_dir.join("scratch/bench");
    let mut subject =
        grader::judge::Sandboxed::new(&driver, &run.grader_bin, &scratch, &prepared.config);
    const ROUNDS: usize = 5;
    let start = Instant::now();
    for _ in 0..ROUNDS {
        let judged = judge.run(&mut subject);
        if let Some(t) = judged.tests.iter().find(|t| !t.passed) {
            bail!(
                "{student} failed {} while benchmarking: pick a correct submission",
                t.name
            );
        }
    }
    let graded = start.elapsed();
    let moves = prepared.moves() * ROUNDS;
    println!(
        "replay as graded:           {:.0} moves/s ({moves} fixture moves, a fresh process per fixture, {student})",
        moves as f64 / graded.as_secs_f64()
    );
    let sandbox = grader::sandbox::Sandbox {
        launcher: run.grader_bin.clone(),
        limits: prepared.config.limits(),
    };
    let d = grader::sandbox::Driver::start(
        &sandbox,
        &driver,
        &ws.join("target/bench-grade/scratch"),
        Duration::from_secs(600),
    )
    .map_err(|f| anyhow::anyhow!("{f}"))?;
    let game = grader::remote::RemoteGame::new(d, &game_api::Options::new())
        .map_err(|(why, _)| anyhow::anyhow!("{why:?}"))?;
    let start = Instant::now();
    let mut played = 0;
    for _ in 0..ROUNDS {
        for (f, key) in prepared
            .fixtures
            .iter()
            .filter(|(f, _)| f.options.is_empty())
        {
            grader::key::walk(f, &game, |n, o| key.compare(n, o), |_, _, _| {})
                .map_err(|d| anyhow::anyhow!("{}: {}", f.name, d.message))?;
            played += f.moves.len();
        }
    }
    println!(
        "replay through one process: {:.0} moves/s ({played} moves of the fixtures on the default board; each move: parse, play, status, legal moves, drawing)",
        played as f64 / start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(errors: Vec<String>) -> ClassReport {
        ClassReport {
            results: Vec::new(),
            graded: Vec::new(),
            skipped: Vec::new(),
            hidden: Vec::new(),
            errors,
            summary: String::new(),
            moves_per_submission: 0,
        }
    }

    #[test]
    fn a_run_with_a_result_that_is_not_final_exits_with_an_error_naming_it() {
        assert!(check_complete(&report(Vec::new()), false).is_ok());
        let e = check_complete(&report(vec!["bo: killed by signal 9".into()]), false)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("for: bo: killed by signal 9"), "{e}");
    }
}
