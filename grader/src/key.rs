//! Answer keys: what our reference game answers along a fixture.
//!
//! A key is recorded by replaying a fixture against the reference crate
//! (in-process, through the same [`Session`] code a driver uses) and is kept
//! as an insta snapshot in `grader/tests/snapshots/`, reviewed with
//! `cargo insta review` whenever a game or a fixture changes. Per move it
//! holds the move, the status, the legal moves (in [`canonical_order`]), the
//! payoff's sign once the game is over, and the rendering (for people;
//! never judged). It records the fixture's version, so a key that no longer
//! matches its fixture is refused instead of silently misgrading.
//!
//! [`canonical_order`]: crate::protocol::canonical_order

use crate::fixture::{Fixture, Goal};
use crate::protocol::{Observation, Request, Response};
use crate::sandbox::{Driver, Failure};
use crate::session::Session;
use game_api::{Configurable, Game, Options, Status};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Anything that answers protocol requests: an in-process [`Session`] or a
/// driver process.
pub trait Engine {
    /// Answers one request.
    ///
    /// # Errors
    /// [`Failure`] when no usable answer came (only a process can fail so).
    fn ask(&mut self, request: &Request) -> Result<Response, Failure>;
}

impl<G: Game + Configurable> Engine for Session<G> {
    fn ask(&mut self, request: &Request) -> Result<Response, Failure> {
        Ok(self.handle(request))
    }
}

impl Engine for Driver {
    fn ask(&mut self, request: &Request) -> Result<Response, Failure> {
        self.call(request)
    }
}

/// One position along a fixture, as the reference saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyStep {
    /// How many of the fixture's moves have been played.
    pub moves: usize,
    /// The move just played (none for the initial state).
    pub played: Option<String>,
    /// The status.
    pub status: Status,
    /// The legal moves, in canonical order.
    pub legal: Vec<String>,
    /// The payoff's sign (-1, 0 or 1) once the game is over.
    pub payoff_sign: Option<i32>,
    /// The rendering, line by line (not judged).
    pub rendering: Vec<String>,
}

/// What the reference answered to one of the fixture's checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyCheck {
    /// After how many moves.
    pub after: usize,
    /// `nonsense <text>`, `illegal <move>` or `ai depth=<d>`.
    pub check: String,
    /// `rejected`, `refused`, or `chose <move>`.
    pub reference: String,
}

/// An answer key for one fixture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerKey {
    /// The game.
    pub game: String,
    /// The fixture's name.
    pub fixture: String,
    /// The fixture's version when the key was recorded.
    pub fixture_version: String,
    /// The options.
    pub options: Options,
    /// Every position, the initial one first.
    pub steps: Vec<KeyStep>,
    /// The checks, in the order they are made.
    pub checks: Vec<KeyCheck>,
}

