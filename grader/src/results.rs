//! The result of one test, as judged, stored and reported.
//!
//! The judge makes these, the class run makes the whole-submission ones,
//! and the reports render them: the type lives here so that none of those
//! modules has to import another.

use crate::fixture::Visibility;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where a test comes from, so a regrade can check it uses the same thing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// A fixture file, at a version.
    Fixture {
        /// The file, relative to the fixtures folder.
        file: String,
        /// Its `sha256:` version.
        version: String,
    },
    /// A conformance law.
    Law {
        /// The seed.
        seed: u64,
        /// Random cases.
        cases: u32,
    },
    /// The submission as a whole: building it (or judging it, when the
    /// grader itself failed).
    Submission,
}

/// The result of one test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    /// The test's name.
    pub name: String,
    /// Its gradebook column.
    pub group: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// Points earned.
    pub score: f64,
    /// Points available.
    pub max_score: f64,
    /// Whether it passed.
    pub passed: bool,
    /// Who sees it.
    pub visibility: Visibility,
    /// What it checks, in a sentence.
    pub about: String,
    /// On failure: what went wrong, expected and got.
    pub failure: Option<String>,
    /// On failure: the moves that lead there.
    pub moves: Option<Vec<String>>,
    /// On failure: how to reproduce it in the student's own tests.
    pub reproduce: Option<String>,
    /// On failure: the start of what the program printed.
    pub printed: Option<String>,
    /// Where it comes from.
    pub origin: Origin,
}

/// A fixture's file name as results record it: relative to its folder.
#[must_use]
pub fn relative(path: &Path, dir: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}
