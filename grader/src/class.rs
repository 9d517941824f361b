//! Grading a class: every submission in a folder, built (each in its own
//! hard-linked copy of the course's template build) and judged by
//! `grader judge` processes, `jobs` students at once, then the gradebook
//! and the summary, written once, in the students' order, whatever order
//! they finished in.
//!
//! Any folder name is a student's name (except hidden folders, starting
//! with `.`, which are skipped and listed in the summary): results go to
//! `<out>/students/<student>/`, apart from the class files at `<out>/`, and
//! names reach the `grader judge` command line only as `--flag=value`.
//!
//! A student whose final `results.json` is up to date is skipped (unless
//! `force`), so an interrupted run is resumed by running it again. A result
//! that is not final (the grader or the course failed, or grading was
//! interrupted) is never kept: the next run regrades it, and the run that
//! wrote it reports it in [`ClassReport::errors`].

use crate::build::{BuildFailure, Builder, Toolchain};
use crate::config::{GameConfig, GradingConfig};
use crate::fixture::{load_dir, Fixture, FixtureError, Visibility};
use crate::key::{AnswerKey, KeyError};
use crate::report::{
    gradebook_csv, remove_stale_temporaries, summary, write_atomic, SubmissionResult, Verdict,
};
use crate::results::{relative, Origin, TestResult};
use crate::submission::{stage, submission_version, vet, Target, Workspace};
use game_api::conformance::LAWS;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The sandbox status of a submission that never ran (it did not build).
const NOT_RUN: &str = "not run";

/// Where everything is, and what to do.
#[derive(Clone, Debug)]
pub struct ClassRun {
    /// The course workspace.
    pub workspace: Workspace,
    /// The game graded.
    pub game: String,
    /// A submission folder, or a folder of submission folders (ignored for
    /// a reference run).
    pub submissions: PathBuf,
    /// Grade our own reference crate instead.
    pub reference: bool,
    /// Where results go: `<out>/students/<student>/results.json`,
    /// `feedback.md` (see [`student_dir`]), and `<out>/gradebook.csv`,
    /// `<out>/summary.txt`.
    pub out: PathBuf,
    /// Staged crates, drivers, the shared Cargo target dir, scratch dirs.
    pub build_dir: PathBuf,
    /// Students built and judged at once (default: the machine's cores).
    pub jobs: usize,
    /// Run only fixtures (and laws) with this tag.
    pub only: Option<String>,
    /// Regrade students that already have results.
    pub force: bool,
    /// Show after-due-date tests (name and result) in the feedback.
    pub after_due_date: bool,
    /// The `grader` binary.
    pub grader_bin: PathBuf,
    /// The sandbox launcher of builds (the `grader` binary, see
    /// [`crate::confine`]).
    pub launcher: PathBuf,
    /// The fixtures folder of the game.
    pub fixtures_dir: PathBuf,
    /// The answer keys (insta snapshots) folder.
    pub keys_dir: PathBuf,
    /// The settings file.
    pub config_path: PathBuf,
}

impl ClassRun {
    /// The usual layout of a workspace: fixtures under `fixtures/<game>`,
    /// keys under `grader/tests/snapshots`, settings in
    /// `fixtures/grading.toml`, builds under `target/grader`, results under
    /// `target/grades/<game>`.
    #[must_use]
    pub fn new(workspace: &Path, game: &str, submissions: PathBuf, grader_bin: PathBuf) -> Self {
        ClassRun {
            workspace: Workspace {
                root: workspace.to_owned(),
            },
            game: game.to_owned(),
            submissions,
            reference: false,
            out: workspace.join("target/grades").join(game),
            build_dir: workspace.join("target/grader"),
            jobs: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            only: None,
            force: false,
            after_due_date: false,
            launcher: grader_bin.clone(),
            grader_bin,
            fixtures_dir: workspace.join("fixtures").join(game),
            keys_dir: workspace.join("grader/tests/snapshots"),
            config_path: workspace.join("fixtures/grading.toml"),
        }
    }
}

