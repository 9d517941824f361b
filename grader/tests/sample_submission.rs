//! The sample submission's own tests, run as a student runs them: the
//! sample is a crate of its own (outside this workspace), so the workspace
//! suite runs `cargo test` in it here, offline and from its lockfile.
//! Snapshots are never written (`INSTA_UPDATE=no`): a transcript that
//! differs from the committed one fails.

mod common;

use common::workspace;
use std::path::PathBuf;
use std::process::{Command, Output};

/// `cargo <args>` in the sample submission, with a target folder of its own.
fn cargo(args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sample-submission");
    Command::new(cargo)
        .args(args)
        .arg("--offline")
        .arg("--locked")
        .arg(format!("--target-dir={}", target.display()))
        .current_dir(workspace().join("grader/sample-submission"))
        .env("INSTA_UPDATE", "no")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_sample_submissions_own_tests_pass_with_their_committed_transcript_snapshot() {
    let out = cargo(&["test"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for test in [
        "tests::obeys_the_laws_of_the_interface ... ok",
        "three_piles_played_to_the_end ... ok",
        "a_move_that_is_not_legal_is_named ... ok",
    ] {
        assert!(stdout.contains(test), "{test} did not run:\n{stdout}");
    }
}
