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
    let ws = workspace();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-out");
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
        .arg(&out)
        .arg("--fixtures")
        .arg(fixtures)
        .arg("--keys")
        .arg(ws.join("grader/tests/snapshots"))
        .arg("--config")
        .arg(config)
        .arg("--scratch")
        .arg(out.join("scratch"))
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
    assert!(stderr.contains("cargo insta review"), "{stderr}");
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
