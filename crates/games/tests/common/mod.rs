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

/// A fresh, empty scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("games-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
