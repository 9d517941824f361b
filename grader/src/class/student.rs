//! One student of a class run: vetting, staging and building its driver in
//! a copy of the course's template, then `grader judge` on it, and the
//! result written whatever happens (a failure that is not the student's is
//! marked not final). [`super::grade_class`] runs this for `jobs` students
//! at once.

use super::{slug, student_dir, ClassRun, Prepared, Timing, NOT_RUN};
use crate::build::{BuildFailure, Builder, Toolchain};
use crate::fixture::Visibility;
use crate::report::{SubmissionResult, Verdict};
use crate::results::{Origin, TestResult};
use crate::submission::{stage, vet, Target};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Builds and judges one student (`builder` is the course's, or why it
/// could not be built): the timing, and why no final result was written
/// when none was.
pub(super) fn grade_student(
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
            build_test(prepared.max_score(run.after_due_date), failure),
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
                prepared.max_score(run.after_due_date),
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
fn build_test(max_score: f64, failure: String) -> TestResult {
    whole_test(
        max_score,
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
pub(super) fn course_builder(run: &ClassRun, prepared: &Prepared) -> Result<Builder, Unbuilt> {
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
pub(super) enum Unbuilt {
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
        run.after_due_date,
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
