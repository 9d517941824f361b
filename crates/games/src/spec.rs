//! Player specifications as typed on the command line (`human`, `random`,
//! `minimax:depth=4`, `ai:time=500ms`): parsed once into [`PlayerSpec`], so
//! the rest of the program never sees a malformed player.

use game_api::{echo, whole_number};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// The taught minimax's depth when none is given: it has no pruning, and
/// 5 plies stay instant even on the standard Connect-4 board (7^5 positions).
pub const DEFAULT_MINIMAX_DEPTH: u32 = 5;

/// The engine's time budget per move when neither depth nor time is given:
/// "answers within about a second" on the standard Connect-4 board.
pub const DEFAULT_AI_TIME: Duration = Duration::from_millis(900);

/// Who plays one side of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A person typing moves.
    Human,
    /// A uniformly random legal move.
    Random,
    /// The course's minimax, to a fixed depth.
    Minimax {
        /// Plies searched.
        depth: u32,
    },
    /// The engine, limited by depth, time, or both.
    Ai(AiLimits),
}

/// How long the engine may search: a depth, a time budget, or both (it stops
/// at whichever comes first). At least one is always set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiLimits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The time budget.
    pub time: Option<Duration>,
}

impl Default for AiLimits {
    fn default() -> Self {
        AiLimits {
            depth: None,
            time: Some(DEFAULT_AI_TIME),
        }
    }
}

impl fmt::Display for AiLimits {
    /// The limits as `depth=N:time=T`, each part only when set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(t) = self.time {
            parts.push(format!("time={}", humantime::format_duration(t)));
        }
        f.write_str(&parts.join(":"))
    }
}

/// A player specification that cannot be used, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// The kind before the first `:` is not a player.
    #[error("unknown player `{}`: expected human, random, minimax[:depth=N] or ai[:depth=N][:time=DURATION]", echo(.0))]
    UnknownKind(String),
    /// A `name=value` part the player does not take.
    #[error(
        "player `{}` has no setting `{}` (it takes: {takes})",
        echo(kind),
        echo(part)
    )]
    UnknownSetting {
        /// The player kind.
        kind: String,
        /// The part as given.
        part: String,
        /// What it does take.
        takes: &'static str,
    },
    /// A depth that is not a positive whole number.
    #[error("`depth={}` is not a depth: expected a whole number of plies from 1", echo(.0))]
    BadDepth(String),
    /// A duration that does not parse.
    #[error(
        "`time={}` is not a duration ({}): write e.g. 500ms, 2s or 1m",
        echo(value),
        echo(reason)
    )]
    BadTime {
        /// The text as given.
        value: String,
        /// What the duration parser said.
        reason: String,
    },
    /// A setting given twice.
    #[error("`{}` is given twice", echo(.0))]
    Repeated(String),
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// Reads `human`, `random`, `minimax[:depth=N]` or
    /// `ai[:depth=N][:time=DURATION]` (case-insensitive kind; `engine` is an
    /// alias of `ai`).
    fn from_str(text: &str) -> Result<Self, SpecError> {
        let mut parts = text.trim().split(':').map(str::trim);
        let kind = parts.next().unwrap_or_default().to_ascii_lowercase();
        let mut depth = None;
        let mut time = None;
        let (settings, takes): (&[&str], _) = match kind.as_str() {
            "human" | "random" => (&[], "nothing"),
            "minimax" => (&["depth"], "depth=N"),
            "ai" | "engine" => (&["depth", "time"], "depth=N, time=DURATION"),
            _ => return Err(SpecError::UnknownKind(text.trim().to_owned())),
        };
        for part in parts {
            let unknown = || SpecError::UnknownSetting {
                kind: kind.clone(),
                part: part.to_owned(),
                takes,
            };
            let (name, value) = part.split_once('=').ok_or_else(unknown)?;
            let name = name.trim();
            if !settings.contains(&name) {
                return Err(unknown());
            }
            match name {
                "depth" => {
                    let d = whole_number::<u32>(value.trim()).ok().filter(|d| *d > 0);
                    let d = d.ok_or_else(|| SpecError::BadDepth(value.trim().to_owned()))?;
                    if depth.replace(d).is_some() {
                        return Err(SpecError::Repeated("depth".into()));
                    }
                }
                _ => {
                    let t = humantime::parse_duration(value.trim()).map_err(|e| {
                        SpecError::BadTime {
                            value: value.trim().to_owned(),
                            reason: e.to_string(),
                        }
                    })?;
                    if time.replace(t).is_some() {
                        return Err(SpecError::Repeated("time".into()));
                    }
                }
            }
        }
        Ok(match kind.as_str() {
            "human" => PlayerSpec::Human,
            "random" => PlayerSpec::Random,
            "minimax" => PlayerSpec::Minimax {
                depth: depth.unwrap_or(DEFAULT_MINIMAX_DEPTH),
            },
            _ if depth.is_none() && time.is_none() => PlayerSpec::Ai(AiLimits::default()),
            _ => PlayerSpec::Ai(AiLimits { depth, time }),
        })
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical form, with every setting spelled out, as recorded in
    /// transcripts; it parses back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Human => f.write_str("human"),
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Minimax { depth } => write!(f, "minimax:depth={depth}"),
            PlayerSpec::Ai(limits) => write!(f, "ai:{limits}"),
        }
    }
}

