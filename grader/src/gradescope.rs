//! Grading one Gradescope upload, whatever its shape, into the one
//! `results.json` Gradescope reads.
//!
//! Gradescope runs the bundle's `run_autograder` in a fresh container for
//! every upload, with the upload in `<root>/submission` (`root` is
//! `/autograder` there). A student may upload the crate itself, the crate
//! inside a folder, a folder holding the crate beside other folders, or
//! nothing usable at all; [`find_crate`] finds the crate (the shallowest
//! folder holding a `Cargo.toml` with a `[package]`), and [`grade_upload`]
//! grades it with the class run of [`crate::class`] (one student), so
//! Gradescope's grades are exactly `cargo xtask grade`'s.
//!
//! [`grade_upload`] always returns a `results.json`: when no crate is found,
//! the student reads why (and what the upload held); when the course's own
//! files are broken, the student reads that it is not their fault. The
//! bundle's `run_autograder` script adds the last resort, for a grader that
//! could not even start.

use crate::class::{grade_class, whole_test, ClassRun, Prepared};
use crate::report::{SubmissionResult, Verdict};
use game_api::echo;
use std::path::{Path, PathBuf};

/// How deep below the upload a crate is looked for.
const MAX_DEPTH: usize = 4;

/// Folders never searched: version control, build output, macOS archive
/// leftovers (hidden folders, starting with `.`, are skipped too).
const SKIPPED: [&str; 3] = ["target", "__MACOSX", "node_modules"];

/// What an upload holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Upload {
    /// One crate, the shallowest: grade it.
    Crate(PathBuf),
    /// No crate at all; the names at the top of the upload (sorted, for the
    /// message).
    NoCrate(Vec<String>),
    /// Several crates at the same, shallowest depth: which one is meant is
    /// the student's to say.
    Several(Vec<PathBuf>),
}

/// Finds the crate in an upload: the folder holding a `Cargo.toml` with a
/// `[package]` table (a manifest that is not TOML counts too, so that its
/// error reaches the student), the shallowest one, at most [`MAX_DEPTH`]
/// folders down, never through a hidden folder, `target` or a symbolic link.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("find-crate-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("upload/my-nim/src")).unwrap();
/// std::fs::write(dir.join("upload/my-nim/Cargo.toml"), "[package]\nname = \"my-nim\"\n").unwrap();
/// std::fs::create_dir_all(dir.join("upload/notes")).unwrap();
/// assert_eq!(
///     grader::gradescope::find_crate(&dir.join("upload")),
///     grader::gradescope::Upload::Crate(dir.join("upload/my-nim"))
/// );
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[must_use]
pub fn find_crate(upload: &Path) -> Upload {
    let mut level = vec![upload.to_owned()];
    for _ in 0..=MAX_DEPTH {
        let found: Vec<PathBuf> = level.iter().filter(|d| is_crate(d)).cloned().collect();
        match found.len() {
            0 => {}
            1 => return Upload::Crate(found.into_iter().next().expect("one")),
            _ => return Upload::Several(found),
        }
        level = level.iter().flat_map(|d| subfolders(d)).collect();
        level.sort();
    }
    let mut names: Vec<String> = std::fs::read_dir(upload)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Upload::NoCrate(names)
}

fn is_crate(dir: &Path) -> bool {
    let manifest = dir.join("Cargo.toml");
    let plain = std::fs::symlink_metadata(&manifest).is_ok_and(|m| m.is_file());
    plain
        && std::fs::read_to_string(&manifest).map_or(true, |text| {
            text.parse::<toml::Table>()
                .map_or(true, |t| t.contains_key("package"))
        })
}

fn subfolders(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && !SKIPPED.contains(&name.as_ref())
        })
        .map(|e| e.path())
        .collect()
}

