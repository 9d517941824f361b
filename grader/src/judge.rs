//! Judging one submission: every fixture and every conformance law, each
//! on a fresh game, each with its own time limit.
//!
//! Every verdict is computed here: the fixture walk, the course's minimax
//! and the laws of `game-api` run in this process, on the games a
//! [`Subject`] provides. The grader's subject is [`Sandboxed`]: each game is
//! a [`RemoteGame`](crate::remote::RemoteGame) whose methods ask a fresh
//! driver process in the sandbox. A student's local check (`cargo xtask
//! check` in the handout) judges their own type in-process with
//! [`InProcess`], through this same code, so it reports exactly what the
//! grader would on the same fixtures. A test's failure (a wrong answer, a
//! panic, a crash, a timeout) never affects the other tests: the next test
//! starts a new game (and, sandboxed, a new process).

use crate::config::{GameConfig, GradingConfig};
use crate::fixture::{Fixture, Visibility};
use crate::key::{options_refused, panic_text, walk, AnswerKey};
use crate::remote::{NotBuilt, RemoteGame};
use crate::results::{relative, Origin, TestResult};
use crate::sandbox::{Driver, Sandbox};
use game_api::conformance::{check_law, KitConfig, LAWS};
use game_api::{Configurable, Game, Options};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Duration;

/// What a judge needs besides the games under test.
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
}

/// What one judged submission got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// One result per test.
    pub tests: Vec<TestResult>,
    /// How the tests were isolated: sandboxed, `fully enforced` or what did
    /// not hold; in-process, says so.
    pub sandbox: String,
}

/// Where the games under judgement come from: a fresh game for each test.
pub trait Subject {
    /// The game under test.
    type Game: Game;
    /// Builds the game of one test with `options`; `test` names the test
    /// (unique in a run) and `limit` is its wall-clock limit.
    ///
    /// # Errors
    /// [`NotStarted`] when the game refuses the options or cannot start.
    fn start(
        &mut self,
        test: &str,
        limit: Duration,
        options: &Options,
    ) -> Result<Self::Game, NotStarted>;
    /// Why the game's process stopped during the test, if it did.
    fn stopped(&self, game: &Self::Game) -> Option<String>;
    /// Ends a failed test: the first lines the program printed, if any.
    fn printed(&mut self, game: &Self::Game) -> Option<String>;
    /// How the tests were isolated, as [`Judged::sandbox`] records it.
    fn isolation(&self) -> String;
}

/// A game that could not be built for a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotStarted {
    /// `from_options` refused the options (or panicked on them).
    Refused {
        /// Its message.
        message: String,
        /// What the program printed, if anything.
        printed: Option<String>,
    },
    /// The game's process failed.
    Failed {
        /// How, in words.
        failure: String,
        /// What the program printed, if anything.
        printed: Option<String>,
    },
}

/// The grader's subject: each test's game is a
/// [`RemoteGame`](crate::remote::RemoteGame) in a fresh driver process,
/// started through the sandbox launcher.
pub struct Sandboxed<'a> {
    /// The built driver.
    pub driver: &'a Path,
    /// The launcher of the sandbox (the `grader` binary).
    pub launcher: &'a Path,
    /// Parent folder of the scratch directories.
    pub scratch: &'a Path,
    /// The settings (for the process limits).
    pub config: &'a GradingConfig,
    /// What the last sandbox enforced.
    enforced: String,
}

impl<'a> Sandboxed<'a> {
    /// The subject of `driver`, started by `launcher` under `config`'s limits.
    #[must_use]
    pub fn new(
        driver: &'a Path,
        launcher: &'a Path,
        scratch: &'a Path,
        config: &'a GradingConfig,
    ) -> Self {
        Sandboxed {
            driver,
            launcher,
            scratch,
            config,
            enforced: String::from("unknown (no test started a process)"),
        }
    }
}

impl Subject for Sandboxed<'_> {
    type Game = RemoteGame;

    fn start(
        &mut self,
        test: &str,
        limit: Duration,
        options: &Options,
    ) -> Result<RemoteGame, NotStarted> {
        let d = Driver::start(
            &Sandbox {
                launcher: self.launcher.to_owned(),
                limits: self.config.limits(),
            },
            self.driver,
            &self.scratch.join(test),
            limit,
        )
        .map_err(|f| NotStarted::Failed {
            failure: f.to_string(),
            printed: None,
        })?;
        let weak = d.report().weaknesses();
        self.enforced = if weak.is_empty() {
            "fully enforced".to_owned()
        } else {
            weak.join("; ")
        };
        RemoteGame::new(d, options).map_err(|(why, mut d)| {
            let printed = printed(&d.finish());
            match why {
                NotBuilt::Refused(message) => NotStarted::Refused { message, printed },
                NotBuilt::Failed(f) => NotStarted::Failed {
                    failure: f.to_string(),
                    printed,
                },
            }
        })
    }

    fn stopped(&self, game: &RemoteGame) -> Option<String> {
        game.failure().map(|f| f.to_string())
    }

    fn printed(&mut self, game: &RemoteGame) -> Option<String> {
        printed(&game.finish())
    }

    fn isolation(&self) -> String {
        self.enforced.clone()
    }
}