/// A problem with the course's own files: nothing is graded.
#[derive(Debug, Error)]
pub enum SetupError {
    /// The settings file.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// The game has no `[games.<game>]` section.
    #[error("{path}: no [games.{game}] section: it says where the reference crate is")]
    UnknownGame {
        /// The settings file.
        path: PathBuf,
        /// The game.
        game: String,
    },
    /// A fixture.
    #[error(transparent)]
    Fixture(#[from] FixtureError),
    /// An answer key.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// No fixture or law has the tag given to `--only`.
    #[error("no fixture has the tag `{0}` (and it is not `laws`)")]
    NoSuchTag(String),
    /// A folder.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// The course's side of grading, read and checked once.
pub struct Prepared {
    /// Settings.
    pub config: GradingConfig,
    /// The game's settings.
    pub game: GameConfig,
    /// Fixtures with their keys, filtered by tag.
    pub fixtures: Vec<(Fixture, AnswerKey)>,
    /// Whether the laws run.
    pub laws: bool,
}

impl Prepared {
    /// Reads settings, fixtures and keys, and filters them by `only`.
    ///
    /// # Errors
    /// [`SetupError`] for the first problem: nothing should be graded with
    /// a broken fixture or a stale key.
    pub fn load(
        config_path: &Path,
        game: &str,
        fixtures_dir: &Path,
        keys_dir: &Path,
        only: Option<&str>,
    ) -> Result<Prepared, SetupError> {
        let config = GradingConfig::load(config_path)?;
        let game_config =
            config
                .games
                .get(game)
                .cloned()
                .ok_or_else(|| SetupError::UnknownGame {
                    path: config_path.to_owned(),
                    game: game.to_owned(),
                })?;
        let mut fixtures = Vec::new();
        for f in load_dir(fixtures_dir, game)? {
            if only.is_none_or(|tag| f.tags.iter().any(|t| t == tag)) {
                let key = AnswerKey::load(keys_dir, &f)?;
                fixtures.push((f, key));
            }
        }
        let laws = only.is_none_or(|tag| tag == "laws");
        if fixtures.is_empty() && !laws {
            return Err(SetupError::NoSuchTag(only.unwrap_or_default().to_owned()));
        }
        Ok(Prepared {
            config,
            game: game_config,
            fixtures,
            laws,
        })
    }

    /// Points available in one grading.
    #[must_use]
    pub fn max_score(&self) -> f64 {
        let laws = if self.laws {
            self.config.law_points * LAWS.len() as f64
        } else {
            0.0
        };
        self.fixtures.iter().map(|(f, _)| f.points).sum::<f64>() + laws
    }

    /// Fixture file (relative to `dir`) → version, as results record them.
    #[must_use]
    pub fn fixture_versions(&self, dir: &Path) -> BTreeMap<String, String> {
        self.fixtures
            .iter()
            .map(|(f, _)| (relative(&f.path, dir), f.version.clone()))
            .collect()
    }

    /// Moves replayed in one grading (the fixtures' moves).
    #[must_use]
    pub fn moves(&self) -> usize {
        self.fixtures.iter().map(|(f, _)| f.moves.len()).sum()
    }
}

/// Timings of one graded submission.
#[derive(Clone, Debug)]
pub struct Timing {
    /// The student.
    pub student: String,
    /// Vetting, staging and building.
    pub build: Duration,
    /// Judging.
    pub judge: Duration,
    /// Whether it built (and so was judged).
    pub built: bool,
}

/// What a class run did.
#[derive(Clone, Debug)]
pub struct ClassReport {
    /// Every student's result (graded now or before), by student.
    pub results: Vec<SubmissionResult>,
    /// Students graded in this run, with timings.
    pub graded: Vec<Timing>,
    /// Students skipped because they already had final results.
    pub skipped: Vec<String>,
    /// Hidden folders (names starting with `.`) that were not graded.
    pub hidden: Vec<String>,
    /// Students without a final result, with why: the grader or the
    /// course's crates failed, or grading was interrupted. Not the
    /// students' fault; the next run regrades them, and `cargo xtask grade`
    /// exits non-zero.
    pub errors: Vec<String>,
    /// The terminal summary (also in `<out>/summary.txt`).
    pub summary: String,
    /// Moves replayed per judged submission.
    pub moves_per_submission: usize,
}

/// The submissions found in a folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submissions {
    /// (student, folder), sorted by name; any folder name is a student.
    pub students: Vec<(String, PathBuf)>,
    /// Folders not graded because they are hidden (their names start with `.`).
    pub hidden: Vec<String>,
}

/// The submissions of a run: one submission folder, or a folder of them.
///
/// # Errors
/// [`SetupError::Io`] when the folder cannot be listed.
pub fn list_submissions(path: &Path) -> Result<Submissions, SetupError> {
    // A name that is not UTF-8 is shown with `�` and made unique by a hash
    // of its bytes, so two such names never share a results folder.
    let name = |p: &Path| match p.file_name() {
        None => "submission".to_owned(),
        Some(n) => n.to_str().map_or_else(
            || format!("{}-{:08x}", n.to_string_lossy(), fnv(n.as_encoded_bytes())),
            str::to_owned,
        ),
    };
    if path.join("Cargo.toml").is_file() {
        return Ok(Submissions {
            students: vec![(name(path), path.to_owned())],
            hidden: Vec::new(),
        });
    }
    let io = |e: std::io::Error| SetupError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    };
    let (mut found, mut hidden) = (Vec::new(), Vec::new());
    for entry in std::fs::read_dir(path).map_err(io)? {
        let p = entry.map_err(io)?.path();
        if !p.is_dir() {
            continue;
        }
        if name(&p).starts_with('.') {
            hidden.push(name(&p));
        } else {
            found.push((name(&p), p));
        }
    }
    if found.is_empty() {
        return Err(SetupError::Io {
            path: path.to_owned(),
            message: "neither a submission (no Cargo.toml) nor a folder of submissions".into(),
        });
    }
    found.sort();
    hidden.sort();
    Ok(Submissions {
        students: found,
        hidden,
    })
}

