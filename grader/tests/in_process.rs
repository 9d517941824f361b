//! The judge in-process, the local check's path (`grader::local::judge`):
//! every reference game passes every check of the course (hidden ones
//! included) when its own type is judged in this process, through the same
//! `Judge` the grader runs on a sandboxed driver.

mod common;

use common::workspace;
use game_api::{Configurable, Game};
use grader::config::GradingConfig;
use grader::fixture::Visibility;
use grader::results::TestResult;
use registry::{visit, Visitor};

struct JudgeInProcess;

impl Visitor for JudgeInProcess {
    type Output = Vec<TestResult>;
    fn visit<G: Game + Configurable>(self) -> Vec<TestResult> {
        let ws = workspace();
        grader::local::judge::<G>(
            &ws.join("fixtures/grading.toml"),
            &ws.join("fixtures"),
            &ws.join("grader/tests/snapshots"),
            None,
        )
        .unwrap()
        .tests
    }
}

#[test]
fn every_reference_game_passes_every_check_hidden_ones_included_when_judged_in_process() {
    let config = GradingConfig::load(&workspace().join("fixtures/grading.toml")).unwrap();
    let mut unseen = 0;
    for game in config.games.keys() {
        let tests = visit(game, JudgeInProcess).unwrap();
        assert!(
            tests.iter().any(|t| t.name.starts_with("law: ")),
            "{game}: no law ran"
        );
        let failed: Vec<String> = tests
            .iter()
            .filter(|t| !t.passed)
            .map(|t| format!("{}: {:?}", t.name, t.failure))
            .collect();
        assert!(failed.is_empty(), "{game}: {failed:#?}");
        unseen += tests
            .iter()
            .filter(|t| t.visibility != Visibility::Visible)
            .count();
    }
    assert!(
        unseen > 0,
        "the course has hidden checks, and they were judged"
    );
}
