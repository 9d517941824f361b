//! Judging one built submission: every fixture and every conformance law,
//! each in a fresh driver process, each with its own time limit.
//!
//! A test's failure (a wrong answer, a panic, a crash, a timeout) never
//! affects the other tests: the next test starts a new process.

use crate::config::{GameConfig, GradingConfig};
use crate::fixture::Fixture;
use crate::key::{walk, AnswerKey};
use crate::protocol::{Request, Response};
use crate::results::{relative, Origin, TestResult};
use crate::sandbox::Driver;
use game_api::conformance::LAWS;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// What a judge needs besides the driver binary.
pub struct Judge<'a> {
    /// The settings.
    pub config: &'a GradingConfig,
    /// The game's settings.
    pub game: &'a GameConfig,
    /// The fixtures (already filtered by tag) with their keys.
    pub fixtures: &'a [(Fixture, AnswerKey)],
    /// The fixtures folder (fixture files are recorded relative to it).
    pub fixtures_dir: &'a Path,
    /// Whether to run the laws (false when `--only` names a tag no law has).
    pub laws: bool,
    /// Parent folder of the scratch directories.
    pub scratch: &'a Path,
}

/// What one judged submission got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// One result per test.
    pub tests: Vec<TestResult>,
    /// How the driver's sandbox stood (Landlock).
    pub sandbox: String,
}

impl Judge<'_> {
    /// Runs every fixture and law against `driver`.
    #[must_use]
    pub fn run(&self, driver: &Path) -> Judged {
        let mut sandbox = String::from("unknown (no test started a process)");
        let mut tests = Vec::new();
        for (i, (fixture, key)) in self.fixtures.iter().enumerate() {
            tests.push(self.fixture(driver, i, fixture, key, &mut sandbox));
        }
        if self.laws {
            for (i, law) in LAWS.iter().enumerate() {
                tests.push(self.law(driver, self.fixtures.len() + i, law, &mut sandbox));
            }
        }
        Judged { tests, sandbox }
    }

    fn start(
        &self,
        driver: &Path,
        index: usize,
        limit_ms: u64,
        sandbox: &mut String,
    ) -> Result<Driver, String> {
        let scratch = self.scratch.join(format!("test-{index}"));
        let _ = std::fs::remove_dir_all(&scratch);
        let d = Driver::start(
            driver,
            &scratch,
            self.config.limits(),
            Duration::from_millis(limit_ms),
        )
        .map_err(|f| f.to_string())?;
        d.hello().landlock.clone_into(sandbox);
        Ok(d)
    }

    fn fixture(
        &self,
        driver: &Path,
        index: usize,
        f: &Fixture,
        key: &AnswerKey,
        sandbox: &mut String,
    ) -> TestResult {
        let file = relative(&f.path, self.fixtures_dir);
        let mut result = TestResult {
            name: f.name.clone(),
            group: f.group.clone(),
            tags: f.tags.clone(),
            score: 0.0,
            max_score: f.points,
            passed: false,
            visibility: f.visibility,
            about: f.description.clone().unwrap_or_else(|| describe(f)),
            failure: None,
            moves: None,
            reproduce: None,
            printed: None,
            origin: Origin::Fixture {
                file,
                version: f.version.clone(),
            },
        };
        let mut d = match self.start(driver, index, self.config.time_limit_ms, sandbox) {
            Ok(d) => d,
            Err(e) => {
                result.failure = Some(e);
                return result;
            }
        };
        match walk(f, &mut d, |n, _, o| key.compare(n, o), |_, _, _| {}) {
            Ok(()) => {
                result.passed = true;
                result.score = f.points;
            }
            Err(departure) => {
                let mut reproduce = reproduce_fixture(f, &departure.moves);
                if let Some(probe) = &departure.probe {
                    reproduce = format!("{reproduce}\n{probe}");
                }
                result.reproduce = Some(reproduce);
                result.moves = Some(departure.moves);
                result.failure = Some(departure.message);
                result.printed = printed(&d.finish());
            }
        }
        result
    }

    fn law(&self, driver: &Path, index: usize, law: &str, sandbox: &mut String) -> TestResult {
        let (seed, cases) = (self.config.seed, self.config.law_cases);
        let mut result = TestResult {
            name: format!("law: {law}"),
            group: "laws".into(),
            tags: vec!["laws".into()],
            score: 0.0,
            max_score: self.config.law_points,
            passed: false,
            visibility: self.config.law_visibility,
            about: format!("the conformance kit's law `{law}`, on {cases} random games"),
            failure: None,
            moves: None,
            reproduce: Some(format!(
                "let verdict = game_api::conformance::check_law(&game, \"{law}\", \
                 &game_api::conformance::KitConfig {{ cases: {cases}, seed: {seed} }});\n\
                 assert!(verdict.passed(), \"{{:?}}\", verdict.failure);"
            )),
            printed: None,
            origin: Origin::Law { seed, cases },
        };
        let outcome = self
            .start(driver, index, self.config.law_time_limit_ms, sandbox)
            .and_then(|mut d| {
                let options = self.game.law_options.clone();
                let verdict = match d.call(&Request::New { options }) {
                    Ok(Response::Ready { .. }) => d.call(&Request::Law {
                        name: law.to_owned(),
                        seed,
                        cases,
                    }),
                    other => other,
                };
                let failure = match verdict {
                    Ok(Response::Law { failure }) => failure,
                    Ok(Response::OptionsRefused { message }) => Some(format!(
                        "from_options refused `{}`: {message}",
                        self.game.law_options
                    )),
                    Ok(other) => Some(format!("an unexpected reply: {other:?}")),
                    Err(f) => Some(f.to_string()),
                };
                result.printed = failure.as_ref().and_then(|_| printed(&d.finish()));
                failure.map_or(Ok(()), Err)
            });
        match outcome {
            Ok(()) => {
                result.passed = true;
                result.score = result.max_score;
                result.reproduce = None;
            }
            Err(e) => result.failure = Some(e),
        }
        result
    }
}