/// Reads `--table-mb`: a whole number of MiB that the engine accepts
/// (`players::check_table_megabytes`, the one check of table sizes).
///
/// # Errors
/// The reason, for clap to show with the option's name.
pub fn table_megabytes(text: &str) -> Result<usize, String> {
    let megabytes = game_api::whole_number::<usize>(text.trim()).map_err(|e| {
        format!(
            "{e}: give the table's size in MiB, from {} to {}",
            players::MIN_TABLE_MEGABYTES,
            players::max_table_megabytes()
        )
    })?;
    players::check_table_megabytes(megabytes).map_err(|e| e.to_string())
}

impl PlayerSpec {
    /// Whether this side is played by a person at the keyboard.
    #[must_use]
    pub fn is_human(&self) -> bool {
        matches!(self, PlayerSpec::Human)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        text.parse()
    }

    #[test]
    fn plain_kinds_parse_case_insensitively() {
        assert_eq!(parse("human"), Ok(PlayerSpec::Human));
        assert_eq!(parse(" Random "), Ok(PlayerSpec::Random));
        assert_eq!(
            parse("MINIMAX"),
            Ok(PlayerSpec::Minimax {
                depth: DEFAULT_MINIMAX_DEPTH
            })
        );
        assert_eq!(parse("ai"), Ok(PlayerSpec::Ai(AiLimits::default())));
        assert_eq!(parse("engine"), Ok(PlayerSpec::Ai(AiLimits::default())));
    }

    #[test]
    fn ai_takes_depth_and_time_in_any_order() {
        let both = AiLimits {
            depth: Some(8),
            time: Some(Duration::from_millis(1500)),
        };
        assert_eq!(parse("ai:depth=8:time=1500ms"), Ok(PlayerSpec::Ai(both)));
        assert_eq!(parse("ai:time=1.5s:depth=8"), Ok(PlayerSpec::Ai(both)));
        assert_eq!(
            parse("ai:depth=3"),
            Ok(PlayerSpec::Ai(AiLimits {
                depth: Some(3),
                time: None
            })),
            "a depth alone means no time limit, so games are reproducible"
        );
        assert_eq!(
            parse("ai:time=2s"),
            Ok(PlayerSpec::Ai(AiLimits {
                depth: None,
                time: Some(Duration::from_secs(2))
            }))
        );
    }

    #[test]
    fn minimax_takes_a_depth() {
        assert_eq!(
            parse("minimax:depth=3"),
            Ok(PlayerSpec::Minimax { depth: 3 })
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        assert_eq!(
            parse("alphazero"),
            Err(SpecError::UnknownKind("alphazero".into()))
        );
        assert_eq!(
            parse("minimax:depth=0"),
            Err(SpecError::BadDepth("0".into()))
        );
        assert_eq!(
            parse("minimax:depth=deep"),
            Err(SpecError::BadDepth("deep".into()))
        );
        assert!(matches!(
            parse("minimax:time=1s"),
            Err(SpecError::UnknownSetting { .. })
        ));
        assert!(matches!(
            parse("human:depth=2"),
            Err(SpecError::UnknownSetting { .. })
        ));
        assert!(matches!(
            parse("ai:fast"),
            Err(SpecError::UnknownSetting { .. })
        ));
        assert!(matches!(
            parse("ai:time=soon"),
            Err(SpecError::BadTime { .. })
        ));
        assert_eq!(
            parse("ai:depth=2:depth=3"),
            Err(SpecError::Repeated("depth".into()))
        );
        let msg = parse("ai:time=soon").unwrap_err().to_string();
        assert!(msg.contains("time=soon") && msg.contains("500ms"), "{msg}");
    }

    #[test]
    fn display_parses_back_to_the_same_spec() {
        for text in [
            "human",
            "random",
            "minimax",
            "minimax:depth=2",
            "ai",
            "ai:depth=7",
            "ai:time=250ms",
            "ai:depth=4:time=3s",
        ] {
            let spec = parse(text).unwrap();
            assert_eq!(
                parse(&spec.to_string()),
                Ok(spec.clone()),
                "{text} -> {spec}"
            );
        }
        assert_eq!(parse("ai").unwrap().to_string(), "ai:time=900ms");
    }
}
