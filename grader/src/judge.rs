//! Judging one built submission: every fixture and every conformance law,
//! each in a fresh driver process, each with its own time limit.
//!
//! Every verdict is computed here, in the grader: the fixture walk, the
//! course's minimax and the laws of `game-api` run on a
//! [`RemoteGame`](crate::remote::RemoteGame) whose methods ask the driver.
//! A test's failure (a wrong answer, a panic, a crash, a timeout) never
//! affects the other tests: the next test starts a new process.

use crate::config::{GameConfig, GradingConfig};
use crate::fixture::{Fixture, Visibility};
use crate::key::{options_refused, walk, AnswerKey};
use crate::remote::{NotBuilt, RemoteGame};
use crate::results::{relative, Origin, TestResult};
use crate::sandbox::{Driver, Sandbox};
use game_api::conformance::{check_law, KitConfig, LAWS};
use game_api::Options;
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
    /// The launcher of the sandbox (the `grader` binary).
    pub launcher: &'a Path,
}

/// What one judged submission got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// One result per test.
    pub tests: Vec<TestResult>,
    /// How the driver's sandbox stood: `fully enforced`, or what did not hold.
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

    /// Starts a driver in a fresh scratch directory and builds its game.
    fn start(
        &self,
        driver: &Path,
        scratch: &str,
        limit_ms: u64,
        options: &Options,
        sandbox: &mut String,
    ) -> Result<RemoteGame, (NotBuilt, Option<Box<Driver>>)> {
        let d = Driver::start(
            &Sandbox {
                launcher: self.launcher.to_owned(),
                limits: self.config.limits(),
            },
            driver,
            &self.scratch.join(scratch),
            Duration::from_millis(limit_ms),
        )
        .map_err(|f| (NotBuilt::Failed(f), None))?;
        let weak = d.report().weaknesses();
        *sandbox = if weak.is_empty() {
            "fully enforced".to_owned()
        } else {
            weak.join("; ")
        };
        RemoteGame::new(d, options).map_err(|(why, d)| (why, Some(d)))
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
        let started = self.start(
            driver,
            &format!("test-{index}"),
            self.config.time_limit_ms,
            &f.options,
            sandbox,
        );
        let (departure, printed) = match started {
            Ok(game) => match walk(f, &game, |n, _, o| key.compare(n, o), |_, _, _| {}) {
                Ok(()) => (None, None),
                Err(d) => (Some(d), printed(&game.finish())),
            },
            Err((NotBuilt::Refused(message), d)) => (
                Some(options_refused(f, &message)),
                d.and_then(|mut d| printed(&d.finish())),
            ),
            Err((NotBuilt::Failed(failure), d)) => {
                result.failure = Some(failure.to_string());
                result.printed = d.and_then(|mut d| printed(&d.finish()));
                return result;
            }
        };
        match departure {
            None => {
                result.passed = true;
                result.score = f.points;
            }
            Some(departure) => {
                let mut reproduce = reproduce_fixture(f, &departure.moves);
                if let Some(probe) = &departure.probe {
                    reproduce = format!("{reproduce}\n{probe}");
                }
                result.reproduce = Some(as_test(&f.name, &reproduce));
                result.moves = Some(departure.moves);
                result.failure = Some(departure.message);
                result.printed = printed;
            }
        }
        result
    }

    /// The option sets the laws run with: the game's law options (its
    /// defaults unless `grading.toml` says otherwise), then every other
    /// option set of a visible fixture, so a bug that only shows on other
    /// sizes is caught.
    fn law_option_sets(&self) -> Vec<Options> {
        let mut sets = vec![self.game.law_options.clone()];
        for (f, _) in self.fixtures {
            if f.visibility == Visibility::Visible && !sets.contains(&f.options) {
                sets.push(f.options.clone());
            }
        }
        sets
    }

    fn law(
        &self,
        driver: &Path,
        index: usize,
        law: &'static str,
        sandbox: &mut String,
    ) -> TestResult {
        let (seed, cases) = (self.config.seed, self.config.law_cases);
        let mut sets = self.law_option_sets();
        if law == HOOKS_LAW {
            // Its work grows with the square of the number of moves, and each
            // call is a round trip: on the default options only (the hooks are
            // optional; a student's own `cargo test` runs it on any options).
            sets.truncate(1);
        }
        let mut result = TestResult {
            name: format!("law: {law}"),
            group: "laws".into(),
            tags: vec!["laws".into()],
            score: 0.0,
            max_score: self.config.law_points,
            passed: false,
            visibility: self.config.law_visibility,
            about: format!(
                "the conformance kit's law `{law}`, on {cases} random games with the default options{}",
                match sets.len() - 1 {
                    0 => String::new(),
                    n => format!(
                        " and {} with each of {}",
                        other_cases(cases),
                        count(n, "other option set", "other option sets")
                    ),
                }
            ),
            failure: None,
            moves: None,
            reproduce: None,
            printed: None,
            origin: Origin::Law { seed, cases },
        };
        for (k, options) in sets.iter().enumerate() {
            let scratch = format!("test-{index}-{k}");
            let with = |message: String| {
                if options.iter().next().is_none() {
                    format!("with the default options: {message}")
                } else {
                    format!("with the options `{options}`: {message}")
                }
            };
            let failure = match self.start(
                driver,
                &scratch,
                self.config.law_time_limit_ms,
                options,
                sandbox,
            ) {
                Ok(game) => {
                    let cases = if k == 0 { cases } else { other_cases(cases) };
                    let verdict = check_law(&game, law, &KitConfig { cases, seed });
                    let failure = match game.failure() {
                        Some(stopped) => Some(stopped.to_string()),
                        None => verdict.failure,
                    };
                    failure.map(|f| (f, printed(&game.finish())))
                }
                Err((NotBuilt::Refused(message), d)) => Some((
                    format!("from_options refused them: {message}"),
                    d.and_then(|mut d| printed(&d.finish())),
                )),
                Err((NotBuilt::Failed(failure), d)) => Some((
                    failure.to_string(),
                    d.and_then(|mut d| printed(&d.finish())),
                )),
            };
            if let Some((failure, printed)) = failure {
                let cases = if k == 0 { cases } else { other_cases(cases) };
                result.failure = Some(with(failure));
                result.printed = printed;
                result.reproduce = Some(as_test(
                    &result.name,
                    &format!(
                        "use game_api::{{Configurable, Options}};\n\
                         let game = crate::Submission::from_options(&{}).unwrap();\n\
                         let verdict = game_api::conformance::check_law(&game, \"{law}\", \
                         &game_api::conformance::KitConfig {{ cases: {cases}, seed: {seed} }});\n\
                         assert!(verdict.passed(), \"{{:?}}\", verdict.failure);",
                        options_code(options)
                    ),
                ));
                return result;
            }
        }
        result.passed = true;
        result.score = result.max_score;
        result
    }
}

