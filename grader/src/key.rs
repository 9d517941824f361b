//! Answer keys: what our reference game answers along a fixture, and the
//! walk that judges a submission against them.
//!
//! A key is recorded by walking a fixture on the reference game
//! (in-process) and is kept as an insta snapshot in
//! `grader/tests/snapshots/`, reviewed with `cargo insta review` whenever a
//! game or a fixture changes. It holds the whole game as
//! [`game_api::transcript::render`] writes it (the text a student's own
//! snapshot tests show: per move, the status, the legal moves in canonical
//! order, the board), for people reviewing it, and beside it what is judged:
//! per position the status, the legal moves and the payoff's sign, observed
//! by the same [`observe`] (never the board). It records the fixture's
//! version, so a key that no longer matches its fixture is refused instead
//! of silently misgrading.
//!
//! A submission is judged by the same [`walk`], in the grader process, on a
//! [`RemoteGame`](crate::remote::RemoteGame): the observations, the checks
//! and the course's minimax all run here, so a submission is always
//! observed exactly the way the keys were, and only the grader decides.

use crate::fixture::{Fixture, Goal};
use crate::remote::Stopped;
use game_api::transcript::{observe, render, Observation};
use game_api::{Configurable, Game, Options, Status};
use players::{Agent, Decision, Minimax};
use serde::{Deserialize, Serialize};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What is judged at one position along a fixture, as the reference saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyStep {
    /// How many of the fixture's moves have been played.
    pub moves: usize,
    /// The status.
    pub status: Status,
    /// The legal moves, in canonical order.
    pub legal: Vec<String>,
    /// The payoff's sign (-1, 0 or 1) once the game is over.
    pub payoff_sign: Option<i32>,
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
    /// The whole game as [`render`] writes it, line by line: for people
    /// reviewing the key (never judged).
    pub transcript: Vec<String>,
    /// What is judged at every position, the initial one first.
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

/// What a game answered to a check.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    /// `move_of_string` refused the text.
    Rejected,
    /// It parsed, and `next_state` refused it.
    Refused,
    /// It parsed and `next_state` accepted it.
    Accepted,
    /// The course's minimax chose this move.
    Chose(String),
    /// The course's minimax found no move.
    NoMove,
}

