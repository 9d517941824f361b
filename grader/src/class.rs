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

mod student;

pub use student::whole_test;
use student::{course_builder, grade_student};

use crate::config::{GameConfig, GradingConfig};
use crate::fixture::{load_dir, Fixture, FixtureError};
use crate::key::{AnswerKey, KeyError};
use crate::report::{
    gradebook_csv, remove_stale_temporaries, summary, write_atomic, SubmissionResult,
};
use crate::results::relative;
use crate::submission::{submission_version, Workspace};
use game_api::conformance::LAWS;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;
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
    /// [`Prepared::load`] for `game` of the course workspace at `root`, in
    /// the usual layout (see [`ClassRun::new`]), with every test.
    ///
    /// # Errors
    /// As [`Prepared::load`].
    pub fn of_course(root: &Path, game: &str) -> Result<Prepared, SetupError> {
        Prepared::load(
            &root.join("fixtures/grading.toml"),
            game,
            &root.join("fixtures").join(game),
            &root.join("grader/tests/snapshots"),
            None,
        )
    }

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

    /// Points available in one grading, in the checks that count (see
    /// [`Visibility::counts`]).
    #[must_use]
    pub fn max_score(&self, after_due_date: bool) -> f64 {
        let laws = if self.laws && self.config.law_visibility.counts(after_due_date) {
            self.config.law_points * LAWS.len() as f64
        } else {
            0.0
        };
        let fixtures = self.fixtures.iter().map(|(f, _)| f);
        fixtures
            .filter(|f| f.visibility.counts(after_due_date))
            .map(|f| f.points)
            .sum::<f64>()
            + laws
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

/// Takes the build folder for this run, waiting (and saying so) while
/// another run holds it.
fn wait_for_build_folder(
    run: &ClassRun,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<std::fs::File, SetupError> {
    let io = |e: std::io::Error| SetupError::Io {
        path: run.build_dir.clone(),
        message: e.to_string(),
    };
    let take = |how| crate::build::lock_file(&run.build_dir, "class.lock", how);
    match take(libc::LOCK_EX | libc::LOCK_NB) {
        Ok(lock) => Ok(lock),
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
            progress(&format!(
                "waiting for another grading run that uses {} to finish",
                run.build_dir.display()
            ));
            take(libc::LOCK_EX).map_err(io)
        }
        Err(e) => Err(io(e)),
    }
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
    // Runs sharing a build folder stage, build and judge students under
    // the same names there: they take turns.
    let _turn = wait_for_build_folder(run, progress)?;
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
                    && r.after_due_date == run.after_due_date
                    && r.fixture_versions == versions
                    && r.submission_version == version =>
            {
                skipped.push(student.clone());
            }
            Some(_) if !run.force => {
                progress(&format!(
                    "{student}: regrading (the submission, the fixtures, the seed or --after-due-date changed)"
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_folder_is_a_student_and_hidden_ones_are_listed_apart() {
        use std::ffi::OsStr;
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

    #[test]
    fn runs_sharing_a_build_folder_take_turns() {
        let ws = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let dir = std::env::temp_dir().join(format!("grader-class-turns-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut run = ClassRun::new(ws, "nim", PathBuf::new(), PathBuf::new());
        run.build_dir = dir.join("build");
        let other = crate::build::lock_file(&run.build_dir, "class.lock", libc::LOCK_EX).unwrap();
        let (said, heard) = std::sync::mpsc::channel();
        let said = Mutex::new(said);
        thread::scope(|s| {
            let waiting = s.spawn(|| {
                wait_for_build_folder(&run, &|line| {
                    said.lock().unwrap().send(line.to_owned()).unwrap();
                })
            });
            let first = heard.recv().unwrap();
            assert!(
                first.starts_with("waiting for another grading run that uses"),
                "{first}"
            );
            assert!(!waiting.is_finished(), "the other run still holds it");
            drop(other);
            let mine = waiting.join().unwrap().unwrap();
            // Now this run holds it.
            let taken = crate::build::lock_file(
                &run.build_dir,
                "class.lock",
                libc::LOCK_EX | libc::LOCK_NB,
            );
            assert_eq!(taken.unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
            drop(mine);
        });
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
