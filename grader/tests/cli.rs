//! The `grader` binary refuses broken course files with a clear message
//! (file, line, column) and a non-zero exit code, before judging anything.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn judge(fixtures: &Path) -> (bool, String) {
    judge_with(fixtures, &workspace().join("fixtures/grading.toml"))
}

fn judge_with(fixtures: &Path, config: &Path) -> (bool, String) {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-out");
    judge_into(fixtures, config, &out, &[])
}

/// `grader judge` of a driver that does not exist, results into `out`.
fn judge_into(fixtures: &Path, config: &Path, out: &Path, more: &[&str]) -> (bool, String) {
    let ws = workspace();
    let output = Command::new(env!("CARGO_BIN_EXE_grader"))
        .arg("judge")
        .args([
            "--driver",
            "/nonexistent/driver",
            "--game",
            "nim",
            "--student",
            "s",
        ])
        .arg("--out")
        .arg(out)
        .arg("--fixtures")
        .arg(fixtures)
        .arg("--keys")
        .arg(ws.join("grader/tests/snapshots"))
        .arg("--config")
        .arg(config)
        .arg("--scratch")
        .arg(out.join("scratch"))
        .args(more)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn folder(name: &str, file: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(file), text).unwrap();
    dir
}

#[test]
fn a_malformed_fixture_is_reported_with_file_line_and_column() {
    let dir = folder(
        "malformed",
        "typo.toml",
        "game = \"nim\"\nmoves = [\"1\"]\npionts = 2\n",
    );
    let (ok, stderr) = judge(&dir);
    assert!(!ok);
    assert!(
        stderr.contains("typo.toml:3:1: unknown field `pionts`"),
        "{stderr}"
    );
}

#[test]
fn a_bad_value_in_the_settings_is_reported_with_file_line_and_column_before_judging() {
    let course = std::fs::read_to_string(workspace().join("fixtures/grading.toml")).unwrap();
    let bad = course.replace("law_points = 0.5", "law_points = -0.5");
    assert_ne!(bad, course, "the course settings set law_points = 0.5");
    let dir = folder("bad-settings", "grading.toml", &bad);
    // A section names a game with a fixtures folder beside the settings.
    std::fs::create_dir_all(dir.join("nim")).unwrap();
    for game in ["connect4", "yucky-chocolate"] {
        std::fs::create_dir_all(dir.join(game)).unwrap();
    }
    let line = bad
        .lines()
        .position(|l| l.starts_with("law_points"))
        .unwrap()
        + 1;
    let (ok, stderr) = judge_with(&workspace().join("fixtures/nim"), &dir.join("grading.toml"));
    assert!(!ok);
    assert!(
        stderr.contains(&format!(
            "grading.toml:{line}:14: `law_points = -0.5`: expected a finite number of points, 0 or more"
        )),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("law_points").count(),
        1,
        "printed once: {stderr}"
    );
}

#[test]
fn a_fixture_without_an_answer_key_is_refused_with_what_to_run() {
    let dir = folder(
        "keyless",
        "brand-new.toml",
        "game = \"nim\"\nmoves = [\"1\"]\n",
    );
    let (ok, stderr) = judge(&dir);
    assert!(!ok);
    assert!(stderr.contains("no answer key for fixture"), "{stderr}");
    assert!(stderr.contains("cargo xtask keys --review"), "{stderr}");
}

#[test]
fn a_changed_fixture_makes_its_key_stale() {
    let original =
        std::fs::read_to_string(workspace().join("fixtures/nim/default-opening.toml")).unwrap();
    let dir = folder(
        "stale",
        "default-opening.toml",
        &format!("{original}\n# edited\n"),
    );
    let (ok, stderr) = judge(&dir);
    assert!(!ok);
    assert!(
        stderr.contains("was recorded from another version of"),
        "{stderr}"
    );
}

#[test]
fn a_missing_driver_fails_every_test_but_still_writes_complete_reports() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-out");
    let (ok, stderr) = judge(&workspace().join("fixtures/nim"));
    assert!(ok, "{stderr}");
    let text = std::fs::read_to_string(dir.join("results.json")).unwrap();
    let r = grader::report::SubmissionResult::from_gradescope_json(&text).unwrap();
    assert_eq!(r.score, 0.0);
    assert!(r.tests.len() > 11 && r.tests.iter().all(|t| !t.passed));
    assert!(
        r.tests[0]
            .failure
            .as_deref()
            .unwrap()
            .contains("could not be started"),
        "{:?}",
        r.tests[0]
    );
    assert!(dir.join("feedback.md").is_file());
}

/// The points policy, through the binary: the checks a student cannot see
/// count only in a run after the due date; before it, the score and the
/// maximum of `results.json` (what Gradescope shows) leave them out.
#[test]
fn checks_not_shown_count_only_after_the_due_date() {
    let fixtures = workspace().join("fixtures/nim");
    let unseen: f64 = grader::fixture::load_dir(&fixtures, "nim")
        .unwrap()
        .iter()
        .filter(|f| f.visibility != grader::fixture::Visibility::Visible)
        .map(|f| f.points)
        .sum();
    assert!(
        unseen > 0.0,
        "the Nim fixtures have a check not shown before the due date"
    );
    let config = workspace().join("fixtures/grading.toml");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-policy");
    let mut results = Vec::new();
    for (name, more) in [("before", &[][..]), ("after", &["--after-due-date"][..])] {
        let out = tmp.join(name);
        let _ = std::fs::remove_dir_all(&out);
        let (ok, stderr) = judge_into(&fixtures, &config, &out, more);
        assert!(ok, "{stderr}");
        let text = std::fs::read_to_string(out.join("results.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let r = grader::report::SubmissionResult::from_gradescope_json(&text).unwrap();
        assert_eq!(json["score"], 0.0);
        results.push((r, json["output"].as_str().unwrap().to_owned()));
    }
    let [(before, said_before), (after, said_after)] = &results[..] else {
        unreachable!()
    };
    let listed: f64 = before.tests.iter().map(|t| t.max_score).sum();
    assert_eq!(
        after.max_score, listed,
        "after the due date every check counts"
    );
    assert_eq!(
        before.max_score,
        listed - unseen,
        "before it, only the visible ones"
    );
    assert!(
        said_before.ends_with("not shown here and counted only after the due date."),
        "{said_before}"
    );
    assert!(said_after.ends_with("not shown here."), "{said_after}");
    std::fs::remove_dir_all(&tmp).unwrap();
}
