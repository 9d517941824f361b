//! The line-based JSON protocol between the grader and a driver process.
//!
//! Student code never runs in the grading process. It runs in a driver (a
//! small program built against the submission, see [`crate::driver`]) that
//! answers one [`Request`] per line with one [`Response`] per line. The
//! grader only sends moves and questions; what the answers should be (the
//! answer keys, the hidden fixtures' expectations) never leaves the grader.

use game_api::{Options, Status, Value};
use serde::{Deserialize, Serialize};

/// A question from the grader to the driver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Build the game from options and go to its initial state.
    New {
        /// The options, as in a fixture's `[options]` table.
        options: Options,
    },
    /// Describe the current state.
    Observe,
    /// Parse `text` and play it: the state changes only if it is accepted.
    Play {
        /// The move, in the game's notation.
        text: String,
    },
    /// Parse `text` and try it, without changing the state.
    Try {
        /// The move (or nonsense), as text.
        text: String,
    },
    /// Let the course's minimax choose a move at `depth` from the current state.
    Ai {
        /// Search depth in plies.
        depth: u32,
    },
    /// Run one law of the conformance kit on the current game.
    Law {
        /// One of [`game_api::conformance::LAWS`].
        name: String,
        /// Seed of the kit's random generator.
        seed: u64,
        /// Random cases to try.
        cases: u32,
    },
}

/// What a state looks like through the interface.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// `game_status`.
    pub status: Status,
    /// `legal_moves`, written with `string_of_move`, in [`canonical_order`].
    pub legal: Vec<String>,
    /// `payoff` of a finished game (`None` while it goes on).
    pub payoff: Option<Value>,
    /// `string_of_state` (recorded for people, never judged).
    pub rendering: String,
}

/// The driver's answer to one [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Response {
    /// `New` worked.
    Ready {
        /// The game's `Configurable::NAME`.
        name: String,
    },
    /// `from_options` refused the options.
    OptionsRefused {
        /// Its error message.
        message: String,
    },
    /// The current state (answer to `Observe`, or to `Play` once played).
    Observed(Observation),
    /// `move_of_string` refused the text.
    Rejected {
        /// Its error message.
        message: String,
    },
    /// The text parsed but `next_state` refused the move.
    Refused {
        /// Its error message.
        message: String,
    },
    /// `Try`: the move parsed and `next_state` accepted it.
    Accepted,
    /// `Ai`: the move the search chose, in the game's notation.
    Chose {
        /// The move.
        text: String,
    },
    /// `Ai`: the search found no move (no legal move, or it resigned).
    NoMove,
    /// `Law`: the verdict.
    Law {
        /// `None` when the law held, else what went wrong.
        failure: Option<String>,
    },
    /// The game's code panicked while answering.
    Panicked {
        /// The panic message.
        message: String,
    },
    /// The request made no sense here (for example `Play` before `New`).
    Error {
        /// What was wrong.
        message: String,
    },
}

/// Sorts moves written in a game's notation into the order used in answer
/// keys: shorter texts first, then alphabetically, so that `"2"` comes
/// before `"10"`.
///
/// ```
/// let mut moves = vec!["10".to_string(), "2".into(), "1".into()];
/// grader::protocol::canonical_order(&mut moves);
/// assert_eq!(moves, ["1", "2", "10"]);
/// ```
pub fn canonical_order(moves: &mut [String]) {
    moves.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_api::Player;

    #[test]
    fn requests_and_responses_are_one_json_line_each_and_round_trip() {
        let requests = [
            Request::New {
                options: Options::new().with("rows", 6).with("piles", "3,4"),
            },
            Request::Play { text: "4\n".into() },
            Request::Law {
                name: "initial_state_is_ongoing".into(),
                seed: 7,
                cases: 3,
            },
        ];
        for r in requests {
            let line = serde_json::to_string(&r).unwrap();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), r);
        }
        let obs = Response::Observed(Observation {
            status: Status::Ongoing(Player::P2),
            legal: vec!["1".into()],
            payoff: None,
            rendering: "|.|\n|x|".into(),
        });
        let line = serde_json::to_string(&obs).unwrap();
        assert!(!line.contains('\n'), "{line}");
        assert_eq!(serde_json::from_str::<Response>(&line).unwrap(), obs);
    }
}