/// One Gradescope grading: the course, the game, where the upload is.
#[derive(Clone, Debug)]
pub struct Autograder {
    /// The course workspace, as the bundle unpacks it.
    pub course: PathBuf,
    /// The game graded.
    pub game: String,
    /// Gradescope's root (`/autograder`): the upload is in `submission/`.
    pub root: PathBuf,
    /// The `grader` binary (judge and sandbox launcher).
    pub grader_bin: PathBuf,
}

impl Autograder {
    /// The class run of one submission folder (or of the reference crate):
    /// the course's usual layout, results under the course's
    /// `target/gradescope/`, always regraded.
    #[must_use]
    pub fn class_run(&self, submission: PathBuf) -> ClassRun {
        let mut run = ClassRun::new(
            &self.course,
            &self.game,
            submission,
            self.grader_bin.clone(),
        );
        run.out = self.course.join("target/gradescope").join(&self.game);
        run.force = true;
        run.jobs = 1;
        run
    }

    /// Whether this grading comes after the due date ([`due_date_passed`]
    /// now, by the grader's clock); without readable metadata, not (so an
    /// unseen check never counts by mistake), and the log says why.
    fn after_due_date(&self, progress: &(dyn Fn(&str) + Sync)) -> bool {
        let path = self.root.join(METADATA);
        let passed = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| due_date_passed(&text, jiff::Timestamp::now()));
        match passed {
            Ok(passed) => {
                progress(if passed {
                    "after the due date: checks students cannot see count"
                } else {
                    "before the due date: checks students cannot see do not count"
                });
                passed
            }
            Err(e) => {
                progress(&format!(
                    "{}: {e}; graded as before the due date (checks students cannot see do not count)",
                    path.display()
                ));
                false
            }
        }
    }
}

/// The file where Gradescope says, among other things, the assignment's due
/// date (`<root>/submission_metadata.json`).
pub const METADATA: &str = "submission_metadata.json";

/// Whether the due date has passed at `now`, by Gradescope's submission
/// metadata (the text of [`METADATA`]): the assignment's `due_date`, or the
/// latest of the students' own (`users[].assignment.due_date`, an
/// extension) when the metadata has them. No due date (`null`) never passes.
///
/// This is the course's policy for checks students cannot see: they count
/// only after the due date (see [`crate::fixture::Visibility::counts`]). On
/// Gradescope every upload is graded as it arrives, before the due date, so
/// unseen checks do not count then; regrading the submissions after the due
/// date ("Regrade all submissions") counts them.
///
/// ```
/// let metadata = r#"{"assignment": {"due_date": "2018-07-31T23:00:00.000000-07:00"}}"#;
/// let before = "2018-07-31T23:59:59Z".parse().unwrap();
/// let after = "2018-08-01T06:00:01Z".parse().unwrap();
/// assert!(!grader::gradescope::due_date_passed(metadata, before).unwrap());
/// assert!(grader::gradescope::due_date_passed(metadata, after).unwrap());
/// ```
///
/// # Errors
/// A message saying what is wrong with the metadata (not JSON, a due date
/// that is not an RFC 3339 time, a field of the wrong kind).
pub fn due_date_passed(metadata: &str, now: jiff::Timestamp) -> Result<bool, String> {
    let json: serde_json::Value =
        serde_json::from_str(metadata).map_err(|e| format!("not JSON: {e}"))?;
    let date = |at: &str, v: &serde_json::Value| match v {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(text) => text
            .parse::<jiff::Timestamp>()
            .map(Some)
            .map_err(|e| format!("{at} is `{}`, not a time: {e}", echo(text))),
        _ => Err(format!("{at} is not a time nor null")),
    };
    let mut due = date(
        "assignment.due_date",
        json.pointer("/assignment/due_date")
            .ok_or("no assignment.due_date")?,
    )?;
    if let Some(users) = json.get("users").and_then(serde_json::Value::as_array) {
        for user in users {
            if let Some(own) = user.pointer("/assignment/due_date") {
                due = due.max(date("users[].assignment.due_date", own)?);
            }
        }
    }
    Ok(due.is_some_and(|due| now > due))
}

