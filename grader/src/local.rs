//! The local check: what a student runs in their handout (`cargo xtask
//! check`) to see, before handing in, what the grader will say about the
//! public checks.
//!
//! It reads the handout's settings, visible fixtures and their keys, judges
//! the student's game type in this process ([`InProcess`]) with the same
//! [`Judge`] the grader runs on a sandboxed driver, and reports with the
//! same [`SubmissionResult`], so the feedback is the one `feedback.md` will
//! hold for the public checks. There is no sandbox and no time limit: it is
//! the student's own code on their own machine.

use crate::class::{Prepared, SetupError};
use crate::judge::{InProcess, Judge};
use crate::report::SubmissionResult;
use game_api::{Configurable, Game};
use std::path::Path;

/// Where a handout keeps its settings, fixtures and answer keys:
/// `fixtures/grading.toml`, `fixtures/<game>/*.toml` and `fixtures/keys/`.
pub const FIXTURES: &str = "fixtures";

/// Judges the game type `G` on the fixtures and laws of the handout whose
/// root is `root`, `only` keeping the fixtures with that tag (as
/// `cargo xtask grade --only`). The judging is silent: panics of the game
/// are reported in the result, not printed.
///
/// ```no_run
/// # fn demo<G: game_api::Game + game_api::Configurable>() {
/// let result = grader::local::check::<G>(std::path::Path::new("."), None).unwrap();
/// println!("{}", result.feedback_markdown());
/// # }
/// ```
///
/// # Errors
/// [`SetupError`] when the settings, a fixture or a key cannot be used.
pub fn check<G: Game + Configurable>(
    root: &Path,
    only: Option<&str>,
) -> Result<SubmissionResult, SetupError> {
    let fixtures = root.join(FIXTURES);
    judge::<G>(
        &fixtures.join("grading.toml"),
        &fixtures,
        &fixtures.join("keys"),
        only,
    )
}

/// Judges the game type `G` in this process with the settings `config`,
/// the fixtures of `fixtures/<game>/` and the answer keys in `keys`: what
/// [`check`] runs on a handout, and what the course's tests run on the
/// reference games with every fixture, hidden ones included.
///
/// # Errors
/// [`SetupError`] when the settings, a fixture or a key cannot be used.
pub fn judge<G: Game + Configurable>(
    config: &Path,
    fixtures: &Path,
    keys: &Path,
    only: Option<&str>,
) -> Result<SubmissionResult, SetupError> {
    let prepared = Prepared::load(config, G::NAME, &fixtures.join(G::NAME), keys, only)?;
    let judge = Judge {
        config: &prepared.config,
        game: &prepared.game,
        fixtures: &prepared.fixtures,
        fixtures_dir: fixtures,
        laws: prepared.laws,
    };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let judged = judge.run(&mut InProcess::<G>::new());
    std::panic::set_hook(hook);
    Ok(SubmissionResult::new(
        "local check",
        G::NAME,
        prepared.config.seed,
        judged.sandbox,
        judged.tests,
        // What a student sees before the due date.
        false,
    ))
}
