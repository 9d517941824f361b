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
//!
//! Reading is careful with what it is given: only regular files of at most
//! [`MAX_FILE_BYTES`] are read ([`read_text`], shared with the grader's
//! fixtures), text that is not UTF-8 or not a transcript is located by line
//! and column, unknown keys are errors (a typo such as `[optons]` is never
//! silently ignored), and each move's place in the file is kept, so a move
//! that does not replay is located too ([`Transcript::move_location`]).
//!
//! [`render`] writes a whole game as text, position by position, for
//! snapshot tests; the grader's answer keys are written by it too.

mod rendering;

pub use rendering::{canonical_order, observe, render, Observation};

use crate::{replay, Game, Options, ReplayError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;
use toml::Spanned;

/// The largest transcript (or fixture, or settings file) read, in bytes:
/// 8 MiB, far above any real game and far below what would strain memory.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

/// Who played a recorded game (free text such as `"human"` or `"ai:depth=8"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
/// let err = Transcript::from_toml("game = \"nim\"\nmoves = []\n[optons]\nrows = 5\n", "typo.toml");
/// assert!(err.unwrap_err().to_string().starts_with("typo.toml:3:"));
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    #[serde(default, skip_serializing_if = "Option::is_none", with = "seed")]
    pub seed: Option<u64>,
    /// Where it was read from and where each move was written, if it was
    /// read from text.
    #[serde(skip)]
    origin: Option<Origin>,
}

/// Where a transcript's moves were written.
#[derive(Clone, Debug)]
struct Origin {
    path: PathBuf,
    /// Line and column of each move.
    moves: Vec<(usize, usize)>,
}

impl PartialEq for Transcript {
    /// Equal when they record the same game (wherever they were read from).
    fn eq(&self, other: &Self) -> bool {
        (
            &self.game,
            &self.moves,
            &self.options,
            &self.players,
            self.seed,
        ) == (
            &other.game,
            &other.moves,
            &other.options,
            &other.players,
            other.seed,
        )
    }
}

impl Eq for Transcript {}

/// A place in a file, shown as `path:line:column` (both from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub path: PathBuf,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1 (in characters).
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

/// The keys of a transcript, with the place of each move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTranscript {
    game: String,
    moves: Vec<Spanned<String>>,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    players: Option<Players>,
    #[serde(default, with = "seed")]
    seed: Option<u64>,
}

/// A transcript file that cannot be read.
#[derive(Debug, Error)]
pub enum TranscriptError {
    /// The file could not be read or written (the system's reason is the
    /// `source`).
    #[error("{}", path.display())]
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
    /// The path is not a regular file (a folder, a device, a pipe...).
    #[error("{}: not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{}: {bytes} bytes is too large: at most {MAX_FILE_BYTES} bytes (8 MiB) are read", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, at least.
        bytes: u64,
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
            origin: None,
        }
    }

    /// Reads a transcript from TOML text; `path` names it in errors.
    ///
    /// # Errors
    /// [`TranscriptError::Syntax`] with the line and column of the problem
    /// (including an unknown key).
    pub fn from_toml(text: &str, path: impl AsRef<Path>) -> Result<Self, TranscriptError> {
        let path = path.as_ref();
        let raw: RawTranscript = parse_toml(text, path)?;
        let places = raw
            .moves
            .iter()
            .map(|m| line_column(text, m.span().start))
            .collect();
        Ok(Transcript {
            game: raw.game,
            moves: raw.moves.into_iter().map(Spanned::into_inner).collect(),
            options: raw.options,
            players: raw.players,
            seed: raw.seed,
            origin: Some(Origin {
                path: path.to_owned(),
                moves: places,
            }),
        })
    }

    /// Reads a transcript file (see [`read_text`] for what is refused).
    ///
    /// # Errors
    /// [`TranscriptError`] when the file cannot be read or is not a transcript.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, TranscriptError> {
        let path = path.as_ref();
        Self::from_toml(&read_text(path)?, path)
    }

    /// Where move number `index` (from 1) is written, for a transcript read
    /// from text; `None` for one built in memory or past the last move.
    ///
    /// ```
    /// use game_api::transcript::Transcript;
    /// let t = Transcript::from_toml("game = \"nim\"\nmoves = [\"1\",\n  \"2\"]\n", "g.toml").unwrap();
    /// assert_eq!(t.move_location(2).unwrap().to_string(), "g.toml:3:3");
    /// assert_eq!(t.move_location(3), None);
    /// ```
    #[must_use]
    pub fn move_location(&self, index: usize) -> Option<Location> {
        let origin = self.origin.as_ref()?;
        let &(line, column) = origin.moves.get(index.checked_sub(1)?)?;
        Some(Location {
            path: origin.path.clone(),
            line,
            column,
        })
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

/// Seeds in TOML files, for `#[serde(with = "game_api::transcript::seed")]`
/// on an `Option<u64>`: TOML integers are signed 64-bit, so a seed above
/// `i64::MAX` is written as text; both forms read back, and anything else
/// (a negative number, a fraction, a word) is refused saying what a seed is.
/// Transcripts and the grader's fixtures read seeds with it, so every
/// recorded seed is a valid fixture seed.
pub mod seed {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// What a seed must be, for error messages.
    pub const EXPECTED: &str = "a seed is a whole number from 0 to 18446744073709551615 \
         (above 9223372036854775807, written as text in quotes)";

    /// Writes the seed as a TOML integer, or as text above `i64::MAX`.
    ///
    /// # Errors
    /// Whatever the serializer reports.
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

    /// Reads a seed written as an integer or as text.
    ///
    /// # Errors
    /// A message saying what a seed must be.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        d.deserialize_any(SeedVisitor)
    }

    struct SeedVisitor;

    impl<'de> Visitor<'de> for SeedVisitor {
        type Value = Option<u64>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(EXPECTED)
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            u64::try_from(v)
                .map(Some)
                .map_err(|_| E::custom(format!("seed {v} is negative: {EXPECTED}")))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            crate::whole_number(v).map(Some).map_err(|_| {
                E::custom(format!(
                    "seed `{}` is not a whole number from 0 to 2^64-1: {EXPECTED}",
                    crate::echo(v)
                ))
            })
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
    }
}