/// Where a student's `results.json` and `feedback.md` go:
/// `<out>/students/<student>/`, so no name can collide with a class file.
#[must_use]
pub fn student_dir(out: &Path, student: &str) -> PathBuf {
    out.join("students").join(student)
}

/// Where the driver binary of `student` is once built.
#[must_use]
pub fn driver_path(run: &ClassRun, student: &str) -> PathBuf {
    run.build_dir
        .join("bin")
        .join(format!("grader-driver-{}", slug(student)))
}

fn slug(student: &str) -> String {
    let s: String = student
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("{}-{:08x}", s.trim_matches('-'), fnv(student.as_bytes()))
}

fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// Grades every submission of `run`; `progress` hears one line per event.
///
/// # Errors
/// [`SetupError`] when the course's files are broken (nothing is graded).
pub fn grade_class(
    run: &ClassRun,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<ClassReport, SetupError> {
    let prepared = Prepared::load(
        &run.config_path,
        &run.game,
        &run.fixtures_dir,
        &run.keys_dir,
        run.only.as_deref(),
    )?;
    let Submissions { students, hidden } = if run.reference {
        Submissions {
            students: vec![(
                "reference".to_owned(),
                run.workspace.root.join(&prepared.game.reference),
            )],
            hidden: Vec::new(),
        }
    } else {
        list_submissions(&run.submissions)?
    };
    let io = |path: &Path, e: std::io::Error| SetupError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(&run.out).map_err(|e| io(&run.out, e))?;
    remove_stale_temporaries(&run.out).map_err(|e| io(&run.out, e))?;
    let (mut todo, mut skipped) = (Vec::new(), Vec::new());
    let versions = prepared.fixture_versions(&run.fixtures_dir);
    for (student, dir) in &students {
        let version = submission_version(dir);
        let previous = std::fs::read_to_string(student_dir(&run.out, student).join("results.json"))
            .ok()
            .and_then(|t| SubmissionResult::from_gradescope_json(&t).ok());
        match previous {
            Some(r) if !run.force && !r.verdict_by.is_final() => {
                progress(&format!(
                    "{student}: regrading (the last result was not final: {})",
                    r.verdict_by.describe()
                ));
                todo.push((student.clone(), dir.clone(), version));
            }
            Some(r)
                if !run.force
                    && r.seed == prepared.config.seed
                    && r.fixture_versions == versions
                    && r.submission_version == version =>
            {
                skipped.push(student.clone());
            }
            Some(_) if !run.force => {
                progress(&format!(
                    "{student}: regrading (the submission, the fixtures or the seed changed)"
                ));
                todo.push((student.clone(), dir.clone(), version));
            }
            _ => todo.push((student.clone(), dir.clone(), version)),
        }
    }
    // The course's own crates first, on their own: if they do not build,
    // nobody is blamed for it.
    let builder = (!todo.is_empty()).then(|| {
        progress("building the course's crates (the driver and game-api)");
        course_builder(run, &prepared)
    });
    // Then `jobs` workers, each taking the next student and building then
    // judging it: every build has its own copy of the template and every
    // judge its own processes, so nothing but the queue is shared.
    let next = AtomicUsize::new(0);
    let graded = Mutex::new(Vec::new());
    let errors = Mutex::new(BTreeMap::new());
    thread::scope(|scope| {
        for _ in 0..run.jobs.clamp(1, todo.len().max(1)) {
            scope.spawn(|| {
                while let Some((student, dir, version)) =
                    todo.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    let Some(builder) = &builder else {
                        unreachable!("there is a builder when there is work")
                    };
                    let (timing, error) =
                        grade_student(run, &prepared, builder, (student, dir, version), progress);
                    if let Some(e) = error {
                        errors.lock().expect("errors").insert(student.clone(), e);
                    }
                    graded.lock().expect("timings").push(timing);
                }
            });
        }
    });
    let mut graded = graded.into_inner().expect("timings");
    graded.sort_by(|a, b| a.student.cmp(&b.student));
    let mut results = Vec::new();
    let mut failed = errors.into_inner().expect("errors");
    let mut errors = Vec::new();
    for (student, _) in &students {
        let path = student_dir(&run.out, student).join("results.json");
        match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| SubmissionResult::from_gradescope_json(&t))
        {
            Ok(r) => {
                if !r.verdict_by.is_final() {
                    let why = failed
                        .remove(student)
                        .unwrap_or_else(|| r.verdict_by.describe().to_owned());
                    errors.push(format!("{student}: {why}"));
                }
                results.push(r);
            }
            Err(e) => {
                let why = failed.remove(student).unwrap_or(e);
                errors.push(format!("{student}: {}: {why}", path.display()));
            }
        }
    }
    let mut text = summary(&results);
    let incomplete: Vec<String> = results
        .iter()
        .filter(|r| !r.verdict_by.is_final())
        .map(|r| format!("{} ({})", r.student, r.verdict_by.describe()))
        .collect();
    if !incomplete.is_empty() {
        text += &format!(
            "not final, not the students' fault, regraded by the next run: {}\n",
            incomplete.join(", ")
        );
    }
    if !hidden.is_empty() {
        text += &format!(
            "not graded: hidden folders (names starting with `.`): {}\n",
            hidden.join(", ")
        );
    }
    let weak: Vec<String> = results
        .iter()
        .filter(|r| r.sandbox != "fully enforced" && r.sandbox != NOT_RUN)
        .map(|r| format!("{} ({})", r.student, r.sandbox))
        .collect();
    if !weak.is_empty() {
        text += &format!(
            "warning: the sandbox did not fully hold for {}: see ARCHITECTURE.md (the grader's trust boundary)\n",
            weak.join(", ")
        );
    }
    write_atomic(
        &run.out.join("gradebook.csv"),
        gradebook_csv(&results).as_bytes(),
    )
    .map_err(|e| io(&run.out, e))?;
    write_atomic(&run.out.join("summary.txt"), text.as_bytes()).map_err(|e| io(&run.out, e))?;
    Ok(ClassReport {
        results,
        graded,
        skipped,
        hidden,
        errors,
        summary: text,
        moves_per_submission: prepared.moves(),
    })
}

