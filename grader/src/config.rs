//! The grading settings: `fixtures/grading.toml`, read once per run.
//!
//! They live apart from the judging, the class run and the reports, which
//! all read them, so that those modules depend on this one and not on each
//! other.
//!
//! The file is checked like a fixture, before anything is built: unknown
//! keys, wrong types, points that are negative, NaN or infinite, limits of
//! zero, zero law cases, no game section, or a section for a game that has
//! no fixtures folder beside the file, are errors naming the file, line and
//! column and what was expected.

use crate::fixture::{Fixture, Visibility};
use crate::sandbox::Limits;
use game_api::transcript::line_column;
use game_api::transcript::{parse_toml, TranscriptError};
use game_api::Options;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use thiserror::Error;
use toml::Spanned;

/// The grading settings (`fixtures/grading.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GradingConfig {
    /// Seed of the conformance kit (recorded in every result).
    pub seed: u64,
    /// Points per conformance law.
    pub law_points: f64,
    /// Random cases per law.
    pub law_cases: u32,
    /// Who sees the laws' results.
    pub law_visibility: Visibility,
    /// Wall-clock limit of one fixture, in milliseconds.
    pub time_limit_ms: u64,
    /// Wall-clock limit of one law, in milliseconds.
    pub law_time_limit_ms: u64,
    /// Address-space limit of the student process, in MiB.
    pub memory_mb: u64,
    /// CPU-time limit of one student process, in seconds.
    pub cpu_seconds: u64,
    /// Largest file the student process may write, in KiB.
    pub file_size_kb: u64,
    /// Processes and threads the student process may have at once.
    pub processes: u64,
    /// Computing-time limit of one submission's build (all its processes
    /// together), in seconds; five times it on the clock.
    pub build_seconds: u64,
    /// Address-space limit of each process of a build, in MiB.
    pub build_memory_mb: u64,
    /// Crates a submission may depend on, besides `game-api`.
    pub allowed_dependencies: Vec<String>,
    /// Build without network (every dependency must be in Cargo's cache).
    pub offline: bool,
    /// Per game: where the reference crate is and how the laws build it.
    pub games: BTreeMap<String, GameConfig>,
}

/// How to grade one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// The reference crate's folder, relative to the workspace root.
    pub reference: PathBuf,
    /// The type in the reference crate that implements `Game`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Options the laws are checked with (default: the game's defaults).
    #[serde(default)]
    pub law_options: Options,
}

impl Default for GradingConfig {
    fn default() -> Self {
        GradingConfig {
            seed: 2026,
            law_points: 0.5,
            law_cases: 64,
            law_visibility: Visibility::Visible,
            time_limit_ms: 3000,
            law_time_limit_ms: 10_000,
            memory_mb: 512,
            cpu_seconds: 20,
            file_size_kb: 1024,
            processes: 16,
            build_seconds: 120,
            build_memory_mb: 4096,
            allowed_dependencies: Vec::new(),
            offline: true,
            games: BTreeMap::new(),
        }
    }
}

/// A settings file that cannot be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said (shown in the message, not as a cause, so
        /// it is printed once).
        error: std::io::Error,
    },
    /// Not valid TOML, or not settings (unknown key, wrong type...).
    #[error(transparent)]
    Syntax(#[from] TranscriptError),
    /// Valid TOML with a value that makes no sense.
    #[error("{path}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong and what was expected.
        message: String,
    },
}

