//! `cargo xtask keys [--game G] [--review | --accept]`: records the answer
//! keys of every fixture of every game of `fixtures/grading.toml` (or of
//! one game) by running the answer-key test (`grader/tests/answer_keys.rs`)
//! with insta's pending-snapshot workflow: a key that is new or changed is
//! written beside the old one as `<key>.snap.new`, to review before it is
//! accepted.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to do with the keys that are new or changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// List them and say how to review them.
    List,
    /// Open `cargo insta review` (when cargo-insta is installed).
    Review,
    /// Accept them all (`INSTA_UPDATE=always`): read `git diff` afterwards.
    Accept,
}

/// Records the keys of `game` (or every game), then does `then`.
///
/// # Errors
/// An unknown game, a fixture the reference disagrees with (the test
/// names the fixture and why, above the error), or a cargo that fails.
pub fn run(ws: &Path, game: Option<&str>, then: Then) -> Result<()> {
    let games = grader::reference::discover(ws)?;
    if let Some(game) = game {
        if !games.iter().any(|g| g.name == game) {
            bail!(
                "no game `{}` in fixtures/grading.toml (the games are: {})",
                game_api::echo(game),
                games
                    .iter()
                    .map(|g| g.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let snapshots = ws.join("grader/tests/snapshots");
    // A pending key of an earlier run is replaced by this run's.
    for old in pending(&snapshots, game)? {
        std::fs::remove_file(&old).with_context(|| format!("cannot remove {}", old.display()))?;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut test = Command::new(&cargo);
    test.args(["test", "--quiet", "-p", "grader", "--test", "answer_keys"])
        .args([
            "--",
            "--exact",
            "every_fixture_of_every_game_in_grading_toml_matches_its_answer_key",
        ])
        .current_dir(ws)
        .env(
            "INSTA_UPDATE",
            if then == Then::Accept {
                "always"
            } else {
                "new"
            },
        )
        .env("INSTA_FORCE_PASS", "1")
        .env("RUST_BACKTRACE", "0");
    match game {
        Some(game) => test.env("ANSWER_KEYS_GAME", game),
        None => test.env_remove("ANSWER_KEYS_GAME"),
    };
    let which = game.map_or("every game".to_owned(), |g| format!("`{g}`"));
    eprintln!("recording the answer keys of {which} (cargo test -p grader --test answer_keys)");
    let status = test.status().context("running cargo test")?;
    if !status.success() {
        bail!("the answer keys of {which} could not be recorded: the fixtures the reference disagrees with are named above, with the reason");
    }
    if then == Then::Accept {
        println!("accepted every key of {which}: read the change with `git diff -- grader/tests/snapshots`");
        return Ok(());
    }
    let new = pending(&snapshots, game)?;
    if new.is_empty() {
        println!("the answer keys of {which} are up to date");
        return Ok(());
    }
    let review = then == Then::Review && insta_installed(&cargo);
    print!("{}", advice(ws, &new, game, review));
    if review {
        let status = Command::new(&cargo)
            .args(["insta", "review"])
            .current_dir(ws)
            .status()
            .context("running cargo insta review")?;
        if !status.success() {
            bail!("cargo insta review failed");
        }
    }
    Ok(())
}

/// The pending keys (`*.snap.new`) of `game`, or of every game, sorted.
///
/// # Errors
/// When the folder cannot be read.
pub fn pending(snapshots: &Path, game: Option<&str>) -> Result<Vec<PathBuf>> {
    let prefix = match game {
        Some(game) => format!("answer_keys__{game}__"),
        None => "answer_keys__".to_owned(),
    };
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(snapshots) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", snapshots.display())),
    };
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", snapshots.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".snap.new") {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// What to tell the teacher about the pending keys `new`.
pub fn advice(ws: &Path, new: &[PathBuf], game: Option<&str>, review: bool) -> String {
    let mut text = format!(
        "{} answer key(s) new or changed, pending review:\n",
        new.len()
    );
    for path in new {
        let shown = path.strip_prefix(ws).unwrap_or(path);
        text += &format!("  {}\n", shown.display());
    }
    if review {
        text += "opening `cargo insta review`\n";
    } else {
        let game = game.map_or(String::new(), |g| format!(" --game {g}"));
        text += &format!(
            "review them one by one with `cargo xtask keys{game} --review` (needs cargo-insta: `cargo install cargo-insta`),\n\
             or accept them all with `cargo xtask keys{game} --accept` (INSTA_UPDATE=always) and read `git diff -- grader/tests/snapshots`\n"
        );
    }
    text
}

fn insta_installed(cargo: &std::ffi::OsStr) -> bool {
    let found = Command::new(cargo)
        .args(["insta", "--version"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!(
            "cargo-insta is not installed (`cargo install cargo-insta`): listing the keys instead"
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_pending_keys_of_the_game_asked_for_are_listed_in_order() {
        let dir = std::env::temp_dir().join(format!("xtask-keys-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            "answer_keys__nim__b.snap.new",
            "answer_keys__nim__a.snap.new",
            "answer_keys__nim__a.snap",
            "answer_keys__connect4__c.snap.new",
            "answer_keys__nim-extra__d.snap.new",
        ] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let names = |game| -> Vec<String> {
            pending(&dir, game)
                .unwrap()
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(
            names(Some("nim")),
            [
                "answer_keys__nim__a.snap.new",
                "answer_keys__nim__b.snap.new"
            ]
        );
        assert_eq!(names(None).len(), 4);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(pending(&dir, None).unwrap().is_empty());
    }

    #[test]
    fn without_review_the_advice_says_how_to_review_or_accept_the_keys_of_that_game() {
        let ws = Path::new("/ws");
        let new = [ws.join("grader/tests/snapshots/answer_keys__nim__a.snap.new")];
        assert_eq!(
            advice(ws, &new, Some("nim"), false),
            "1 answer key(s) new or changed, pending review:\n  grader/tests/snapshots/answer_keys__nim__a.snap.new\n\
             review them one by one with `cargo xtask keys --game nim --review` (needs cargo-insta: `cargo install cargo-insta`),\n\
             or accept them all with `cargo xtask keys --game nim --accept` (INSTA_UPDATE=always) and read `git diff -- grader/tests/snapshots`\n"
        );
        assert!(advice(ws, &new, None, true).ends_with("opening `cargo insta review`\n"));
    }
}
