//! The games of `fixtures/grading.toml` and their reference crates, found
//! and checked.
//!
//! `grading.toml` is where the course says which games it grades: one
//! `[games.<name>]` section per folder of fixtures, naming the reference
//! crate (`reference`, a folder relative to the workspace root) and its game
//! type (`type`). The answer keys are recorded from that crate, so it must be
//! the course's own: [`discover`] checks that it exists and is a member of
//! the workspace, and [`ReferenceGame::check_registered`] that it is the
//! game registered under that name (the `registry` crate, which the grader
//! itself does not link). Nothing here lists a game: adding a game is a
//! section in `grading.toml` and a line in the registry.

use crate::config::{ConfigError, GradingConfig};
use std::path::{Component, Path, PathBuf};
use thiserror::Error;

/// A game of `grading.toml`, with its reference crate found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceGame {
    /// The game's name (its section, its fixtures folder, its
    /// `Configurable::NAME`).
    pub name: String,
    /// The reference crate's folder, relative to the workspace root.
    pub reference: PathBuf,
    /// The reference crate's package name (`yucky-chocolate`).
    pub package: String,
    /// The game type in that crate (`YuckyChocolate`).
    pub type_name: String,
}

/// Why a game of `grading.toml` cannot be used.
#[derive(Debug, Error)]
pub enum ReferenceError {
    /// `grading.toml` itself is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A manifest that cannot be read or is not a crate's.
    #[error("{path}: {message}")]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The reference crate is missing, outside the workspace, or another game.
    #[error("{config}: [games.{game}]: {message}")]
    Game {
        /// The settings file.
        config: PathBuf,
        /// The game's section.
        game: String,
        /// What is wrong, and what to do.
        message: String,
    },
}

/// Reads `<workspace>/fixtures/grading.toml` and finds every game's reference
/// crate, in the file's (alphabetical) order.
///
/// # Errors
/// [`ReferenceError`] when the settings are wrong, or a reference is not a
/// crate of the workspace (missing, no `[package]`, or not a member).
pub fn discover(workspace: &Path) -> Result<Vec<ReferenceGame>, ReferenceError> {
    let config_path = workspace.join("fixtures").join("grading.toml");
    let config = GradingConfig::load(&config_path)?;
    let members = Members::read(workspace)?;
    let mut games = Vec::new();
    for (name, game) in &config.games {
        let fail = |message: String| ReferenceError::Game {
            config: config_path.clone(),
            game: name.clone(),
            message,
        };
        let reference = &game.reference;
        let shown = reference.display();
        if reference.is_absolute()
            || reference
                .components()
                .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(fail(format!("reference = \"{shown}\": expected a plain folder relative to the workspace root, e.g. \"crates/{name}\"")));
        }
        let manifest = workspace.join(reference).join("Cargo.toml");
        if !manifest.is_file() {
            return Err(fail(format!("reference = \"{shown}\": no crate there (no {shown}/Cargo.toml): point `reference` at the game's crate, or remove this section and run `cargo xtask new-game {name}`")));
        }
        let package = package_name(&manifest)?.ok_or_else(|| {
            fail(format!(
                "reference = \"{shown}\": {shown}/Cargo.toml has no [package] name"
            ))
        })?;
        if !members.contains(reference) {
            return Err(fail(format!("reference = \"{shown}\": not a member of the workspace (the root Cargo.toml's `members`): the reference must be the course's own crate")));
        }
        games.push(ReferenceGame {
            name: name.clone(),
            reference: reference.clone(),
            package,
            type_name: game.type_name.clone(),
        });
    }
    Ok(games)
}

impl ReferenceGame {
    /// Checks that the game registered under this name (`registered`: its
    /// crate as Rust writes it and its type, or `None` when no game of that
    /// name is registered) is this reference crate's `type`.
    ///
    /// ```
    /// use grader::reference::ReferenceGame;
    /// let g = ReferenceGame {
    ///     name: "yucky-chocolate".into(),
    ///     reference: "crates/yucky-chocolate".into(),
    ///     package: "yucky-chocolate".into(),
    ///     type_name: "YuckyChocolate".into(),
    /// };
    /// assert!(g.check_registered(Some(("yucky_chocolate", "YuckyChocolate"))).is_ok());
    /// assert!(g.check_registered(Some(("nim", "Nim"))).is_err());
    /// assert!(g.check_registered(None).is_err());
    /// ```
    ///
    /// # Errors
    /// A message naming both sides when they differ.
    pub fn check_registered(&self, registered: Option<(&str, &str)>) -> Result<(), String> {
        let krate = self.package.replace('-', "_");
        let (name, shown) = (&self.name, self.reference.display());
        match registered {
            None => Err(format!(
                "[games.{name}]: no game is registered under the name `{name}`: add `{krate}::{},` to `register!` in crates/registry/src/lib.rs (and check the game's Configurable::NAME is \"{name}\")",
                self.type_name
            )),
            Some((k, t)) if k == krate && t == self.type_name => Ok(()),
            Some((k, t)) => Err(format!(
                "[games.{name}]: reference = \"{shown}\", type = \"{}\" is {krate}::{}, but the game registered as `{name}` is {k}::{t}",
                self.type_name, self.type_name
            )),
        }
    }
}

/// The `[package] name` of a manifest, if it has one.
fn package_name(manifest: &Path) -> Result<Option<String>, ReferenceError> {
    let fail = |message: String| ReferenceError::Manifest {
        path: manifest.to_owned(),
        message,
    };
    let text = std::fs::read_to_string(manifest).map_err(|e| fail(format!("cannot read: {e}")))?;
    let value: toml::Table = toml::from_str(&text).map_err(|e| fail(format!("not TOML: {e}")))?;
    Ok(value
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(str::to_owned))
}