/// Builds and judges one student (`builder` is the course's, or why it
/// could not be built): the timing, and why no final result was written
/// when none was.
fn grade_student(
    run: &ClassRun,
    prepared: &Prepared,
    builder: &Result<Builder, Unbuilt>,
    (student, dir, version): (&String, &PathBuf, &String),
    progress: &(dyn Fn(&str) + Sync),
) -> (Timing, Option<String>) {
    let start = Instant::now();
    progress(&format!("{student}: building"));
    let built = match builder {
        Ok(builder) => build_one(run, builder, prepared, student, dir),
        Err(why) => Err(why.clone()),
    };
    let build_time = start.elapsed();
    let start = Instant::now();
    let built_ok = built.is_ok();
    let outcome = match built {
        Ok(binary) => judge_one(run, student, version, &binary, build_time),
        Err(Unbuilt::Student(failure)) => write_whole_failure(
            run,
            prepared,
            (student, version),
            build_test(prepared, failure),
            build_time,
            Verdict::Graded,
        )
        .map_err(Incomplete::from),
        Err(Unbuilt::NotTheirs(e)) => Err(Incomplete::from(e)),
        Err(Unbuilt::Interrupted(e)) => Err(Incomplete {
            verdict: Verdict::Interrupted,
            message: e,
        }),
    };
    let judge = start.elapsed();
    let error = match outcome {
        Ok(line) => {
            progress(&line);
            None
        }
        Err(Incomplete {
            verdict,
            message: e,
        }) => {
            progress(&format!("{student}: grading failed: {e}"));
            // The reports stay complete: a result that says so, marked not
            // final so that the next run regrades it.
            let what = match verdict {
                Verdict::Interrupted => "Grading was interrupted",
                _ => "The grader failed on this submission",
            };
            let test = whole_test(
                prepared.max_score(),
                "grading",
                "the grader could judge this submission",
                format!("{what} (not your fault; your teacher is told, and it is regraded): {e}"),
            );
            let _ =
                write_whole_failure(run, prepared, (student, version), test, build_time, verdict);
            Some(e)
        }
    };
    let timing = Timing {
        student: student.clone(),
        build: build_time,
        judge,
        built: built_ok,
    };
    (timing, error)
}