/// The default one-line description of a fixture.
fn describe(f: &Fixture) -> String {
    let mut parts = vec![format!(
        "replays {} moves, checking the status and legal moves after each",
        f.moves.len()
    )];
    if !f.nonsense.is_empty() {
        parts.push("nonsense input is rejected".into());
    }
    if !f.illegal.is_empty() {
        parts.push("illegal moves are refused".into());
    }
    if !f.ai.is_empty() {
        parts.push("minimax finds the right move".into());
    }
    parts.join("; ")
}

fn reproduce_fixture(f: &Fixture, moves: &[String]) -> String {
    let options: Vec<String> = f
        .options
        .iter()
        .map(|(k, v)| format!("\"{k}={v}\""))
        .collect();
    let options = if options.is_empty() {
        "Options::new()".to_owned()
    } else {
        format!("Options::parse_args([{}]).unwrap()", options.join(", "))
    };
    let moves: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    format!(
        "use game_api::{{Configurable, Game, Options}};\n\
         let game = your_crate::Submission::from_options(&{options}).unwrap();\n\
         let states = game_api::replay(&game, &[{}] as &[&str]).unwrap();\n\
         let state = states.last().unwrap();\n\
         println!(\"{{:?}} {{:?}}\", game.game_status(state), game.legal_moves(state));",
        moves.join(", ")
    )
}

/// The first lines the program printed, if any, without the thread ids
/// Rust's messages carry (`thread 'main' (1234)`), so a regrade prints the same.
fn printed(stderr: &str) -> Option<String> {
    let lines: Vec<String> = stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(12)
        .map(|l| match l.split_once("' (") {
            Some((head, tail)) if head.contains("thread '") => {
                let digits = tail
                    .find(')')
                    .filter(|&i| i > 0 && tail[..i].bytes().all(|b| b.is_ascii_digit()));
                digits.map_or_else(|| l.to_owned(), |i| format!("{head}'{}", &tail[i + 1..]))
            }
            _ => l.to_owned(),
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::printed;

    #[test]
    fn printed_output_drops_thread_ids_and_blank_lines() {
        let stderr = "\nthread 'main' (27546) has overflowed its stack\nfatal runtime error: stack overflow\n";
        assert_eq!(
            printed(stderr).unwrap(),
            "thread 'main' has overflowed its stack\nfatal runtime error: stack overflow"
        );
        assert_eq!(printed("x = 'a' (b)").unwrap(), "x = 'a' (b)");
        assert_eq!(printed("\n\n"), None);
    }
}