/// Where the checked values are in the text (read beside the typed
/// settings, so a new setting needs no change here unless it is checked).
#[derive(Default, Deserialize)]
#[serde(default)]
struct Located {
    law_points: Option<Spanned<toml::Value>>,
    law_cases: Option<Spanned<toml::Value>>,
    time_limit_ms: Option<Spanned<toml::Value>>,
    law_time_limit_ms: Option<Spanned<toml::Value>>,
    memory_mb: Option<Spanned<toml::Value>>,
    cpu_seconds: Option<Spanned<toml::Value>>,
    file_size_kb: Option<Spanned<toml::Value>>,
    processes: Option<Spanned<toml::Value>>,
    build_seconds: Option<Spanned<toml::Value>>,
    build_memory_mb: Option<Spanned<toml::Value>>,
    allowed_dependencies: Option<Spanned<toml::Value>>,
    games: Option<BTreeMap<String, Spanned<LocatedGame>>>,
    /// Where a bare `[games]` header is (TOML gives no span for it).
    #[serde(skip)]
    games_header: Option<Range<usize>>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct LocatedGame {
    reference: Option<Spanned<toml::Value>>,
    #[serde(rename = "type")]
    type_name: Option<Spanned<toml::Value>>,
}

fn span(value: Option<&Spanned<toml::Value>>) -> Range<usize> {
    value.map_or(0..0, Spanned::span)
}

impl GradingConfig {
    /// Reads the settings file and checks it; a `[games.<name>]` section
    /// must have a fixtures folder `<name>/` beside the file.
    ///
    /// # Errors
    /// [`ConfigError`] with the file, line and column of the problem.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Io {
            path: path.to_owned(),
            error,
        })?;
        let dir = path.parent().unwrap_or(Path::new("."));
        Self::from_toml(&text, path, |game| dir.join(game).is_dir())
    }

    /// Reads settings from TOML text and checks them; `path` names the
    /// file in errors, and `is_game` says whether a `[games.<name>]`
    /// section names a game.
    ///
    /// ```
    /// use grader::config::GradingConfig;
    /// let games = "[games.nim]\nreference = \"crates/nim\"\ntype = \"Nim\"\n";
    /// let ok = GradingConfig::from_toml(games, "g.toml".as_ref(), |g| g == "nim").unwrap();
    /// assert_eq!(ok.games["nim"].type_name, "Nim");
    /// let bad = format!("law_points = -1\n{games}");
    /// let err = GradingConfig::from_toml(&bad, "g.toml".as_ref(), |g| g == "nim").unwrap_err();
    /// assert!(err.to_string().starts_with("g.toml:1:14: "), "{err}");
    /// ```
    ///
    /// # Errors
    /// [`ConfigError`] with the file, line and column of the first problem.
    pub fn from_toml(
        text: &str,
        path: &Path,
        is_game: impl Fn(&str) -> bool,
    ) -> Result<Self, ConfigError> {
        let config: GradingConfig = parse_toml(text, path)?;
        let mut at: Located = parse_toml(text, path)?;
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            if line.trim() == "[games]" {
                at.games_header = Some(offset..offset + line.len());
            }
            offset += line.len();
        }
        config.check(&at, &is_game).map_err(|(span, message)| {
            let (line, column) = line_column(text, span.start);
            ConfigError::Invalid {
                path: path.to_owned(),
                line,
                column,
                message,
            }
        })?;
        Ok(config)
    }

    /// The first value that makes no sense: where it is, and why.
    fn check(
        &self,
        at: &Located,
        is_game: &dyn Fn(&str) -> bool,
    ) -> Result<(), (Range<usize>, String)> {
        if !(self.law_points.is_finite() && self.law_points >= 0.0) {
            return Err((
                span(at.law_points.as_ref()),
                format!(
                    "`law_points = {}`: expected a finite number of points, 0 or more",
                    self.law_points
                ),
            ));
        }
        if self.law_cases == 0 {
            return Err((
                span(at.law_cases.as_ref()),
                "`law_cases = 0`: expected at least 1 random game per law".into(),
            ));
        }
        let limits = [
            (
                "time_limit_ms",
                self.time_limit_ms,
                &at.time_limit_ms,
                "milliseconds",
                u64::MAX,
            ),
            (
                "law_time_limit_ms",
                self.law_time_limit_ms,
                &at.law_time_limit_ms,
                "milliseconds",
                u64::MAX,
            ),
            (
                "memory_mb",
                self.memory_mb,
                &at.memory_mb,
                "MiB",
                u64::MAX >> 20,
            ),
            (
                "cpu_seconds",
                self.cpu_seconds,
                &at.cpu_seconds,
                "seconds",
                u64::MAX,
            ),
            (
                "file_size_kb",
                self.file_size_kb,
                &at.file_size_kb,
                "KiB",
                u64::MAX >> 10,
            ),
            (
                "processes",
                self.processes,
                &at.processes,
                "process",
                1 << 16,
            ),
            (
                "build_seconds",
                self.build_seconds,
                &at.build_seconds,
                "second",
                u64::MAX,
            ),
            (
                "build_memory_mb",
                self.build_memory_mb,
                &at.build_memory_mb,
                "MiB",
                u64::MAX >> 20,
            ),
        ];
        for (key, value, located, unit, most) in limits {
            if value == 0 || value > most {
                return Err((
                    span(located.as_ref()),
                    format!("`{key} = {value}`: expected a limit from 1 to {most} ({unit})"),
                ));
            }
        }
        if let Some(bad) = self.allowed_dependencies.iter().find(|d| !is_crate_name(d)) {
            return Err((
                span(at.allowed_dependencies.as_ref()),
                format!("`{bad}` in `allowed_dependencies`: expected a crate name (letters, digits, `-` and `_`)"),
            ));
        }
        let games = at.games.as_ref();
        if self.games.is_empty() {
            return Err((
                at.games_header.clone().unwrap_or(0..0),
                "no game: expected a [games.<name>] section per game, saying where its reference crate is (`reference`) and its type (`type`)".into(),
            ));
        }
        let located = |name: &str| games.and_then(|g| g.get_key_value(name));
        for (name, game) in &self.games {
            let (key, section) =
                located(name).map_or((0..0, None), |(_, v)| (v.span(), Some(v.get_ref())));
            if !is_game(name) {
                return Err((
                    key,
                    format!("[games.{name}]: no fixtures folder `{name}/` beside this file: a section is for a game with fixtures"),
                ));
            }
            if game.reference.as_os_str().is_empty() {
                return Err((
                    span(section.and_then(|s| s.reference.as_ref())),
                    format!("[games.{name}]: expected the reference crate's folder, relative to the workspace root"),
                ));
            }
            if !is_type_path(&game.type_name) {
                return Err((
                    span(section.and_then(|s| s.type_name.as_ref())),
                    format!("[games.{name}]: `type = {:?}`: expected the name of the reference crate's game type, e.g. \"Nim\"", game.type_name),
                ));
            }
        }
        Ok(())
    }

    /// The limits of a student process.
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits {
            memory_bytes: self.memory_mb << 20,
            cpu_seconds: self.cpu_seconds,
            file_bytes: self.file_size_kb << 10,
            processes: self.processes,
        }
    }

    /// The course's checks that break the points policy, one line each,
    /// naming the file: a `hidden` check worth points. Its points count only
    /// after the due date ([`Visibility::counts`]), but a hidden check is
    /// never shown, so they would then sit in the student's total with
    /// nothing to explain them. `cargo xtask grade` prints these as
    /// warnings; grading goes on. `path` is this settings file (the laws'
    /// visibility and points are set in it).
    #[must_use]
    pub fn points_policy_warnings<'a>(
        &self,
        path: &Path,
        fixtures: impl IntoIterator<Item = &'a Fixture>,
    ) -> Vec<String> {
        let fix = "make it `visibility = \"after_due_date\"` (shown then) or give it no points";
        let mut warnings: Vec<String> = fixtures
            .into_iter()
            .filter(|f| f.visibility == Visibility::Hidden && f.points > 0.0)
            .map(|f| {
                format!(
                    "{}: a hidden fixture worth {} points: never shown, yet counted after the due date; {fix}",
                    f.path.display(),
                    f.points
                )
            })
            .collect();
        if self.law_visibility == Visibility::Hidden && self.law_points > 0.0 {
            warnings.push(format!(
                "{}: hidden laws worth {} points each: never shown, yet counted after the due date; make `law_visibility = \"after_due_date\"` or `law_points = 0`",
                path.display(),
                self.law_points
            ));
        }
        warnings
    }
}