/// The law that checks the optional speed hooks, move by move and reply by
/// reply: run on the default options only.
const HOOKS_LAW: &str = "speed_hooks_agree_with_the_rules";

/// Random games per law on an option set other than the default: a
/// eighth as many (at least 4), so that a game with many fixture sizes is
/// still judged in seconds, each call of its interface being a round trip.
fn other_cases(cases: u32) -> u32 {
    (cases / 8).max(4).min(cases)
}

/// `1 option set`, `3 option sets`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Rust code that builds `options`.
fn options_code(options: &Options) -> String {
    let pairs: Vec<String> = options
        .iter()
        .map(|(k, v)| format!("{:?}", format!("{k}={v}")))
        .collect();
    if pairs.is_empty() {
        "Options::new()".to_owned()
    } else {
        format!("Options::parse_args([{}]).unwrap()", pairs.join(", "))
    }
}

/// Wraps `body` as a test function a student pastes into their
/// `src/lib.rs` (it names the crate's `Submission` as `crate::Submission`).
fn as_test(name: &str, body: &str) -> String {
    let ident: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let body: Vec<String> = body.lines().map(|l| format!("    {l}")).collect();
    format!(
        "#[test]\nfn reproduce_{}() {{\n{}\n}}",
        ident.trim_matches('_'),
        body.join("\n")
    )
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
    let moves: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    format!(
        "use game_api::{{Configurable, Game, Options}};\n\
         let game = crate::Submission::from_options(&{}).unwrap();\n\
         let states = game_api::replay(&game, &[{}] as &[&str]).unwrap();\n\
         let state = states.last().unwrap();\n\
         println!(\"{{:?}} {{:?}}\", game.game_status(state), game.legal_moves(state));",
        options_code(&f.options),
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