/// Reads a transcript-like file (a transcript, a fixture, a settings file)
/// as text, refusing before reading anything what is not a regular file
/// (`/dev/zero`, a folder, a pipe) or is larger than [`MAX_FILE_BYTES`],
/// and locating the first byte that is not UTF-8.
///
/// # Errors
/// [`TranscriptError::NotAFile`], [`TranscriptError::TooLarge`],
/// [`TranscriptError::Io`], or [`TranscriptError::Syntax`] for text that is
/// not UTF-8.
pub fn read_text(path: &Path) -> Result<String, TranscriptError> {
    let io = |source| TranscriptError::Io {
        path: path.to_owned(),
        source,
    };
    // Asked before opening: opening a pipe would wait for a writer.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(TranscriptError::NotAFile {
            path: path.to_owned(),
        });
    }
    let too_large = |bytes| TranscriptError::TooLarge {
        path: path.to_owned(),
        bytes,
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    // The file may have grown since it was measured.
    let read = bytes.len() as u64;
    if read > MAX_FILE_BYTES {
        return Err(too_large(read));
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let text = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let (line, column) = line_column(text, valid);
        TranscriptError::Syntax {
            path: path.to_owned(),
            line,
            column,
            message: format!("not UTF-8 text (byte 0x{:02x})", bytes[valid]),
        }
    })
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

/// Line and column (from 1; the column in characters) of a byte offset in
/// `text`, as error messages give them.
///
/// ```
/// assert_eq!(game_api::transcript::line_column("ab\ncd", 4), (2, 2));
/// ```
#[must_use]
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
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
        let text = "game = \"nim\"\nmoves = []\nseed = \"18446744073709551615\"\n";
        assert_eq!(
            Transcript::from_toml(text, "t.toml").unwrap().seed,
            Some(u64::MAX)
        );
    }

    #[test]
    fn unknown_keys_are_refused_with_their_place() {
        let err = Transcript::from_toml(
            "game = \"connect4\"\nmoves = []\n[optons]\nrows = 5\n",
            "t.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("t.toml:3:") && err.contains("optons"),
            "{err}"
        );
        let err = Transcript::from_toml(
            "game = \"nim\"\nmoves = []\n[players]\np1 = \"a\"\np2 = \"b\"\np3 = \"c\"\n",
            "t.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("t.toml:6:"), "{err}");
    }

    #[test]
    fn a_bad_seed_says_what_a_seed_must_be() {
        for (seed, said) in [
            ("-3", "seed -3 is negative"),
            ("\"x\"", "seed `x` is not a whole number"),
            ("1.5", "a seed is a whole number"),
        ] {
            let text = format!("game = \"nim\"\nmoves = []\nseed = {seed}\n");
            let err = Transcript::from_toml(&text, "t.toml")
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("t.toml:3:") && err.contains(said), "{err}");
            assert!(!err.contains("untagged"), "{err}");
        }
    }

    #[test]
    fn read_text_refuses_folders_and_locates_bytes_that_are_not_utf8() {
        let dir = std::env::temp_dir().join(format!("game-api-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = read_text(&dir).unwrap_err();
        assert!(matches!(err, TranscriptError::NotAFile { .. }), "{err}");
        let path = dir.join("latin1.toml");
        std::fs::write(&path, b"game = \"nim\"\nmoves = [\"caf\xe9\"]\n").unwrap();
        let err = read_text(&path).unwrap_err().to_string();
        assert!(
            err.ends_with("latin1.toml:2:14: not UTF-8 text (byte 0xe9)"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
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