/// A student's local check: the game type `G` itself, built in this
/// process for each test. No sandbox and no time limit: it is the
/// student's own code on their own machine.
///
/// ```
/// use grader::judge::{InProcess, Subject};
/// # use game_api::{Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError, ParseMoveError, Player, Status, Value};
/// # #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)] struct S;
/// # struct G;
/// # impl Game for G {
/// #     type State = S; type Move = u8;
/// #     fn initial_state(&self) -> S { S }
/// #     fn legal_moves(&self, _: &S) -> Vec<u8> { vec![] }
/// #     fn next_state(&self, _: &S, m: &u8) -> Result<S, IllegalMove> { Err(IllegalMove::new(m.to_string(), "none")) }
/// #     fn game_status(&self, _: &S) -> Status { Status::Draw }
/// #     fn estimate_value(&self, _: &S) -> Value { 0 }
/// #     fn string_of_state(&self, _: &S) -> String { String::new() }
/// #     fn string_of_move(&self, m: &u8) -> String { m.to_string() }
/// #     fn move_of_string(&self, t: &str) -> Result<u8, ParseMoveError> { Err(ParseMoveError::new(t, "none")) }
/// #     fn max_game_length(&self) -> usize { 0 }
/// # }
/// # impl Configurable for G {
/// #     const NAME: &'static str = "g";
/// #     fn option_specs() -> Vec<OptionSpec> { vec![] }
/// #     fn from_options(o: &Options) -> Result<Self, OptionsError> { o.check_known(&[])?; Ok(G) }
/// #     fn options(&self) -> Options { Options::new() }
/// #     fn notation() -> &'static str { "" }
/// #     fn rules() -> &'static str { "" }
/// # }
/// let mut subject = InProcess::<G>::new();
/// assert!(subject.start("test-0", std::time::Duration::MAX, &Options::new()).is_ok());
/// ```
pub struct InProcess<G>(PhantomData<fn() -> G>);

impl<G> InProcess<G> {
    /// The subject of the game type `G`.
    #[must_use]
    pub fn new() -> Self {
        InProcess(PhantomData)
    }
}

impl<G> Default for InProcess<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game + Configurable> Subject for InProcess<G> {
    type Game = G;

    fn start(&mut self, _test: &str, _limit: Duration, options: &Options) -> Result<G, NotStarted> {
        match catch_unwind(AssertUnwindSafe(|| G::from_options(options))) {
            Ok(Ok(game)) => Ok(game),
            Ok(Err(e)) => Err(NotStarted::Refused {
                message: e.to_string(),
                printed: None,
            }),
            Err(payload) => Err(NotStarted::Refused {
                message: format!("from_options panicked: {}", panic_text(&*payload)),
                printed: None,
            }),
        }
    }

    fn stopped(&self, _game: &G) -> Option<String> {
        None
    }

    fn printed(&mut self, _game: &G) -> Option<String> {
        None
    }

    fn isolation(&self) -> String {
        "none: judged in this process (a local check)".to_owned()
    }
}

impl Judge<'_> {
    /// Runs every fixture and law on the games of `subject`.
    #[must_use]
    pub fn run<S: Subject>(&self, subject: &mut S) -> Judged {
        let mut tests = Vec::new();
        for (i, (fixture, key)) in self.fixtures.iter().enumerate() {
            tests.push(self.fixture(subject, i, fixture, key));
        }
        if self.laws {
            for (i, law) in LAWS.iter().enumerate() {
                tests.push(self.law(subject, self.fixtures.len() + i, law));
            }
        }
        Judged {
            tests,
            sandbox: subject.isolation(),
        }
    }

    fn fixture<S: Subject>(
        &self,
        subject: &mut S,
        index: usize,
        f: &Fixture,
        key: &AnswerKey,
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
        let started = subject.start(
            &format!("test-{index}"),
            Duration::from_millis(self.config.time_limit_ms),
            &f.options,
        );
        let (departure, printed) = match started {
            Ok(game) => match walk(f, &game, |n, o| key.compare(n, o), |_, _, _| {}) {
                Ok(()) => (None, None),
                Err(d) => (Some(d), subject.printed(&game)),
            },
            Err(NotStarted::Refused { message, printed }) => {
                (Some(options_refused(f, &message)), printed)
            }
            Err(NotStarted::Failed { failure, printed }) => {
                result.failure = Some(failure);
                result.printed = printed;
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

    fn law<S: Subject>(&self, subject: &mut S, index: usize, law: &'static str) -> TestResult {
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
            let failure = match subject.start(
                &scratch,
                Duration::from_millis(self.config.law_time_limit_ms),
                options,
            ) {
                Ok(game) => {
                    let cases = if k == 0 { cases } else { other_cases(cases) };
                    let verdict = check_law(&game, law, &KitConfig { cases, seed });
                    let failure = subject.stopped(&game).or(verdict.failure);
                    failure.map(|f| (f, subject.printed(&game)))
                }
                Err(NotStarted::Refused { message, printed }) => {
                    Some((format!("from_options refused them: {message}"), printed))
                }
                Err(NotStarted::Failed { failure, printed }) => Some((failure, printed)),
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