/// The failed "build" test: worth every point, so the student gets 0.
fn build_test(prepared: &Prepared, failure: String) -> TestResult {
    whole_test(
        prepared.max_score(),
        "build",
        "the crate meets the submission contract and compiles (try `cargo build` in its folder); nothing else can be graded otherwise",
        failure,
    )
}

/// A failed test worth every point (`max_score`), standing for the whole
/// submission: it did not build, could not be judged, or was not found.
#[must_use]
pub fn whole_test(max_score: f64, name: &str, about: &str, failure: String) -> TestResult {
    TestResult {
        name: name.into(),
        group: name.into(),
        tags: vec![name.into()],
        score: 0.0,
        max_score,
        passed: false,
        visibility: Visibility::Visible,
        about: about.into(),
        failure: Some(failure),
        moves: None,
        reproduce: None,
        printed: None,
        origin: Origin::Submission,
    }
}

/// The builder of this run, once the course's crates have built.
fn course_builder(run: &ClassRun, prepared: &Prepared) -> Result<Builder, Unbuilt> {
    let toolchain = Toolchain::find().map_err(Unbuilt::NotTheirs)?;
    let builder = Builder {
        launcher: run.launcher.clone(),
        toolchain,
        workspace: run.workspace.clone(),
        build_dir: run.build_dir.clone(),
        time_limit: Duration::from_secs(prepared.config.build_seconds),
        memory_bytes: prepared.config.build_memory_mb << 20,
        offline: prepared.config.offline,
    };
    builder.template().map_err(|e| match e {
        BuildFailure::Compile { log, .. } => {
            Unbuilt::NotTheirs(format!("the course's own crates do not build:\n{log}"))
        }
        e @ BuildFailure::Interrupted(_) => {
            Unbuilt::Interrupted(format!("the course's own crates could not be built: {e}"))
        }
        e => Unbuilt::NotTheirs(format!("the course's own crates could not be built: {e}")),
    })?;
    Ok(builder)
}

/// Vets, stages and builds one submission: the driver binary, or why the
/// build failed.
fn build_one(
    run: &ClassRun,
    builder: &Builder,
    prepared: &Prepared,
    student: &str,
    dir: &Path,
) -> Result<PathBuf, Unbuilt> {
    let slug = slug(student);
    let target = if run.reference {
        Target {
            dir: dir.to_owned(),
            package: package_name(dir).map_err(Unbuilt::NotTheirs)?,
            type_name: prepared.game.type_name.clone(),
        }
    } else {
        let vetted = vet(dir, &prepared.config.allowed_dependencies).map_err(|r| {
            Unbuilt::Student(format!("The submission was refused before building: {r}"))
        })?;
        let staged = run.build_dir.join("staged").join(&slug);
        stage(&vetted, &staged, &run.workspace)
            .map_err(|e| Unbuilt::NotTheirs(format!("staging failed: {e}")))?;
        Target {
            dir: staged,
            package: vetted.package,
            type_name: "Submission".into(),
        }
    };
    let built = builder.build(&slug, &target);
    if !run.reference {
        let _ = std::fs::remove_dir_all(&target.dir);
    }
    built.map_err(|failure| match failure {
        BuildFailure::Compile { .. } => Unbuilt::Student(failure.to_string()),
        f if f.is_the_students() => Unbuilt::Student(format!("The build failed: {f}.")),
        f @ BuildFailure::Interrupted(_) => Unbuilt::Interrupted(f.to_string()),
        f => Unbuilt::NotTheirs(f.to_string()),
    })
}

/// Why a submission has no driver.
#[derive(Clone, Debug)]
enum Unbuilt {
    /// The submission's fault: refused, does not compile, or over a limit.
    Student(String),
    /// Not the submission's fault: the course's crates do not build, or
    /// the grader failed.
    NotTheirs(String),
    /// Not the submission's fault: the build was stopped from outside (a
    /// signal the grader did not send: Ctrl-C, the OOM killer).
    Interrupted(String),
}

