//! Fixtures: the teacher's test cases, as TOML files under `fixtures/<game>/`.
//!
//! A fixture is a transcript (`game`, `moves`, `[options]`, and the optional
//! `[players]` and `seed` that `games play --record` writes) plus what to
//! check along the way. Any recorded transcript is a valid fixture as it is:
//! its name defaults to the file stem, it is worth 1 point, visible, and it
//! checks the status and the legal moves after every move.
//!
//! ```toml
//! game = "connect4"
//! moves = ["1", "2", "1", "2", "1", "2", "1"]
//! name = "vertical win in the first column"   # default: the file stem
//! points = 2                                  # default 1
//! visibility = "visible"   # or "after_due_date", "after_published", "hidden"
//!                          # (points of those count only after the due date:
//!                          # Visibility::counts; a hidden one should have none)
//! group = "wins"           # the gradebook column; default "fixtures"
//! tags = ["wins", "vertical", "edge"]
//!
//! [options]
//! rows = 6
//! cols = 7
//!
//! [[nonsense]]             # text that move_of_string must reject
//! after = 0                # after the first 0 moves; default: after all of them
//! text = "banana"
//!
//! [[illegal]]              # a move that parses but next_state must refuse
//! move = "3"
//!
//! [[ai]]                   # minimax at `depth` must play one of `plays`
//! after = 6
//! depth = 2
//! plays = ["1"]
//! goal = "win"             # or "block": said in the feedback
//! ```
//!
//! Unknown keys are errors, so a typo never silently drops a check; every
//! error names the file, line and column and what was expected.

use game_api::transcript::{line_column, parse_toml, read_text, Players, TranscriptError};
use game_api::Options;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;
use toml::Spanned;

/// Who may see a test's result, as in Gradescope.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Always shown.
    #[default]
    Visible,
    /// Never shown to students.
    Hidden,
    /// Shown once the due date has passed.
    AfterDueDate,
    /// Shown once the grades are published.
    AfterPublished,
}

impl Visibility {
    /// Whether a test of this visibility counts towards a result's score and
    /// maximum: a visible one always, any other only in a grading run after
    /// the due date (`--after-due-date`). So no total a student sees before
    /// the due date gives away the result of a check they cannot see.
    ///
    /// ```
    /// use grader::fixture::Visibility;
    /// assert!(Visibility::Visible.counts(false));
    /// assert!(!Visibility::Hidden.counts(false) && Visibility::Hidden.counts(true));
    /// ```
    #[must_use]
    pub fn counts(self, after_due_date: bool) -> bool {
        self == Visibility::Visible || after_due_date
    }
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        })
    }
}

/// Why an AI check expects its move (for the feedback's wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// The move wins.
    Win,
    /// The move stops the opponent from winning.
    Block,
}

/// Text that `move_of_string` must reject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonsenseCheck {
    /// After how many of the fixture's moves.
    pub after: usize,
    /// The text.
    pub text: String,
}

/// A move that parses but that `next_state` must refuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalCheck {
    /// After how many of the fixture's moves.
    pub after: usize,
    /// The move, in the game's notation.
    pub mv: String,
}

/// The course's minimax, run on the submission, must choose one of `plays`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiCheck {
    /// After how many of the fixture's moves.
    pub after: usize,
    /// Search depth in plies.
    pub depth: u32,
    /// The acceptable moves.
    pub plays: Vec<String>,
    /// Whether they win or block.
    pub goal: Goal,
}

/// A fixture, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Fixture {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its name in reports (defaults to the file stem).
    pub name: String,
    /// What it is about, for the feedback.
    pub description: Option<String>,
    /// The game's name.
    pub game: String,
    /// The options the game is built with.
    pub options: Options,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// Points for passing it.
    pub points: f64,
    /// Who sees the result.
    pub visibility: Visibility,
    /// The gradebook column it counts towards.
    pub group: String,
    /// Tags, for `--only TAG`.
    pub tags: Vec<String>,
    /// Nonsense texts to reject.
    pub nonsense: Vec<NonsenseCheck>,
    /// Illegal moves to refuse.
    pub illegal: Vec<IllegalCheck>,
    /// AI checks.
    pub ai: Vec<AiCheck>,
    /// `sha256:` of the file's bytes: the version results record.
    pub version: String,
}

