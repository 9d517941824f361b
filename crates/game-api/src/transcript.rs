//! Transcripts: a whole game as plain data (game, options, players, moves),
//! written by `games play --record`, read by `games replay` and by the
//! grader, whose fixture files are transcripts with checks added.
//!
//! The file format is TOML, so a teacher can read and write it by hand:
//!
//! ```toml
//! game = "connect4"
//! moves = ["4", "4", "3"]
//!
//! [options]
//! rows = 6
//! cols = 7
//!
//! [players]
//! p1 = "human"
//! p2 = "ai:depth=8"
//! ```

use crate::{replay, Game, Options, ReplayError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Who played a recorded game (free text such as `"human"` or `"ai:depth=8"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    /// Player 1.
    pub p1: String,
    /// Player 2.
    pub p2: String,
}

/// A recorded game.
///
/// ```
/// use game_api::{transcript::Transcript, Options};
/// let t = Transcript::new("nim", Options::new().with("piles", 5), vec!["2".into(), "1".into()]);
/// let text = t.to_toml();
/// let back = Transcript::from_toml(&text, "game.toml").unwrap();
/// assert_eq!(back, t);
/// let err = Transcript::from_toml("game = 3", "bad.toml").unwrap_err();
/// assert!(err.to_string().starts_with("bad.toml:1:"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    /// The game's name, as in [`crate::Configurable::NAME`].
    pub game: String,
    /// The moves, in the game's notation, from the initial state.
    pub moves: Vec<String>,
    /// The options the game was played with.
    #[serde(default, skip_serializing_if = "Options::is_empty")]
    pub options: Options,
    /// Who played, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<Players>,
    /// The seed that made the game reproducible, if any.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "seed_text")]
    pub seed: Option<u64>,
}

/// A transcript file that cannot be read.
#[derive(Debug, Error)]
pub enum TranscriptError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The text is not a valid transcript.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Line of the problem, from 1.
        line: usize,
        /// Column of the problem, from 1.
        column: usize,
        /// What was expected.
        message: String,
    },
}

impl Transcript {
    /// A transcript without players or seed.
    #[must_use]
    pub fn new(game: &str, options: Options, moves: Vec<String>) -> Self {
        Transcript {
            game: game.to_owned(),
            moves,
            options,
            players: None,
            seed: None,
        }
    }

    /// Reads a transcript from TOML text; `path` names it in errors.
    ///
    /// # Errors
    /// [`TranscriptError::Syntax`] with the line and column of the problem.
    pub fn from_toml(text: &str, path: impl AsRef<Path>) -> Result<Self, TranscriptError> {
        parse_toml(text, path.as_ref())
    }

    /// Reads a transcript file.
    ///
    /// # Errors
    /// [`TranscriptError`] when the file cannot be read or is not a transcript.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, TranscriptError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| TranscriptError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_toml(&text, path)
    }

    /// The transcript as TOML text.
    #[must_use]
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a transcript always serialises")
    }

    /// Writes the transcript atomically (a temporary file, then a rename), so
    /// an interrupted write never leaves half a file.
    ///
    /// # Errors
    /// [`TranscriptError::Io`] when the file cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TranscriptError> {
        let path = path.as_ref();
        let io = |source| TranscriptError::Io {
            path: path.to_owned(),
            source,
        };
        let tmp = path.with_extension("toml.tmp");
        std::fs::write(&tmp, self.to_toml()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Replays the moves in `game`, returning every state, initial state first.
    ///
    /// # Errors
    /// [`ReplayError`] naming the first move that fails.
    pub fn replay<G: Game + ?Sized>(&self, game: &G) -> Result<Vec<G::State>, ReplayError> {
        replay(game, &self.moves)
    }
}

/// TOML integers are signed 64-bit, so a seed above `i64::MAX` is written as
/// text; both forms read back.
mod seed_text {
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seed {
        Number(u64),
        Text(String),
    }

    #[allow(clippy::ref_option)]
    pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match seed {
            Some(n) => match i64::try_from(*n) {
                Ok(small) => s.serialize_i64(small),
                Err(_) => s.serialize_str(&n.to_string()),
            },
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<Seed>::deserialize(d)? {
            None => Ok(None),
            Some(Seed::Number(n)) => Ok(Some(n)),
            Some(Seed::Text(t)) => t.parse().map(Some).map_err(|_| {
                serde::de::Error::custom(format!(
                    "seed `{t}` is not a whole number from 0 to 2^64-1"
                ))
            }),
        }
    }
}

/// Parses TOML into `T`, turning errors into file:line:column messages. Shared
/// with the grader's fixture files.
///
/// # Errors
/// [`TranscriptError::Syntax`] locating the problem.
pub fn parse_toml<T: for<'de> Deserialize<'de>>(
    text: &str,
    path: &Path,
) -> Result<T, TranscriptError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map(|span| line_column(text, span.start))
            .unwrap_or((1, 1));
        TranscriptError::Syntax {
            path: path.to_owned(),
            line,
            column,
            message: e.message().trim().to_owned(),
        }
    })
}

/// Line and column (from 1) of a byte offset in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_error_points_at_line_and_column() {
        let text = "game = \"nim\"\nmoves = [\"1\", 2]\n";
        let err = Transcript::from_toml(text, "t.toml").unwrap_err();
        match err {
            TranscriptError::Syntax { line, column, .. } => {
                assert_eq!(line, 2);
                assert!(column > 1);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn missing_moves_is_reported() {
        let err = Transcript::from_toml("game = \"nim\"\n", "t.toml").unwrap_err();
        assert!(err.to_string().contains("moves"), "{err}");
    }

    #[test]
    fn seeds_above_i64_max_round_trip_as_text() {
        let mut t = Transcript::new("nim", Options::new(), vec![]);
        for seed in [0, 7, u64::MAX] {
            t.seed = Some(seed);
            let back = Transcript::from_toml(&t.to_toml(), "t.toml").unwrap();
            assert_eq!(back.seed, Some(seed));
        }
        let err = Transcript::from_toml("game = \"nim\"\nmoves = []\nseed = \"x\"\n", "t.toml");
        assert!(err.unwrap_err().to_string().contains("t.toml:3:"));
    }

    #[test]
    fn save_then_load_round_trips() {
        let dir = std::env::temp_dir().join(format!("game-api-transcript-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.toml");
        let mut t = Transcript::new("connect4", Options::new().with("rows", 6), vec!["4".into()]);
        t.players = Some(Players {
            p1: "human".into(),
            p2: "ai".into(),
        });
        t.seed = Some(7);
        t.save(&path).unwrap();
        assert_eq!(Transcript::load(&path).unwrap(), t);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
