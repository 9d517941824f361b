//! The grading settings: `fixtures/grading.toml`, read once per run.
//!
//! They live apart from the judging, the class run and the reports, which
//! all read them, so that those modules depend on this one and not on each
//! other.

use crate::fixture::Visibility;
use crate::sandbox::Limits;
use game_api::Options;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
            allowed_dependencies: Vec::new(),
            offline: true,
            games: BTreeMap::new(),
        }
    }
}

impl GradingConfig {
    /// Reads the settings file.
    ///
    /// # Errors
    /// File, line and column of the problem.
    pub fn load(path: &Path) -> Result<Self, game_api::transcript::TranscriptError> {
        let text = std::fs::read_to_string(path).map_err(|source| {
            game_api::transcript::TranscriptError::Io {
                path: path.to_owned(),
                source,
            }
        })?;
        game_api::transcript::parse_toml(&text, path)
    }

    /// The limits of a student process.
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits {
            memory_bytes: self.memory_mb << 20,
            cpu_seconds: self.cpu_seconds,
            file_bytes: self.file_size_kb << 10,
        }
    }
}
