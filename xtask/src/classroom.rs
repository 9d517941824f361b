//! `cargo xtask classroom`: the GitHub Actions workflow that GitHub
//! Classroom's autograding reads, so a course on GitHub Classroom needs no
//! YAML of its own.
//!
//! It follows GitHub Classroom's own conventions: a grading step through
//! the `classroom-resources/autograding-command-grader` action (its
//! `test-name`, `setup-command`, `command`, `timeout` and `max-score`
//! inputs; the step passes when the command exits 0, and its `result`
//! output carries the points), then
//! `classroom-resources/autograding-grading-reporter`, which reads each
//! grading step's result from the `<STEP-ID>_RESULTS` variable of the
//! steps named in `runners` and reports the total to Classroom.
//!
//! [`workflow`] returns the file's text, so that the handout carries the
//! same file with its own commands ([`handout_commands`]).

use anyhow::Result;
use std::path::Path;

/// The id of the grading step (and so the reporter's runner).
pub const STEP_ID: &str = "public-checks";

/// What the workflow runs: a setup (not timed against the check), then
/// the check, which passes on exit code 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commands {
    /// Builds what the check needs.
    pub setup: String,
    /// The check.
    pub check: String,
}

/// The commands in the course's repository: the grader built, then the
/// repository's own crate through it, which must score full marks.
#[must_use]
pub fn course_commands(game: &str) -> Commands {
    Commands {
        setup: "cargo build --release --locked -p grader --bin grader".into(),
        check: format!("cargo xtask grade --reference --game {game}"),
    }
}

/// The commands in a student's repository made from the handout: its
/// workspace built, then the local check (`cargo xtask check`), which
/// passes when every public check does.
#[must_use]
pub fn handout_commands() -> Commands {
    Commands {
        setup: "cargo build --locked --workspace".into(),
        check: "cargo xtask check".into(),
    }
}

/// The public points of `game`'s grading: its visible fixtures, and the laws
/// when they are visible. Whole points only (the command grader reads
/// `max-score` as an integer), rounded down.
///
/// # Errors
/// A broken course (settings, fixtures, keys), or an unknown game.
pub fn public_points(ws: &Path, game: &str) -> Result<u32> {
    let prepared = grader::class::Prepared::of_course(ws, game)?;
    // The points a student sees before the due date. Points are small,
    // finite and not negative (grading.toml is checked).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(prepared.max_score(false).floor() as u32)
}

/// The text of `.github/workflows/classroom.yml` for `game`: on every push
/// (or by hand), check out the repository, run the setup, then the check
/// (passes on exit code 0, worth `max_score` points), and report to GitHub
/// Classroom.
#[must_use]
pub fn workflow(game: &str, commands: &Commands, max_score: u32) -> String {
    let Commands { setup, check } = commands;
    let upper = STEP_ID.to_uppercase();
    format!(
        "\
# GitHub Classroom autograding for {game}: on every push, the public checks
# run and the score is reported to GitHub Classroom.
# Written by `cargo xtask classroom` or `cargo xtask handout`: write it again rather than edit it.
name: Autograding Tests
on:
  - push
  - workflow_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Public checks
        id: {STEP_ID}
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: public checks ({game})
          setup-command: {setup}
          command: {check}
          timeout: 30
          max-score: {max_score}
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          {upper}_RESULTS: \"${{{{steps.{STEP_ID}.outputs.result}}}}\"
        with:
          runners: {STEP_ID}
"
    )
}