/// The workspace's `members` and `exclude` (paths, or `folder/*`).
struct Members {
    members: Vec<String>,
    exclude: Vec<String>,
}

impl Members {
    fn read(workspace: &Path) -> Result<Self, ReferenceError> {
        let manifest = workspace.join("Cargo.toml");
        let fail = |message: String| ReferenceError::Manifest {
            path: manifest.clone(),
            message,
        };
        let text =
            std::fs::read_to_string(&manifest).map_err(|e| fail(format!("cannot read: {e}")))?;
        let value: toml::Table =
            toml::from_str(&text).map_err(|e| fail(format!("not TOML: {e}")))?;
        let list = |key: &str| -> Vec<String> {
            value
                .get("workspace")
                .and_then(|w| w.get(key))
                .and_then(|m| m.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str())
                        .map(|s| s.trim_end_matches('/').to_owned())
                        .collect()
                })
                .unwrap_or_default()
        };
        Ok(Members {
            members: list("members"),
            exclude: list("exclude"),
        })
    }

    fn contains(&self, folder: &Path) -> bool {
        let folder = folder.to_string_lossy().replace('\\', "/");
        let matches = |pattern: &String| match pattern.strip_suffix("/*") {
            Some(parent) => folder.rsplit_once('/').is_some_and(|(p, _)| p == parent),
            None => *pattern == folder,
        };
        self.members.iter().any(matches) && !self.exclude.contains(&folder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace in a fresh temporary folder: a root manifest, one
    /// `crates/<name>` crate per entry, and a grading.toml with fixtures folders.
    fn workspace(test: &str, root: &str, crates: &[(&str, &str)], games: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("grader-reference-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("fixtures")).unwrap();
        std::fs::write(dir.join("Cargo.toml"), root).unwrap();
        for (folder, manifest) in crates {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
            std::fs::write(dir.join(folder).join("Cargo.toml"), manifest).unwrap();
        }
        for line in games.lines() {
            if let Some(name) = line
                .strip_prefix("[games.")
                .and_then(|l| l.strip_suffix(']'))
            {
                std::fs::create_dir_all(dir.join("fixtures").join(name)).unwrap();
            }
        }
        std::fs::write(dir.join("fixtures/grading.toml"), games).unwrap();
        dir
    }

    const ROOT: &str =
        "[workspace]\nmembers = [\"crates/*\", \"grader\"]\nexclude = [\"crates/old\"]\n";
    const PILES: &str = "[package]\nname = \"piles\"\n";

    fn error(test: &str, crates: &[(&str, &str)], reference: &str) -> String {
        let games = format!("[games.piles]\nreference = \"{reference}\"\ntype = \"Piles\"\n");
        let dir = workspace(test, ROOT, crates, &games);
        let e = discover(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        e
    }

    #[test]
    fn a_reference_crate_of_the_workspace_is_found_with_its_package_name() {
        let games = "[games.piles]\nreference = \"crates/piles\"\ntype = \"Piles\"\n";
        let dir = workspace("found", ROOT, &[("crates/piles", PILES)], games);
        let found = discover(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            found,
            [ReferenceGame {
                name: "piles".into(),
                reference: "crates/piles".into(),
                package: "piles".into(),
                type_name: "Piles".into(),
            }]
        );
    }

    #[test]
    fn a_missing_reference_crate_is_refused_with_the_command_that_makes_one() {
        let e = error("missing", &[], "crates/piles");
        assert!(
            e.ends_with("grading.toml: [games.piles]: reference = \"crates/piles\": no crate there (no crates/piles/Cargo.toml): point `reference` at the game's crate, or remove this section and run `cargo xtask new-game piles`"),
            "{e}"
        );
    }

    #[test]
    fn a_reference_outside_the_workspace_members_is_refused() {
        for (folder, test) in [("elsewhere/piles", "outside"), ("crates/old", "excluded")] {
            let e = error(test, &[(folder, PILES)], folder);
            assert!(e.ends_with(&format!("[games.piles]: reference = \"{folder}\": not a member of the workspace (the root Cargo.toml's `members`): the reference must be the course's own crate")), "{e}");
        }
    }

    #[test]
    fn a_reference_that_climbs_out_or_is_absolute_is_refused() {
        for folder in ["../piles", "/tmp/piles", "crates/../piles"] {
            let e = error("climbs", &[], folder);
            assert!(
                e.contains("expected a plain folder relative to the workspace root"),
                "{e}"
            );
        }
    }

    #[test]
    fn a_reference_without_a_package_is_refused() {
        let e = error("package", &[("crates/piles", "[lib]\n")], "crates/piles");
        assert!(
            e.ends_with("crates/piles/Cargo.toml has no [package] name"),
            "{e}"
        );
    }

    #[test]
    fn a_reference_that_is_another_registered_game_is_refused_naming_both() {
        let g = ReferenceGame {
            name: "nim".into(),
            reference: "crates/connect4".into(),
            package: "connect4".into(),
            type_name: "Connect4".into(),
        };
        assert_eq!(
            g.check_registered(Some(("nim", "Nim"))).unwrap_err(),
            "[games.nim]: reference = \"crates/connect4\", type = \"Connect4\" is connect4::Connect4, but the game registered as `nim` is nim::Nim"
        );
        assert!(g
            .check_registered(None)
            .unwrap_err()
            .contains("add `connect4::Connect4,` to `register!`"));
    }
}
