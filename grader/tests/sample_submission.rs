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

/// Runs the sample's `examples/play.rs` (its game on the course's command
/// line, through `games::main_for`) with `args` and `stdin`.
fn play_example(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sample-submission");
    let built = cargo(&["build", "--example", "play"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let mut child = Command::new(target.join("debug/examples/play"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the example runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin.as_bytes())
        .expect("stdin takes the moves");
    child.wait_with_output().expect("the example ends")
}

#[test]
fn the_sample_submissions_game_gets_the_course_command_line_from_a_three_line_example() {
    let out = play_example(&["list"], "");
    let listed = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        listed.starts_with("nim\n") && listed.contains("piles=7"),
        "{listed}"
    );
    assert!(
        !listed.contains("connect4"),
        "only the sample's own game:\n{listed}"
    );

    // Perft of one pile of 7, taking 1 or 2: 2, 4, 8 sequences of 1 to 3 moves.
    let out = play_example(&["perft", "3"], "");
    assert_eq!(
        text(&out.stdout),
        "1 2\n2 4\n3 8\n",
        "{}",
        text(&out.stderr)
    );

    // A person (stdin) against the engine on piles 1 and 1: player 1 takes
    // one stone, the engine must take the last one and loses (misère).
    let out = play_example(&["play", "piles=1,1", "--p2", "ai:depth=2"], "1:1\n");
    let shown = text(&out.stdout);
    assert!(out.status.success(), "{shown}{}", text(&out.stderr));
    assert!(shown.contains("Move 2: Player 2 played 2:1"), "{shown}");
    assert!(shown.contains("Game over: Player 1 wins."), "{shown}");

    let out = play_example(&["play", "--game", "connect4"], "");
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stderr),
        "error: unknown game `connect4`: this program plays only nim\n"
    );
}
