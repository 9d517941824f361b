//! The Gradescope bundle, end to end: `cargo xtask gradescope` writes the
//! zip; it is unpacked into a folder standing in for `/autograder`
//! (`AUTOGRADER_ROOT`); its `build.sh` runs (Cargo's fetch offline, and
//! with `--grader`, a grader built from this workspace: neither the
//! toolchain install of `setup.sh` nor the grader's compile inside the
//! bundle is run here); then `run_autograder` grades four uploads, and each
//! `results.json` is checked against Gradescope's documented fields and
//! values (the autograder specification: top-level `score`, `output`,
//! `tests[]` with `name`, `score`, `max_score`, `status`, `output`,
//! `visibility`...).

use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{printed, workspace, xtask, TempDir};

/// The grader binary, built (release, as `cargo xtask grade` builds it)
/// from this workspace.
fn grader_bin() -> PathBuf {
    let ws = workspace();
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "grader",
            "--bin",
            "grader",
        ])
        .current_dir(&ws)
        .status()
        .unwrap();
    assert!(status.success(), "the grader did not build");
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| ws.join("target"), PathBuf::from)
        .join("release/grader")
}

const TOP_FIELDS: [&str; 11] = [
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
];
const TEST_FIELDS: [&str; 11] = [
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
];
const VISIBILITIES: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];
const FORMATS: [&str; 5] = ["text", "html", "simple_format", "md", "ansi"];
const STATUSES: [&str; 2] = ["passed", "failed"];

/// When an upload is graded: before the due date (as uploads arrive) or
/// after it (a regrade).
#[derive(Clone, Copy, PartialEq)]
enum Due {
    Before,
    After,
}