/// Grades the upload in `<root>/submission` and returns the text of
/// Gradescope's `results.json`, whatever happens: a crate is graded as
/// `cargo xtask grade` would; an upload without exactly one crate, or a
/// course whose own files are broken, gets a result saying so in words
/// (with 0 points).
#[must_use]
pub fn grade_upload(ag: &Autograder, progress: &(dyn Fn(&str) + Sync)) -> String {
    let prepared = Prepared::of_course(&ag.course, &ag.game);
    let after_due_date = ag.after_due_date(progress);
    let (seed, max_score) = prepared
        .as_ref()
        .map_or((0, 0.0), |p| (p.config.seed, p.max_score(after_due_date)));
    let failure = |name: &str, about: &str, message: String, verdict: Verdict| {
        let test = whole_test(max_score, name, about, message);
        let mut r = SubmissionResult::new(
            "submission",
            &ag.game,
            seed,
            "not run".into(),
            vec![test],
            after_due_date,
        );
        r.verdict_by = verdict;
        r.gradescope_json()
    };
    let not_yours = |e: String| {
        failure(
            "grading",
            "the grader could judge this submission",
            format!("The autograder failed (not your fault; please tell your instructor): {e}"),
            Verdict::GraderFailed,
        )
    };
    if let Err(e) = &prepared {
        return not_yours(format!("the course's files are broken: {e}"));
    }
    let upload = ag.root.join("submission");
    let about = "the upload holds one crate: a folder with Cargo.toml and src/lib.rs";
    let dir = match find_crate(&upload) {
        Upload::Crate(dir) => dir,
        Upload::NoCrate(names) => {
            let held = if names.is_empty() {
                "Your upload is empty.".to_owned()
            } else {
                let shown: Vec<String> = names.iter().take(20).map(|n| echo(n)).collect();
                format!(
                    "Your upload holds: {}{}.",
                    shown.join(", "),
                    if names.len() > 20 { ", ..." } else { "" }
                )
            };
            return failure(
                "upload",
                about,
                format!(
                    "No crate found: no folder of your upload (up to {MAX_DEPTH} folders down) has a Cargo.toml with a [package]. {held} Upload your crate's folder (Cargo.toml and src/), or the files in it."
                ),
                Verdict::Graded,
            );
        }
        Upload::Several(dirs) => {
            let shown: Vec<String> = dirs
                .iter()
                .map(|d| echo(&relative_to(d, &upload)))
                .collect();
            return failure(
                "upload",
                about,
                format!(
                    "Several crates found at the same depth: {}. Upload only the crate to grade.",
                    shown.join(", ")
                ),
                Verdict::Graded,
            );
        }
    };
    progress(&format!("grading the crate in {}", dir.display()));
    let mut run = ag.class_run(dir);
    run.after_due_date = after_due_date;
    match grade_class(&run, progress) {
        Ok(report) => match report.results.into_iter().next() {
            Some(r) => r.gradescope_json(),
            None => not_yours("the class run returned no result".into()),
        },
        Err(e) => not_yours(e.to_string()),
    }
}