fn package_name(dir: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml"))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let t: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    t.get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{}: no package name", dir.display()))
}

/// Why a student has no final result: never the student's fault.
struct Incomplete {
    /// Not [`Verdict::Graded`].
    verdict: Verdict,
    /// What happened.
    message: String,
}

impl From<String> for Incomplete {
    /// The grader or the course failed.
    fn from(message: String) -> Self {
        Incomplete {
            verdict: Verdict::GraderFailed,
            message,
        }
    }
}

/// Writes the result of a submission that could not be judged test by test;
/// `verdict` says whether it is final.
fn write_whole_failure(
    run: &ClassRun,
    prepared: &Prepared,
    (student, version): (&str, &str),
    test: TestResult,
    build_time: Duration,
    verdict: Verdict,
) -> Result<String, String> {
    let mut r = SubmissionResult::new(
        student,
        &run.game,
        prepared.config.seed,
        NOT_RUN.into(),
        vec![test],
    );
    r.fixture_versions = prepared.fixture_versions(&run.fixtures_dir);
    version.clone_into(&mut r.submission_version);
    r.execution_time = build_time.as_secs_f64();
    r.verdict_by = verdict;
    r.write(&student_dir(&run.out, student))
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "{student}: 0 / {} ({} failed)",
        r.max_score, r.tests[0].name
    ))
}

/// `--name=value` as one argument: a value starting with `-` (a student
/// called `-rf`, a path) can never be read as a flag.
fn flag(name: &str, value: impl AsRef<OsStr>) -> OsString {
    let mut arg = OsString::from(name);
    arg.push("=");
    arg.push(value);
    arg
}

/// Runs `grader judge` on one built submission: its summary line, or why
/// no final result could be written.
fn judge_one(
    run: &ClassRun,
    student: &str,
    version: &str,
    binary: &Path,
    build_time: Duration,
) -> Result<String, Incomplete> {
    let mut command = Command::new(&run.grader_bin);
    command.arg("judge").args([
        flag("--driver", binary),
        flag("--game", &run.game),
        flag("--student", student),
        flag("--out", student_dir(&run.out, student)),
        flag("--fixtures", &run.fixtures_dir),
        flag("--keys", &run.keys_dir),
        flag("--config", &run.config_path),
        flag(
            "--scratch",
            run.build_dir.join("scratch").join(slug(student)),
        ),
        flag("--build-seconds", build_time.as_secs_f64().to_string()),
        flag("--submission-version", version),
    ]);
    if let Some(tag) = &run.only {
        command.arg(flag("--only", tag));
    }
    if run.after_due_date {
        command.arg("--after-due-date");
    }
    let output = command
        .output()
        .map_err(|e| format!("{}: {e}", run.grader_bin.display()))?;
    if output.status.success() {
        return Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned());
    }
    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_owned();
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&output.status) {
        return Err(Incomplete {
            verdict: Verdict::Interrupted,
            message: format!(
                "`grader judge` was stopped by signal {signal} (Ctrl-C, the OOM killer or a kill){}{stderr}",
                if stderr.is_empty() { "" } else { ": " }
            ),
        });
    }
    Err(Incomplete::from(stderr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_folder_is_a_student_and_hidden_ones_are_listed_apart() {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::env::temp_dir().join(format!("grader-class-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let odd: [&[u8]; 2] = [b"caf\xe9", b"caf\xe8"];
        for name in ["-rf", "gradebook.csv", "a b", "Zo\u{eb}", ".git"] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
        }
        for name in odd {
            std::fs::create_dir_all(dir.join(OsStr::from_bytes(name))).unwrap();
        }
        std::fs::write(dir.join("notes.txt"), "not a folder").unwrap();
        let found = list_submissions(&dir).unwrap();
        let names: Vec<&str> = found.students.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.len(), 6, "{names:?}");
        assert_eq!(&names[..3], ["-rf", "Zo\u{eb}", "a b"]);
        assert!(names[3].starts_with("caf\u{fffd}-") && names[4].starts_with("caf\u{fffd}-"));
        assert_ne!(
            names[3], names[4],
            "two names that are not UTF-8 stay apart"
        );
        assert_eq!(names[5], "gradebook.csv");
        assert_eq!(found.hidden, [".git"]);
        assert_eq!(
            student_dir(Path::new("out"), "gradebook.csv"),
            Path::new("out/students/gradebook.csv")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