impl Check<'_> {
    /// Asks the game, in this process (a submission's game answers each
    /// interface call from its driver; the search runs here).
    fn run<G: Game>(self, game: &G, state: &G::State) -> Answer {
        let try_text = |text: &str| match game.move_of_string(text) {
            Err(_) => Answer::Rejected,
            Ok(mv) => match game.next_state(state, &mv) {
                Err(_) => Answer::Refused,
                Ok(_) => Answer::Accepted,
            },
        };
        match self {
            Check::Nonsense(c) => try_text(&c.text),
            Check::Illegal(c) => try_text(&c.mv),
            Check::Ai(c) => match Minimax::new(Some(c.depth)).decide(game, state) {
                Decision::Play(mv, _) => Answer::Chose(game.string_of_move(&mv)),
                _ => Answer::NoMove,
            },
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
                "// The course's minimax at depth {} should play {} here. It chooses by the\n\
                 // values your game_status, payoff and estimate_value give the positions below.\n\
                 for mv in game.legal_moves(state) {{\n    \
                 let next = game.next_state(state, &mv).unwrap();\n    \
                 println!(\"{{}}: {{:?}}, estimate {{}}\", game.string_of_move(&mv), game.game_status(&next), game.estimate_value(&next));\n\
                 }}",
                c.depth,
                c.plays.join(" or "),
            ),
        }
    }

    /// Whether `answer` is what the fixture demands; `Err` says what is wrong.
    fn judge(self, answer: &Answer) -> Result<String, String> {
        match (self, answer) {
            (Check::Nonsense(_), Answer::Rejected) => Ok("rejected".into()),
            (Check::Nonsense(c), Answer::Refused | Answer::Accepted) => Err(format!(
                "expected: move_of_string({:?}) returns a ParseMoveError\ngot: it was read as a move",
                c.text
            )),
            (Check::Illegal(_), Answer::Refused) => Ok("refused".into()),
            (Check::Illegal(_), Answer::Rejected) => Ok("rejected".into()),
            (Check::Illegal(c), Answer::Accepted) => {
                Err(format!("expected: next_state refuses the illegal move {}\ngot: it was accepted", c.mv))
            }
            (Check::Ai(c), Answer::Chose(text)) if c.plays.contains(text) => Ok(format!("chose {text}")),
            (Check::Ai(c), Answer::Chose(text)) => Err(format!(
                "expected: minimax at depth {} plays {} (the move that {})\ngot: it played {text}",
                c.depth,
                c.plays.join(" or "),
                match c.goal {
                    Goal::Win => "wins",
                    Goal::Block => "blocks the opponent's win",
                }
            )),
            (Check::Ai(c), Answer::NoMove) => {
                Err(format!("expected: minimax at depth {} plays {}\ngot: it found no move", c.depth, c.plays.join(" or ")))
            }
            (Check::Nonsense(_) | Check::Illegal(_), Answer::Chose(_) | Answer::NoMove)
            | (Check::Ai(_), Answer::Rejected | Answer::Refused | Answer::Accepted) => {
                unreachable!("a check gets answers of its own kind")
            }
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

/// The departure of a fixture whose options the game refused.
#[must_use]
pub fn options_refused(fixture: &Fixture, message: &str) -> Departure {
    Departure {
        moves: Vec::new(),
        message: format!(
            "expected: from_options accepts `{}`\ngot: {message}",
            fixture.options
        ),
        process_failed: false,
        probe: None,
    }
}

/// Replays `fixture` on `game`: observes every position and makes every
/// check, calling `step` on each position (which may refuse it) and
/// recording each check's verdict.
///
/// A panic in the game's code, or a failed process behind a
/// [`RemoteGame`](crate::remote::RemoteGame), ends the walk as a departure.
///
/// # Errors
/// The first [`Departure`]: a refused move, a failed check, a position
/// `step` refused, a panic or a failed process.
pub fn walk<G: Game>(
    fixture: &Fixture,
    game: &G,
    mut step: impl FnMut(usize, &Observation) -> Result<(), String>,
    mut checked: impl FnMut(usize, Check<'_>, String),
) -> Result<(), Departure> {
    let depart = |n: usize, message: String| Departure {
        moves: fixture.moves[..n].to_vec(),
        message,
        process_failed: false,
        probe: None,
    };
    // Runs one call of the game; a panic or a failed process departs at `n`.
    let guard = |n: usize, call: &mut dyn FnMut()| {
        catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
            let mut d = depart(n, String::new());
            if let Some(Stopped(failure)) = payload.downcast_ref::<Stopped>() {
                d.message = failure.to_string();
                d.process_failed = true;
            } else {
                d.message = format!("the game panicked: {}", panic_text(&*payload));
            }
            d
        })
    };
    let play_probe = |text: &str| {
        format!("let mv = game.move_of_string({text:?}).unwrap();\nprintln!(\"{{:?}}\", game.next_state(state, &mv));")
    };
    let mut state = None;
    guard(0, &mut || state = Some(game.initial_state()))?;
    let mut state = state.expect("set by the call");
    for n in 0..=fixture.moves.len() {
        let played = n.checked_sub(1).map(|i| fixture.moves[i].as_str());
        if let Some(text) = played {
            let with_probe = |d: Departure| Departure {
                probe: Some(play_probe(text)),
                ..d
            };
            let mut next = None;
            guard(n - 1, &mut || {
                next = Some(
                    game.move_of_string(text)
                        .map_err(|e| e.to_string())
                        .and_then(|mv| game.next_state(&state, &mv).map_err(|e| e.to_string())),
                );
            })
            .map_err(with_probe)?;
            state = next.expect("set by the call").map_err(|message| {
                with_probe(depart(
                    n - 1,
                    format!("expected: the move {text} is accepted\ngot: {message}"),
                ))
            })?;
        }
        let mut observation = None;
        guard(n, &mut || observation = Some(observe(game, &state)))?;
        let observation = observation.expect("set by the call");
        step(n, &observation).map_err(|m| depart(n, m))?;
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
            let mut answer = None;
            guard(n, &mut || answer = Some(check.run(game, &state))).map_err(with_probe)?;
            let verdict = check
                .judge(&answer.expect("set by the call"))
                .map_err(|m| with_probe(depart(n, m)))?;
            checked(n, check, verdict);
        }
    }
    Ok(())
}

/// The text of a panic's payload.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

impl AnswerKey {
    /// Records the key of `fixture` by walking it on the reference game `G`.
    ///
    /// # Errors
    /// [`KeyError::Disagrees`] when the reference refuses the options or a
    /// move, or fails a check: the fixture is wrong (or the reference is).
    pub fn record<G: Game + Configurable>(fixture: &Fixture) -> Result<AnswerKey, KeyError> {
        let disagrees = |message: String| KeyError::Disagrees {
            path: fixture.path.clone(),
            message,
        };
        let game = G::from_options(&fixture.options)
            .map_err(|e| disagrees(format!("from_options refused the options: {e}")))?;
        let mut steps = Vec::new();
        let mut checks = Vec::new();
        let result = walk(
            fixture,
            &game,
            |n, o| {
                steps.push(KeyStep {
                    moves: n,
                    status: o.status,
                    legal: o.legal.clone(),
                    payoff_sign: o.payoff.map(i32::signum),
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
        result.map_err(|d| {
            disagrees(format!(
                "after the moves [{}]: {}",
                d.moves.join(", "),
                d.message.replace('\n', "; ")
            ))
        })?;
        // The walk replayed every move, so this replay does too.
        let transcript = render(&game, &fixture.moves).map_err(|e| {
            disagrees(format!(
                "{e}: {}",
                std::error::Error::source(&e).map_or(String::new(), ToString::to_string)
            ))
        })?;
        Ok(AnswerKey {
            game: fixture.game.clone(),
            fixture: fixture.name.clone(),
            fixture_version: fixture.version.clone(),
            options: fixture.options.clone(),
            transcript: transcript.lines().map(str::to_owned).collect(),
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
    /// legal moves, then the payoff's sign). The board is not compared.
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
            transcript: vec![],
            steps: vec![KeyStep {
                moves: 0,
                status: Status::Win(Player::P2),
                legal: vec![],
                payoff_sign: Some(-1),
            }],
            checks: vec![],
        }
    }

    fn seen(status: Status, legal: &[&str], payoff: Option<i32>) -> Observation {
        Observation {
            status,
            legal: legal.iter().map(|m| (*m).to_owned()).collect(),
            payoff,
            board: "not judged".into(),
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