/// `dir` below `base`, `.` for `base` itself.
fn relative_to(dir: &Path, base: &Path) -> String {
    match dir.strip_prefix(base) {
        Ok(p) if p.as_os_str().is_empty() => ".".into(),
        Ok(p) => p.to_string_lossy().into_owned(),
        Err(_) => dir.to_string_lossy().into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(time: &str) -> jiff::Timestamp {
        time.parse().unwrap()
    }

    #[test]
    fn unseen_checks_count_once_the_latest_due_date_has_passed() {
        // Gradescope's documented example: due 23:00 at UTC-7, 06:00 UTC.
        let documented = r#"{"id": 123456, "created_at": "2018-07-01T14:22:32.365935-07:00",
            "assignment": {"due_date": "2018-07-31T23:00:00.000000-07:00", "late_due_date": null},
            "users": [{"email": "student@example.com", "id": 1234, "name": "Student User"}]}"#;
        assert!(!due_date_passed(documented, at("2018-08-01T05:59:59Z")).unwrap());
        assert!(!due_date_passed(documented, at("2018-08-01T06:00:00Z")).unwrap());
        assert!(due_date_passed(documented, at("2018-08-01T06:00:01Z")).unwrap());

        let no_due_date = r#"{"assignment": {"due_date": null}}"#;
        assert!(!due_date_passed(no_due_date, at("2100-01-01T00:00:00Z")).unwrap());

        // A student's extension moves the date for their upload.
        let extended = r#"{"assignment": {"due_date": "2018-07-31T23:00:00-07:00"},
            "users": [{"id": 1, "assignment": {"due_date": "2018-08-07T23:00:00-07:00"}}]}"#;
        assert!(!due_date_passed(extended, at("2018-08-02T00:00:00Z")).unwrap());
        assert!(due_date_passed(extended, at("2018-08-09T00:00:00Z")).unwrap());
    }

    #[test]
    fn metadata_that_cannot_be_read_says_what_is_wrong() {
        let now = at("2020-01-01T00:00:00Z");
        let e = due_date_passed("{", now).unwrap_err();
        assert!(e.starts_with("not JSON"), "{e}");
        let e = due_date_passed(r#"{"assignment": {}}"#, now).unwrap_err();
        assert_eq!(e, "no assignment.due_date");
        let e = due_date_passed(
            r#"{"assignment": {"due_date": "next \u001b[31mweek"}}"#,
            now,
        )
        .unwrap_err();
        assert!(
            e.starts_with("assignment.due_date is `next \\u{1b}[31mweek`, not a time"),
            "{e}"
        );
        let e = due_date_passed(r#"{"assignment": {"due_date": 3}}"#, now).unwrap_err();
        assert_eq!(e, "assignment.due_date is not a time nor null");
    }

    fn upload(name: &str, files: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grader-gs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for file in files {
            let p = dir.join(file);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let text = if file.ends_with("Cargo.toml") {
                "[package]\nname = \"x\"\n"
            } else {
                ""
            };
            std::fs::write(p, text).unwrap();
        }
        dir
    }

    #[test]
    fn the_shallowest_crate_is_found_whatever_the_upload_looks_like() {
        let top = upload(
            "top",
            &["Cargo.toml", "src/lib.rs", "tests/helper/Cargo.toml"],
        );
        assert_eq!(find_crate(&top), Upload::Crate(top.clone()));
        let nested = upload(
            "nested",
            &[
                "notes/readme.txt",
                "hw/my-nim/Cargo.toml",
                ".git/x/Cargo.toml",
                "target/a/Cargo.toml",
            ],
        );
        assert_eq!(find_crate(&nested), Upload::Crate(nested.join("hw/my-nim")));
        let several = upload(
            "several",
            &["a/Cargo.toml", "b/Cargo.toml", "c/d/Cargo.toml"],
        );
        assert_eq!(
            find_crate(&several),
            Upload::Several(vec![several.join("a"), several.join("b")])
        );
        let none = upload("none", &["lib.rs", "notes/x.txt"]);
        assert_eq!(
            find_crate(&none),
            Upload::NoCrate(vec!["lib.rs".into(), "notes".into()])
        );
        // A workspace manifest is not a crate; its member is.
        let ws = upload("ws", &["member/Cargo.toml"]);
        std::fs::write(
            ws.join("Cargo.toml"),
            "[workspace]\nmembers = [\"member\"]\n",
        )
        .unwrap();
        assert_eq!(find_crate(&ws), Upload::Crate(ws.join("member")));
        for d in [top, nested, several, none, ws] {
            std::fs::remove_dir_all(d).unwrap();
        }
    }
}
