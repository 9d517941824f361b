//! Helpers shared by the binary's tests.

#![allow(dead_code)] // each test file uses some of the helpers

use assert_cmd::Command;
use std::path::PathBuf;

/// The `games` binary, with colour settings cleared.
pub fn games() -> Command {
    let mut cmd = Command::cargo_bin("games").unwrap();
    cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    cmd
}

/// A fresh, empty scratch directory for one test, in the folder Cargo keeps
/// for integration tests' files (under `target/`, not the system's temp).
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("games-cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