/// A fixture that cannot be used.
#[derive(Debug, Error)]
pub enum FixtureError {
    /// Not valid TOML, or not a fixture (unknown key, wrong type...).
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
    /// Reading a folder failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said (shown in the message, not as a cause, so
        /// it is printed once).
        error: std::io::Error,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFixture {
    game: Spanned<String>,
    moves: Vec<String>,
    #[serde(default)]
    options: Options,
    // Accepted (and checked) so that recorded transcripts are fixtures.
    #[serde(default, rename = "players")]
    _players: Option<Players>,
    #[serde(default, rename = "seed", with = "game_api::transcript::seed")]
    _seed: Option<u64>,
    name: Option<String>,
    description: Option<String>,
    points: Option<Spanned<f64>>,
    #[serde(default)]
    visibility: Visibility,
    group: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    nonsense: Vec<RawNonsense>,
    #[serde(default)]
    illegal: Vec<RawIllegal>,
    #[serde(default)]
    ai: Vec<RawAi>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNonsense {
    after: Option<Spanned<usize>>,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIllegal {
    after: Option<Spanned<usize>>,
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAi {
    after: Option<Spanned<usize>>,
    depth: Spanned<u32>,
    plays: Spanned<Vec<String>>,
    goal: Goal,
}

impl Fixture {
    /// Reads a fixture from TOML text; `path` names it in errors and gives
    /// the default name.
    ///
    /// ```
    /// use grader::fixture::Fixture;
    /// let f = Fixture::from_toml("game = \"nim\"\nmoves = [\"1\"]\n", "fixtures/nim/one.toml").unwrap();
    /// assert_eq!((f.name.as_str(), f.points), ("one", 1.0));
    /// let err = Fixture::from_toml("game = \"nim\"\nmoves = []\npoints = -1\n", "bad.toml").unwrap_err();
    /// assert!(err.to_string().starts_with("bad.toml:3:10: "), "{err}");
    /// ```
    ///
    /// # Errors
    /// [`FixtureError`] locating the problem.
    pub fn from_toml(text: &str, path: impl AsRef<Path>) -> Result<Self, FixtureError> {
        let path = path.as_ref();
        let raw: RawFixture = parse_toml(text, path)?;
        let invalid = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_column(text, span.start);
            FixtureError::Invalid {
                path: path.to_owned(),
                line,
                column,
                message,
            }
        };
        let n = raw.moves.len();
        let after = |a: Option<Spanned<usize>>| match a {
            None => Ok(n),
            Some(a) if *a.get_ref() <= n => Ok(*a.get_ref()),
            Some(a) => Err(invalid(
                a.span(),
                format!(
                    "`after = {}` is past the end of the moves: expected a number from 0 to {n}",
                    a.get_ref()
                ),
            )),
        };
        let points = match raw.points {
            None => 1.0,
            Some(p) if p.get_ref().is_finite() && *p.get_ref() >= 0.0 => *p.get_ref(),
            Some(p) => {
                return Err(invalid(
                    p.span(),
                    format!(
                        "`points = {}`: expected a finite number of points, 0 or more",
                        p.get_ref()
                    ),
                ))
            }
        };
        if raw.game.get_ref().trim().is_empty() {
            return Err(invalid(raw.game.span(), "expected a game name".into()));
        }
        let nonsense = raw
            .nonsense
            .into_iter()
            .map(|c| {
                Ok(NonsenseCheck {
                    after: after(c.after)?,
                    text: c.text,
                })
            })
            .collect::<Result<_, FixtureError>>()?;
        let illegal = raw
            .illegal
            .into_iter()
            .map(|c| {
                Ok(IllegalCheck {
                    after: after(c.after)?,
                    mv: c.mv,
                })
            })
            .collect::<Result<_, FixtureError>>()?;
        let ai = raw
            .ai
            .into_iter()
            .map(|c| {
                if *c.depth.get_ref() == 0 {
                    return Err(invalid(
                        c.depth.span(),
                        "expected a depth of at least 1".into(),
                    ));
                }
                if c.plays.get_ref().is_empty() {
                    return Err(invalid(
                        c.plays.span(),
                        "expected at least one move in `plays`".into(),
                    ));
                }
                Ok(AiCheck {
                    after: after(c.after)?,
                    depth: *c.depth.get_ref(),
                    plays: c.plays.into_inner(),
                    goal: c.goal,
                })
            })
            .collect::<Result<_, FixtureError>>()?;
        let stem = path
            .file_stem()
            .map_or_else(|| "fixture".into(), |s| s.to_string_lossy().into_owned());
        Ok(Fixture {
            path: path.to_owned(),
            name: raw.name.unwrap_or(stem),
            description: raw.description,
            game: raw.game.into_inner(),
            options: raw.options,
            moves: raw.moves,
            points,
            visibility: raw.visibility,
            group: raw.group.unwrap_or_else(|| "fixtures".into()),
            tags: raw.tags,
            nonsense,
            illegal,
            ai,
            version: content_version(text.as_bytes()),
        })
    }

    /// Reads a fixture file: as a transcript is read (only a regular file
    /// of at most [`game_api::transcript::MAX_FILE_BYTES`], UTF-8).
    ///
    /// # Errors
    /// [`FixtureError`] when it cannot be read or is not a valid fixture.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, FixtureError> {
        let path = path.as_ref();
        Self::from_toml(&read_text(path)?, path)
    }

    /// The file stem, which names the fixture's answer key.
    #[must_use]
    pub fn stem(&self) -> String {
        self.path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    }
}

/// Reads every `*.toml` fixture in `dir` (sorted by file name) and checks
/// they are all for `game` and have distinct names.
///
/// # Errors
/// The first [`FixtureError`] met.
pub fn load_dir(dir: &Path, game: &str) -> Result<Vec<Fixture>, FixtureError> {
    let io = |error| FixtureError::Io {
        path: dir.to_owned(),
        error,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    paths.retain(|p| p.extension().is_some_and(|e| e == "toml"));
    paths.sort();
    let mut fixtures: Vec<Fixture> = Vec::with_capacity(paths.len());
    for path in paths {
        let f = Fixture::load(&path)?;
        let at_top = |message: String| FixtureError::Invalid {
            path: path.clone(),
            line: 1,
            column: 1,
            message,
        };
        if f.game != game {
            return Err(at_top(format!(
                "this fixture is for `{}`, but it is in the folder of `{game}`",
                f.game
            )));
        }
        if let Some(other) = fixtures.iter().find(|o| o.name == f.name) {
            return Err(at_top(format!(
                "the name `{}` is already used by {}",
                f.name,
                other.path.display()
            )));
        }
        fixtures.push(f);
    }
    Ok(fixtures)
}

/// `sha256:<hex>` of some bytes: how results record fixture versions.
#[must_use]
pub fn content_version(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_api::transcript::Transcript;

    fn err(text: &str) -> String {
        Fixture::from_toml(text, "f.toml").unwrap_err().to_string()
    }

    #[test]
    fn a_recorded_transcript_is_a_fixture_with_defaults() {
        let mut t = Transcript::new(
            "connect4",
            Options::new().with("rows", 6),
            vec!["4".into(), "3".into()],
        );
        t.players = Some(Players {
            p1: "human".into(),
            p2: "ai:depth=8".into(),
        });
        t.seed = Some(9);
        let f = Fixture::from_toml(&t.to_toml(), "fixtures/connect4/my-game.toml").unwrap();
        assert_eq!(f.name, "my-game");
        assert_eq!(f.moves, ["4", "3"]);
        assert_eq!(f.options.get("rows"), Some("6"));
        assert_eq!(
            (f.points, f.visibility, f.group.as_str()),
            (1.0, Visibility::Visible, "fixtures")
        );
        assert!(f.nonsense.is_empty() && f.illegal.is_empty() && f.ai.is_empty());
    }

    #[test]
    fn a_recorded_seed_above_2_63_is_a_fixture_seed() {
        let mut t = Transcript::new("nim", Options::new(), vec![]);
        t.seed = Some(u64::MAX);
        let text = t.to_toml();
        assert!(text.contains("seed = \"18446744073709551615\""), "{text}");
        Fixture::from_toml(&text, "f.toml").unwrap();
        let e = err("game = \"nim\"\nmoves = []\nseed = -3\n");
        assert!(
            e.starts_with("f.toml:3:") && e.contains("seed -3 is negative"),
            "{e}"
        );
    }

    #[test]
    fn a_folder_or_an_oversized_file_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("grader-fixture-big-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = Fixture::load(&dir).unwrap_err().to_string();
        assert!(e.ends_with("not a regular file"), "{e}");
        let big = dir.join("big.toml");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(game_api::transcript::MAX_FILE_BYTES + 1)
            .unwrap();
        let e = Fixture::load(&big).unwrap_err().to_string();
        assert!(e.contains("is too large"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn checks_default_to_the_end_of_the_moves() {
        let f = Fixture::from_toml(
            "game = \"nim\"\nmoves = [\"a\", \"b\"]\n[[nonsense]]\ntext = \"x\"\n[[illegal]]\nafter = 1\nmove = \"y\"\n\
             [[ai]]\ndepth = 3\nplays = [\"z\"]\ngoal = \"block\"\n",
            "f.toml",
        )
        .unwrap();
        assert_eq!(
            f.nonsense,
            [NonsenseCheck {
                after: 2,
                text: "x".into()
            }]
        );
        assert_eq!(
            f.illegal,
            [IllegalCheck {
                after: 1,
                mv: "y".into()
            }]
        );
        assert_eq!(
            f.ai,
            [AiCheck {
                after: 2,
                depth: 3,
                plays: vec!["z".into()],
                goal: Goal::Block
            }]
        );
    }

    #[test]
    fn a_misspelt_key_is_an_error_with_its_line() {
        let e = err("game = \"nim\"\nmoves = []\n[[ilegal]]\nmove = \"1\"\n");
        assert!(e.starts_with("f.toml:3:"), "{e}");
        assert!(e.contains("ilegal"), "{e}");
        let e = err("game = \"nim\"\nmoves = []\n[[illegal]]\nmvoe = \"1\"\n");
        assert!(e.starts_with("f.toml:4:1:"), "{e}");
    }

    #[test]
    fn after_past_the_end_points_at_the_value() {
        let e = err("game = \"nim\"\nmoves = [\"1\"]\n[[illegal]]\nafter = 5\nmove = \"1\"\n");
        assert_eq!(
            e,
            "f.toml:4:9: `after = 5` is past the end of the moves: expected a number from 0 to 1"
        );
    }

    #[test]
    fn bad_values_are_located_and_explained() {
        assert!(err("game = \"nim\"\nmoves = []\nvisibility = \"secret\"\n")
            .starts_with("f.toml:3:14:"));
        assert_eq!(
            err("game = \"nim\"\nmoves = []\n[[ai]]\ndepth = 0\nplays = [\"1\"]\ngoal = \"win\"\n"),
            "f.toml:4:9: expected a depth of at least 1"
        );
        assert_eq!(
            err("game = \"nim\"\nmoves = []\n[[ai]]\ndepth = 2\nplays = []\ngoal = \"win\"\n"),
            "f.toml:5:9: expected at least one move in `plays`"
        );
        assert!(err("game = \"nim\"\n").contains("moves"));
    }

    #[test]
    fn negative_nan_and_infinite_points_are_located_errors() {
        for (value, shown) in [
            ("-1", "-1"),
            ("nan", "NaN"),
            ("inf", "inf"),
            ("-inf", "-inf"),
        ] {
            assert_eq!(
                err(&format!("game = \"nim\"\nmoves = []\npoints = {value}\n")),
                format!("f.toml:3:10: `points = {shown}`: expected a finite number of points, 0 or more")
            );
        }
        let f = Fixture::from_toml("game = \"nim\"\nmoves = []\npoints = 0\n", "f.toml").unwrap();
        assert_eq!(f.points, 0.0);
    }

    #[test]
    fn the_version_changes_with_the_content() {
        let a = Fixture::from_toml("game = \"nim\"\nmoves = []\n", "f.toml").unwrap();
        let b = Fixture::from_toml("game = \"nim\"\nmoves = [ ]\n", "f.toml").unwrap();
        assert!(a.version.starts_with("sha256:") && a.version.len() == 7 + 64);
        assert_ne!(a.version, b.version);
    }

    #[test]
    fn load_dir_refuses_a_fixture_of_another_game_and_duplicate_names() {
        let dir = std::env::temp_dir().join(format!("grader-fixture-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a.toml"),
            "game = \"nim\"\nmoves = []\nname = \"same\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("b.toml"),
            "game = \"nim\"\nmoves = []\nname = \"same\"\n",
        )
        .unwrap();
        let e = load_dir(&dir, "nim").unwrap_err().to_string();
        assert!(
            e.contains("b.toml:1:1: the name `same` is already used"),
            "{e}"
        );
        let e = load_dir(&dir, "connect4").unwrap_err().to_string();
        assert!(e.contains("a.toml:1:1: this fixture is for `nim`"), "{e}");
        std::fs::write(dir.join("b.toml"), "game = \"nim\"\nmoves = []\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a fixture").unwrap();
        let names: Vec<String> = load_dir(&dir, "nim")
            .unwrap()
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["same", "b"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