/// Checks `results.json` against Gradescope's specification and returns
/// it: only documented fields, with documented values; a score on top
/// that is the sum of the tests' that count (which the grader always
/// writes).
fn gradescope_results(root: &Path, due: Due) -> Value {
    let path = root.join("results/results.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let top = v.as_object().expect("an object");
    for key in top.keys() {
        assert!(
            TOP_FIELDS.contains(&key.as_str()),
            "undocumented field {key}"
        );
    }
    let score = v["score"].as_f64().expect("a numeric score");
    for key in ["visibility", "stdout_visibility"] {
        if let Some(x) = top.get(key) {
            assert!(VISIBILITIES.contains(&x.as_str().unwrap()), "{key}: {x}");
        }
    }
    if let Some(x) = top.get("output_format") {
        assert!(FORMATS.contains(&x.as_str().unwrap()), "output_format: {x}");
    }
    assert!(v["output"].is_string(), "an output for the student");
    let tests = v["tests"].as_array().expect("tests");
    assert!(!tests.is_empty());
    let mut sum = 0.0;
    for t in tests {
        for key in t.as_object().expect("a test object").keys() {
            assert!(
                TEST_FIELDS.contains(&key.as_str()),
                "undocumented test field {key}"
            );
        }
        let (s, max) = (
            t["score"].as_f64().unwrap(),
            t["max_score"].as_f64().unwrap(),
        );
        assert!((0.0..=max).contains(&s), "{t}");
        let status = t["status"].as_str().unwrap();
        assert!(STATUSES.contains(&status), "{t}");
        assert_eq!(status == "passed", s == max && max > 0.0, "{t}");
        assert!(
            VISIBILITIES.contains(&t["visibility"].as_str().unwrap()),
            "{t}"
        );
        assert!(
            FORMATS.contains(&t["output_format"].as_str().unwrap()),
            "{t}"
        );
        assert!(t["name"].is_string() && t["output"].is_string(), "{t}");
        if counts(t, due) {
            sum += s;
        }
    }
    assert!(
        (sum - score).abs() < 1e-9,
        "score {score} is not the sum {sum} of the tests that count"
    );
    v
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// Puts an upload in `<root>/submission` (as Gradescope does) and runs the
/// bundle's `run_autograder` from `<root>`, where Gradescope copies it.
fn grade(root: &Path, due: Due, upload: impl FnOnce(&Path)) -> Value {
    let submission = root.join("submission");
    let _ = std::fs::remove_dir_all(&submission);
    std::fs::create_dir_all(&submission).unwrap();
    upload(&submission);
    let out = Command::new(root.join("run_autograder"))
        .current_dir(root)
        .env("AUTOGRADER_ROOT", root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    gradescope_results(root, due)
}

/// Whether a test's points count in an upload's score: before the due date
/// (when Gradescope grades uploads) only the checks a student sees count
/// (the others are graded and carried, with their visibility); after it,
/// every check.
fn counts(t: &Value, due: Due) -> bool {
    due == Due::After || t["visibility"] == "visible"
}

/// The points of the tests that count.
fn total_max(v: &Value, due: Due) -> f64 {
    v["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| counts(t, due))
        .map(|t| t["max_score"].as_f64().unwrap())
        .sum()
}

#[test]
fn the_bundle_grades_a_crate_a_nested_crate_an_empty_upload_and_a_broken_crate() {
    let ws = workspace();
    // Outside the workspace, as /autograder is: Cargo reads the
    // `.cargo/config.toml` of every folder above the one it builds in, and
    // the build sandbox may not read this workspace's.
    let scratch = TempDir::new("gradescope");
    let tmp = &scratch.0;
    let zip_path = tmp.join("autograder.zip");
    xtask(
        ["gradescope", "--game", "nim", "--out"]
            .map(OsStr::new)
            .into_iter()
            .chain([zip_path.as_os_str()]),
    );

    // What Gradescope needs at the zip's root, the course with every
    // fixture (the hidden ones too) and every key of the game.
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&zip_path).unwrap()).unwrap();
    let names: Vec<String> = archive.file_names().map(str::to_owned).collect();
    for script in ["setup.sh", "run_autograder", "build.sh"] {
        let mode = archive.by_name(script).unwrap().unix_mode().unwrap();
        assert_eq!(mode & 0o777, 0o755, "{script}");
    }
    let fixtures = grader::fixture::load_dir(&ws.join("fixtures/nim"), "nim").unwrap();
    for f in &fixtures {
        let rel = f.path.strip_prefix(&ws).unwrap().to_string_lossy();
        assert!(names.contains(&format!("course/{rel}")), "{rel} is missing");
    }
    let keys = std::fs::read_dir(ws.join("grader/tests/snapshots")).unwrap();
    for key in keys.flatten() {
        let name = key.file_name().to_string_lossy().into_owned();
        if name.starts_with("answer_keys__nim__") && name.ends_with(".snap") {
            assert!(
                names.contains(&format!("course/grader/tests/snapshots/{name}")),
                "{name}"
            );
        }
    }
    assert!(
        !names
            .iter()
            .any(|n| n.contains("/target/") || n.contains("/.")),
        "no build output, no hidden file"
    );

    // Gradescope unpacks the zip into /autograder/source and copies
    // run_autograder to /autograder.
    let root = tmp.join("autograder");
    archive.extract(root.join("source")).unwrap();
    std::fs::copy(
        root.join("source/run_autograder"),
        root.join("run_autograder"),
    )
    .unwrap();

    // Grading before the build step still writes a results.json (the
    // script's last resort: no grader yet).
    let v = grade(&root, Due::Before, |_| {});
    assert_eq!(v["score"].as_f64(), Some(0.0));
    assert!(
        v["output"].as_str().unwrap().contains("not your fault"),
        "{v}"
    );

    let build = Command::new(root.join("source/build.sh"))
        .arg("--grader")
        .arg(grader_bin())
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "build.sh failed:\n{}",
        printed(&build)
    );

    // Gradescope's metadata: uploads arrive before the due date.
    let due_date = |date: &str| {
        std::fs::write(
            root.join("submission_metadata.json"),
            format!(r#"{{"id": 1, "assignment": {{"due_date": "{date}", "late_due_date": null}}, "users": []}}"#),
        )
        .unwrap();
    };
    due_date("2100-01-01T00:00:00.000000-07:00");
    let sample = ws.join("grader/sample-submission");
    let hidden = fixtures
        .iter()
        .filter(|f| f.visibility != grader::fixture::Visibility::Visible)
        .count();
    assert!(
        hidden > 0,
        "nim has a fixture students do not see, to carry"
    );
    for (kind, v) in [
        (
            "a crate",
            grade(&root, Due::Before, |s| copy_tree(&sample, s)),
        ),
        (
            "a crate in a nested folder, beside other folders",
            grade(&root, Due::Before, |s| {
                copy_tree(&sample, &s.join("homework/my-nim"));
                std::fs::create_dir_all(s.join("notes")).unwrap();
                std::fs::write(s.join("notes/todo.txt"), "nothing").unwrap();
            }),
        ),
    ] {
        let max = total_max(&v, Due::Before);
        assert!(max > 0.0);
        assert_eq!(v["score"].as_f64(), Some(max), "{kind}: full marks: {v}");
        let tests = v["tests"].as_array().unwrap();
        let hidden_tests = tests.iter().filter(|t| !counts(t, Due::Before)).count();
        assert_eq!(
            hidden_tests, hidden,
            "{kind}: the fixtures students do not see are graded"
        );
    }

    // "Regrade all submissions" after the due date: every check counts.
    due_date("2000-01-01T00:00:00.000000-07:00");
    let v = grade(&root, Due::After, |s| copy_tree(&sample, s));
    let all = total_max(&v, Due::After);
    assert!(
        all > total_max(&v, Due::Before),
        "the unseen checks carry points: {v}"
    );
    assert_eq!(v["score"].as_f64(), Some(all), "after the due date: {v}");
    due_date("2100-01-01T00:00:00.000000-07:00");

    let v = grade(&root, Due::Before, |_| {});
    assert_eq!(v["score"].as_f64(), Some(0.0));
    let test = &v["tests"][0];
    assert_eq!(
        (&test["name"], &test["status"]),
        (&"upload".into(), &"failed".into())
    );
    let message = test["output"].as_str().unwrap();
    assert!(
        message.contains("No crate found") && message.contains("empty"),
        "{message}"
    );
    assert!(
        total_max(&v, Due::Before) > 0.0,
        "the points the upload could have earned"
    );

    let v = grade(&root, Due::Before, |s| {
        copy_tree(&sample, s);
        let lib = s.join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).unwrap() + "\nfn broken( {\n";
        std::fs::write(lib, text).unwrap();
    });
    assert_eq!(v["score"].as_f64(), Some(0.0));
    let test = &v["tests"][0];
    assert_eq!(
        (&test["name"], &test["status"]),
        (&"build".into(), &"failed".into())
    );
    let message = test["output"].as_str().unwrap();
    assert!(
        message.contains("does not compile") && message.contains("src/lib.rs"),
        "{message}"
    );
}