/// A plausible crate name: ASCII letters, digits, `-` and `_`.
fn is_crate_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A Rust type path: identifiers separated by `::`.
fn is_type_path(name: &str) -> bool {
    name.split("::").all(|part| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "[games.nim]\nreference = \"crates/nim\"\ntype = \"Nim\"\n";

    /// The error for `top` (top-level lines) followed by a valid game section.
    fn err(top: &str) -> String {
        err_in(&format!("{top}{GAMES}"))
    }

    fn err_in(text: &str) -> String {
        GradingConfig::from_toml(text, Path::new("g.toml"), |g| g == "nim")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn the_course_settings_file_is_valid() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/grading.toml");
        let config = GradingConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
        // A section per folder of fixtures, and no other (no list of games here).
        let mut folders: Vec<String> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        folders.sort();
        assert_eq!(config.games.keys().cloned().collect::<Vec<_>>(), folders);
        assert!(config.games.contains_key("connect4"));
    }

    #[test]
    fn a_missing_file_is_named_and_its_cause_is_printed_once() {
        let e = GradingConfig::load(Path::new("/nonexistent/grading.toml")).unwrap_err();
        assert!(std::error::Error::source(&e).is_none());
        assert!(
            e.to_string()
                .starts_with("/nonexistent/grading.toml: No such file"),
            "{e}"
        );
    }

    #[test]
    fn negative_nan_and_infinite_law_points_are_located_errors() {
        assert_eq!(
            err("seed = 1\nlaw_points = -0.5\n"),
            "g.toml:2:14: `law_points = -0.5`: expected a finite number of points, 0 or more"
        );
        assert!(err("law_points = nan\n").starts_with("g.toml:1:14: `law_points = NaN`"));
        assert!(err("law_points = inf\n").starts_with("g.toml:1:14: `law_points = inf`"));
        assert!(err("law_points = -inf\n").starts_with("g.toml:1:14: "));
        let zero = format!("law_points = 0\n{GAMES}");
        assert!(GradingConfig::from_toml(&zero, Path::new("g.toml"), |_| true).is_ok());
    }

    #[test]
    fn zero_law_cases_is_a_located_error() {
        assert_eq!(
            err("law_cases = 0\n"),
            "g.toml:1:13: `law_cases = 0`: expected at least 1 random game per law"
        );
    }

    #[test]
    fn zero_time_limits_are_located_errors() {
        assert_eq!(
            err("time_limit_ms = 0\n"),
            "g.toml:1:17: `time_limit_ms = 0`: expected a limit from 1 to 18446744073709551615 (milliseconds)"
        );
        assert!(
            err("\nlaw_time_limit_ms = 0\n").starts_with("g.toml:2:21: `law_time_limit_ms = 0`")
        );
    }

    #[test]
    fn zero_or_overflowing_process_limits_are_located_errors() {
        assert!(err("memory_mb = 0\n")
            .starts_with("g.toml:1:13: `memory_mb = 0`: expected a limit from 1 to"));
        assert!(err("cpu_seconds = 0\n").starts_with("g.toml:1:15: `cpu_seconds = 0`"));
        assert!(err("file_size_kb = 0\n").starts_with("g.toml:1:16: `file_size_kb = 0`"));
        // Shifted into bytes, these would overflow.
        assert!(err("memory_mb = 9223372036854775807\n").starts_with("g.toml:1:13: "));
        assert!(err("file_size_kb = 9223372036854775807\n").starts_with("g.toml:1:16: "));
    }

    #[test]
    fn unknown_keys_are_located_errors_at_the_top_and_in_a_game_section() {
        let e = err("law_point = 1\n");
        assert!(
            e.starts_with("g.toml:1:1: unknown field `law_point`"),
            "{e}"
        );
        let e = err_in(&format!("{GAMES}typ = \"Nim\"\n"));
        assert!(e.starts_with("g.toml:4:1: unknown field `typ`"), "{e}");
        let e = err("[game.nim]\nreference = \"x\"\n");
        assert!(e.starts_with("g.toml:1:2: unknown field `game`"), "{e}");
    }

    #[test]
    fn wrong_types_are_located_errors() {
        let e = err("time_limit_ms = -5\n");
        assert!(e.starts_with("g.toml:1:17: "), "{e}");
        let e = err("law_cases = \"many\"\n");
        assert!(e.starts_with("g.toml:1:13: "), "{e}");
    }

    #[test]
    fn an_empty_or_missing_games_table_is_an_error() {
        let e = err_in("seed = 1\n");
        assert!(
            e.starts_with("g.toml:1:1: no game: expected a [games.<name>] section"),
            "{e}"
        );
        let e = err_in("seed = 1\n[games]\n");
        assert!(e.starts_with("g.toml:2:1: no game"), "{e}");
    }

    #[test]
    fn an_empty_game_section_is_an_error() {
        let e = err_in("[games.nim]\n");
        assert!(
            e.starts_with("g.toml:1:1: missing field `reference`"),
            "{e}"
        );
        let e = err_in("[games.nim]\nreference = \"\"\ntype = \"Nim\"\n");
        assert!(
            e.starts_with("g.toml:2:13: [games.nim]: expected the reference crate's folder"),
            "{e}"
        );
        let e = err_in("[games.nim]\nreference = \"crates/nim\"\ntype = \"Nim; evil()\"\n");
        assert!(
            e.starts_with("g.toml:3:8: [games.nim]: `type = \"Nim; evil()\"`"),
            "{e}"
        );
    }

    #[test]
    fn a_section_for_a_game_without_fixtures_is_a_located_error() {
        let e = err_in(&format!(
            "{GAMES}\n[games.nmi]\nreference = \"crates/nim\"\ntype = \"Nim\"\n"
        ));
        assert!(
            e.starts_with("g.toml:5:1: [games.nmi]: no fixtures folder `nmi/` beside this file"),
            "{e}"
        );
    }

    #[test]
    fn hidden_checks_worth_points_are_warned_about_by_file_and_others_are_not() {
        let fixture = |text: &str, file: &str| {
            Fixture::from_toml(&format!("game = \"nim\"\nmoves = []\n{text}"), file).unwrap()
        };
        let fixtures = [
            fixture("visibility = \"hidden\"\npoints = 2\n", "f/hidden-2.toml"),
            fixture("visibility = \"hidden\"\npoints = 0\n", "f/hidden-0.toml"),
            fixture(
                "visibility = \"after_due_date\"\npoints = 3\n",
                "f/late.toml",
            ),
            fixture("points = 4\n", "f/visible.toml"),
        ];
        let mut config = GradingConfig::default();
        let warnings = config.points_policy_warnings(Path::new("g.toml"), &fixtures);
        assert_eq!(
            warnings,
            ["f/hidden-2.toml: a hidden fixture worth 2 points: never shown, yet counted after the due date; make it `visibility = \"after_due_date\"` (shown then) or give it no points"]
        );
        config.law_visibility = Visibility::Hidden;
        let warnings = config.points_policy_warnings(Path::new("g.toml"), &[]);
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with("g.toml: hidden laws worth 0.5 points each"),
            "{warnings:?}"
        );
        config.law_points = 0.0;
        assert!(config
            .points_policy_warnings(Path::new("g.toml"), &[])
            .is_empty());
    }

    #[test]
    fn a_bad_dependency_name_is_a_located_error() {
        let e = err("allowed_dependencies = [\"rand\", \"\"]\n");
        assert!(
            e.starts_with("g.toml:1:24: `` in `allowed_dependencies`"),
            "{e}"
        );
    }
}