/// A key that cannot be recorded or used.
#[derive(Debug, Error)]
pub enum KeyError {
    /// The reference does not do what the fixture says it should.
    #[error("{path}: the reference game disagrees with this fixture: {message}")]
    Disagrees {
        /// The fixture file.
        path: PathBuf,
        /// What happened.
        message: String,
    },
    /// No key file for a fixture.
    #[error("no answer key for fixture {fixture} (expected {key}): record and review the keys with `cargo xtask keys --review`")]
    Missing {
        /// The fixture file.
        fixture: PathBuf,
        /// Where the key should be.
        key: PathBuf,
    },
    /// The key was recorded from another version of the fixture.
    #[error("the answer key {key} was recorded from another version of {fixture}: record and review the keys with `cargo xtask keys --review`")]
    Stale {
        /// The fixture file.
        fixture: PathBuf,
        /// The key file.
        key: PathBuf,
    },
    /// The key file is not a key.
    #[error("{key}: not an answer key: {message}")]
    Corrupt {
        /// The key file.
        key: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Where a fixture's check stands in the walk.
#[derive(Clone, Copy, Debug)]
pub enum Check<'a> {
    /// A nonsense text.
    Nonsense(&'a crate::fixture::NonsenseCheck),
    /// An illegal move.
    Illegal(&'a crate::fixture::IllegalCheck),
    /// An AI check.
    Ai(&'a crate::fixture::AiCheck),
}

impl Check<'_> {
    fn request(self) -> Request {
        match self {
            Check::Nonsense(c) => Request::Try {
                text: c.text.clone(),
            },
            Check::Illegal(c) => Request::Try { text: c.mv.clone() },
            Check::Ai(c) => Request::Ai { depth: c.depth },
        }
    }

    fn label(self) -> String {
        match self {
            Check::Nonsense(c) => format!("nonsense {:?}", c.text),
            Check::Illegal(c) => format!("illegal {}", c.mv),
            Check::Ai(c) => format!("ai depth={}", c.depth),
        }
    }

    /// The check as Rust code a student can run, given `game` and `state`.
    fn probe(self) -> String {
        match self {
            Check::Nonsense(c) => format!("assert!(game.move_of_string({:?}).is_err());", c.text),
            Check::Illegal(c) => format!(
                "if let Ok(mv) = game.move_of_string({:?}) {{\n    assert!(game.next_state(state, &mv).is_err());\n}}",
                c.mv
            ),
            Check::Ai(c) => format!(
                "// the course's minimax (players::Minimax) at depth {} should play {}\n\
                 let mut ai = players::Minimax::new(Some({}));\nprintln!(\"{{:?}}\", players::Agent::decide(&mut ai, &game, state));",
                c.depth,
                c.plays.join(" or "),
                c.depth
            ),
        }
    }

    /// Whether `reply` is what the fixture demands; `Err` says what is wrong.
    fn judge(self, reply: &Response) -> Result<String, String> {
        match (self, reply) {
            (Check::Nonsense(_), Response::Rejected { .. }) => Ok("rejected".into()),
            (Check::Nonsense(c), Response::Refused { .. } | Response::Accepted) => Err(format!(
                "expected: move_of_string({:?}) returns a ParseMoveError\ngot: it was read as a move",
                c.text
            )),
            (Check::Illegal(_), Response::Refused { .. }) => Ok("refused".into()),
            (Check::Illegal(_), Response::Rejected { .. }) => Ok("rejected".into()),
            (Check::Illegal(c), Response::Accepted) => {
                Err(format!("expected: next_state refuses the illegal move {}\ngot: it was accepted", c.mv))
            }
            (Check::Ai(c), Response::Chose { text }) if c.plays.contains(text) => Ok(format!("chose {text}")),
            (Check::Ai(c), Response::Chose { text }) => Err(format!(
                "expected: minimax at depth {} plays {} (the move that {})\ngot: it played {text}",
                c.depth,
                c.plays.join(" or "),
                match c.goal {
                    Goal::Win => "wins",
                    Goal::Block => "blocks the opponent's win",
                }
            )),
            (Check::Ai(c), Response::NoMove) => {
                Err(format!("expected: minimax at depth {} plays {}\ngot: it found no move", c.depth, c.plays.join(" or ")))
            }
            (_, other) => Err(unexpected(other)),
        }
    }
}

/// A departure from what was expected, with the moves that lead to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Departure {
    /// The moves played before it.
    pub moves: Vec<String>,
    /// Expected and got, in words.
    pub message: String,
    /// Whether the driver process failed (died, timed out...).
    pub process_failed: bool,
    /// The failing call as Rust code, given `game` and `state` (the
    /// position after `moves`).
    pub probe: Option<String>,
}

/// Replays `fixture` against `engine`: builds the game, observes every
/// position and makes every check, calling `step` on each position (which
/// may refuse it) and recording each check's verdict.
///
/// # Errors
/// The first [`Departure`]: a refused option or move, a failed check, a
/// position `step` refused, or a failed process.
pub fn walk(
    fixture: &Fixture,
    engine: &mut dyn Engine,
    mut step: impl FnMut(usize, Option<&str>, &Observation) -> Result<(), String>,
    mut checked: impl FnMut(usize, Check<'_>, String),
) -> Result<(), Departure> {
    let depart = |n: usize, message: String| Departure {
        moves: fixture.moves[..n].to_vec(),
        message,
        process_failed: false,
        probe: None,
    };
    let failed = |n: usize, f: Failure| Departure {
        moves: fixture.moves[..n].to_vec(),
        message: f.to_string(),
        process_failed: true,
        probe: None,
    };
    let play_probe = |text: &str| {
        format!("let mv = game.move_of_string({text:?}).unwrap();\nprintln!(\"{{:?}}\", game.next_state(state, &mv));")
    };
    match engine
        .ask(&Request::New {
            options: fixture.options.clone(),
        })
        .map_err(|f| failed(0, f))?
    {
        Response::Ready { .. } => {}
        Response::OptionsRefused { message } => {
            return Err(depart(
                0,
                format!(
                    "expected: from_options accepts `{}`\ngot: {message}",
                    fixture.options
                ),
            ))
        }
        other => return Err(depart(0, unexpected(&other))),
    }
    for n in 0..=fixture.moves.len() {
        let request = match n {
            0 => Request::Observe,
            _ => Request::Play {
                text: fixture.moves[n - 1].clone(),
            },
        };
        let played = n.checked_sub(1).map(|i| fixture.moves[i].as_str());
        let on_play = |d: Departure| Departure {
            probe: played.map(play_probe),
            ..d
        };
        let reply = engine
            .ask(&request)
            .map_err(|f| on_play(failed(n.saturating_sub(1), f)))?;
        let observation = match reply {
            Response::Observed(o) => o,
            Response::Rejected { message } | Response::Refused { message } => {
                return Err(on_play(depart(
                    n - 1,
                    format!(
                        "expected: the move {} is accepted\ngot: {message}",
                        fixture.moves[n - 1]
                    ),
                )))
            }
            other => return Err(on_play(depart(n.saturating_sub(1), unexpected(&other)))),
        };
        step(n, played, &observation).map_err(|m| depart(n, m))?;
        let checks = fixture
            .nonsense
            .iter()
            .filter(|c| c.after == n)
            .map(Check::Nonsense)
            .chain(
                fixture
                    .illegal
                    .iter()
                    .filter(|c| c.after == n)
                    .map(Check::Illegal),
            )
            .chain(fixture.ai.iter().filter(|c| c.after == n).map(Check::Ai));
        for check in checks {
            let with_probe = |d: Departure| Departure {
                probe: Some(check.probe()),
                ..d
            };
            let reply = engine
                .ask(&check.request())
                .map_err(|f| with_probe(failed(n, f)))?;
            let verdict = check.judge(&reply).map_err(|m| with_probe(depart(n, m)))?;
            checked(n, check, verdict);
        }
    }
    Ok(())
}

fn unexpected(reply: &Response) -> String {
    match reply {
        Response::Panicked { message } => format!("the game panicked: {message}"),
        Response::Error { message } => format!("the driver reported an error: {message}"),
        other => format!("an unexpected reply: {other:?}"),
    }
}

impl AnswerKey {
    /// Records the key of `fixture` by replaying it against `engine` (the
    /// reference game).
    ///
    /// # Errors
    /// [`KeyError::Disagrees`] when the reference refuses a move or fails a
    /// check: the fixture is wrong (or the reference is).
    pub fn record(fixture: &Fixture, engine: &mut dyn Engine) -> Result<AnswerKey, KeyError> {
        let mut steps = Vec::new();
        let mut checks = Vec::new();
        let result = walk(
            fixture,
            engine,
            |n, played, o| {
                steps.push(KeyStep {
                    moves: n,
                    played: played.map(str::to_owned),
                    status: o.status,
                    legal: o.legal.clone(),
                    payoff_sign: o.payoff.map(i32::signum),
                    rendering: o.rendering.lines().map(str::to_owned).collect(),
                });
                Ok(())
            },
            |after, check, reference| {
                checks.push(KeyCheck {
                    after,
                    check: check.label(),
                    reference,
                })
            },
        );
        result.map_err(|d| KeyError::Disagrees {
            path: fixture.path.clone(),
            message: format!(
                "after the moves [{}]: {}",
                d.moves.join(", "),
                d.message.replace('\n', "; ")
            ),
        })?;
        Ok(AnswerKey {
            game: fixture.game.clone(),
            fixture: fixture.name.clone(),
            fixture_version: fixture.version.clone(),
            options: fixture.options.clone(),
            steps,
            checks,
        })
    }

    /// The snapshot name of a fixture's key: `<game>__<file stem>`.
    #[must_use]
    pub fn snapshot_name(fixture: &Fixture) -> String {
        format!("{}__{}", fixture.game, fixture.stem())
    }

    /// Loads the key of `fixture` from the snapshot folder `dir`.
    ///
    /// # Errors
    /// [`KeyError`] when the key is missing, stale or unreadable.
    pub fn load(dir: &Path, fixture: &Fixture) -> Result<AnswerKey, KeyError> {
        let key = dir.join(format!(
            "answer_keys__{}.snap",
            Self::snapshot_name(fixture)
        ));
        let text = std::fs::read_to_string(&key).map_err(|_| KeyError::Missing {
            fixture: fixture.path.clone(),
            key: key.clone(),
        })?;
        let corrupt = |message: String| KeyError::Corrupt {
            key: key.clone(),
            message,
        };
        // An insta snapshot: `---`, a header, `---`, then the JSON body.
        let body = text
            .strip_prefix("---\n")
            .and_then(|rest| rest.split_once("\n---\n"))
            .map(|(_, body)| body)
            .ok_or_else(|| {
                corrupt("expected an insta snapshot (a header between two `---` lines)".into())
            })?;
        let parsed: AnswerKey = serde_json::from_str(body).map_err(|e| corrupt(e.to_string()))?;
        if parsed.fixture_version != fixture.version {
            return Err(KeyError::Stale {
                fixture: fixture.path.clone(),
                key,
            });
        }
        Ok(parsed)
    }

    /// Compares a submission's observation of position `n` with the key.
    ///
    /// # Errors
    /// Expected and got, in words, for the first difference (status, then
    /// legal moves, then the payoff's sign). The rendering is not compared.
    pub fn compare(&self, n: usize, got: &Observation) -> Result<(), String> {
        let Some(want) = self.steps.get(n) else {
            return Err(format!("the answer key has no position after {n} moves"));
        };
        if got.status != want.status {
            return Err(format!(
                "expected: game_status is `{}`\ngot: `{}`",
                want.status, got.status
            ));
        }
        if got.legal != want.legal {
            let missing: Vec<&str> = want
                .legal
                .iter()
                .filter(|m| !got.legal.contains(m))
                .map(String::as_str)
                .collect();
            let extra: Vec<&str> = got
                .legal
                .iter()
                .filter(|m| !want.legal.contains(m))
                .map(String::as_str)
                .collect();
            let mut message = format!(
                "expected: legal_moves are [{}]\ngot: [{}]",
                want.legal.join(" "),
                got.legal.join(" ")
            );
            if !missing.is_empty() {
                message += &format!("\nmissing: {}", missing.join(" "));
            }
            if !extra.is_empty() {
                message += &format!("\nlisted but not legal: {}", extra.join(" "));
            }
            if missing.is_empty() && extra.is_empty() {
                message += "\n(the same moves, but some are listed twice)";
            }
            return Err(message);
        }
        let sign = got.payoff.map(i32::signum);
        if sign != want.payoff_sign {
            let words = |s: Option<i32>| match s {
                None => "no payoff (the game goes on)".to_owned(),
                Some(1) => "a positive payoff (player 1 won)".to_owned(),
                Some(-1) => "a negative payoff (player 2 won)".to_owned(),
                Some(_) => "a payoff of 0 (a draw)".to_owned(),
            };
            return Err(format!(
                "expected: {}\ngot: {} (payoff {:?})",
                words(want.payoff_sign),
                words(sign),
                got.payoff
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_api::Player;

    fn key() -> AnswerKey {
        AnswerKey {
            game: "g".into(),
            fixture: "f".into(),
            fixture_version: "sha256:0".into(),
            options: Options::new(),
            steps: vec![KeyStep {
                moves: 0,
                played: None,
                status: Status::Win(Player::P2),
                legal: vec![],
                payoff_sign: Some(-1),
                rendering: vec![],
            }],
            checks: vec![],
        }
    }

    fn seen(status: Status, legal: &[&str], payoff: Option<i32>) -> Observation {
        Observation {
            status,
            legal: legal.iter().map(|m| (*m).to_owned()).collect(),
            payoff,
            rendering: "not judged".into(),
        }
    }

    #[test]
    fn the_same_answers_with_another_drawing_and_payoff_scale_pass() {
        assert_eq!(
            key().compare(0, &seen(Status::Win(Player::P2), &[], Some(-18))),
            Ok(())
        );
    }

    #[test]
    fn a_wrong_status_is_reported_before_anything_else() {
        let e = key()
            .compare(0, &seen(Status::Ongoing(Player::P1), &["1"], None))
            .unwrap_err();
        assert_eq!(
            e,
            "expected: game_status is `Player 2 wins`\ngot: `Player 1 to move`"
        );
    }

    #[test]
    fn wrong_legal_moves_list_what_is_missing_and_what_is_extra() {
        let mut k = key();
        k.steps[0].status = Status::Ongoing(Player::P1);
        k.steps[0].legal = vec!["1".into(), "2".into()];
        k.steps[0].payoff_sign = None;
        let e = k
            .compare(0, &seen(Status::Ongoing(Player::P1), &["0", "1"], None))
            .unwrap_err();
        assert_eq!(
            e,
            "expected: legal_moves are [1 2]\ngot: [0 1]\nmissing: 2\nlisted but not legal: 0"
        );
        let e = k
            .compare(
                0,
                &seen(Status::Ongoing(Player::P1), &["1", "1", "2"], None),
            )
            .unwrap_err();
        assert!(
            e.ends_with("(the same moves, but some are listed twice)"),
            "{e}"
        );
    }

    #[test]
    fn a_payoff_of_the_wrong_sign_fails() {
        let e = key()
            .compare(0, &seen(Status::Win(Player::P2), &[], Some(1)))
            .unwrap_err();
        assert!(
            e.starts_with("expected: a negative payoff (player 2 won)\ngot: a positive payoff"),
            "{e}"
        );
    }

    #[test]
    fn a_position_past_the_key_is_reported() {
        assert!(key()
            .compare(3, &seen(Status::Draw, &[], Some(0)))
            .unwrap_err()
            .contains("no position after 3 moves"));
    }
}
