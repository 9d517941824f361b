//! The line-based JSON protocol between the grader and a driver process.
//!
//! Every request is one call of the [`Game`](game_api::Game) interface (or
//! of `Configurable::from_options`) on states and moves that live in the
//! driver, named by numbers. The driver answers what the student's code
//! returned and nothing else: no request asks it for a verdict, so a
//! process that forges replies can at most imitate a game, never a passed
//! check. Verdicts are computed in the grader (see `grader::remote`).

use game_api::{Options, Player, Status, Value};
use serde::{Deserialize, Serialize};

/// A state living in the driver, by number (in the order they were made).
pub type StateId = u32;
/// A move living in the driver, by number: equal moves (by the game's
/// `Eq` and `Hash`) always get the same number.
pub type MoveId = u32;

/// A call from the grader to the driver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// `from_options`; forgets every state and move of the previous game.
    New {
        /// The options, as in a fixture's `[options]` table.
        options: Options,
    },
    /// `initial_state`.
    Initial,
    /// `legal_moves`, then, when there are at most [`EXPAND_UP_TO`] moves
    /// (and fewer than [`EXPAND_WHILE_FEWER_STATES_THAN`] states so far),
    /// `next_state` and `game_status` for each (the grader would ask them
    /// next; one reply instead of many).
    Legal {
        /// The state.
        state: StateId,
    },
    /// `legal_moves_into`, with a buffer holding `buffer` first.
    LegalInto {
        /// The state.
        state: StateId,
        /// What the buffer holds before the call.
        buffer: Vec<MoveId>,
    },
    /// `next_state`.
    Next {
        /// The state.
        state: StateId,
        /// The move.
        mv: MoveId,
    },
    /// `game_status`.
    Status {
        /// The state.
        state: StateId,
    },
    /// `estimate_value`.
    Estimate {
        /// The state.
        state: StateId,
    },
    /// `payoff`.
    Payoff {
        /// The state.
        state: StateId,
        /// The status passed along.
        status: Status,
    },
    /// `string_of_state`.
    StateText {
        /// The state.
        state: StateId,
    },
    /// `string_of_move`.
    MoveText {
        /// The move.
        mv: MoveId,
    },
    /// `string_of_player`.
    PlayerText {
        /// The player.
        player: Player,
    },
    /// `move_of_string`.
    Parse {
        /// The text.
        text: String,
    },
    /// `==` on two states.
    Equal {
        /// One state.
        a: StateId,
        /// The other.
        b: StateId,
    },
    /// The state's `Hash`, fed to Rust's default hasher.
    Hash {
        /// The state.
        state: StateId,
    },
    /// `state_key`.
    StateKey {
        /// The state.
        state: StateId,
    },
    /// `move_order_hint`.
    Hint {
        /// The state.
        state: StateId,
        /// The move.
        mv: MoveId,
    },
    /// `winning_move`.
    Winning {
        /// The state.
        state: StateId,
    },
    /// `non_losing_moves_into`, with a buffer holding `buffer` first.
    NonLosing {
        /// The state.
        state: StateId,
        /// What the buffer holds before the call.
        buffer: Vec<MoveId>,
    },
    /// `value_bounds`.
    Bounds {
        /// The state.
        state: StateId,
    },
}

/// The most legal moves a `Legal` request expands.
pub const EXPAND_UP_TO: usize = 64;

/// No `Legal` request expands once the driver holds this many states, so
/// that expanding never costs the student's process its memory.
pub const EXPAND_WHILE_FEWER_STATES_THAN: usize = 100_000;

/// What `next_state` and `game_status` gave for one legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "child", rename_all = "snake_case")]
pub enum Child {
    /// The move was accepted: the new state and its status.
    State {
        /// The new state.
        id: StateId,
        /// Its `game_status`.
        status: Status,
    },
    /// The move was refused (the fields of its `IllegalMove`).
    Refused {
        /// The move, as the game wrote it.
        mv: String,
        /// Why.
        reason: String,
    },
    /// The game's code panicked: not answered here (the grader asks again
    /// when it needs to, and then sees the panic).
    Unanswered,
}

/// The driver's answer to one [`Request`]: what the game's code returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Reply {
    /// `New` worked: the game's name and its constants.
    Ready {
        /// `Configurable::NAME`.
        name: String,
        /// `max_game_length`.
        max_game_length: u64,
        /// `max_payoff`.
        max_payoff: Value,
    },
    /// `from_options` refused the options.
    OptionsRefused {
        /// Its error message.
        message: String,
    },
    /// A state (from `Initial` or an accepted `Next`), with its
    /// `game_status` (the grader asks it next; `None` if it panicked).
    State {
        /// Its number.
        id: StateId,
        /// Its status.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<Status>,
    },
    /// `next_state` refused the move (the fields of its `IllegalMove`).
    Refused {
        /// The move, as the game wrote it.
        mv: String,
        /// Why.
        reason: String,
    },
    /// A move (from `Parse`, or `Winning` when there is one).
    Move {
        /// Its number.
        id: MoveId,
    },
    /// `move_of_string` refused the text (the fields of its `ParseMoveError`).
    Rejected {
        /// The text, as the game quoted it.
        input: String,
        /// Why.
        reason: String,
    },
    /// `winning_move` returned `None`.
    NoMove,
    /// A list of moves (`Legal`, `LegalInto`, `NonLosing`).
    Moves {
        /// Their numbers, in the game's order.
        ids: Vec<MoveId>,
        /// For `Legal` with few moves: what each move leads to, in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        children: Vec<Child>,
    },
    /// `game_status`.
    Status {
        /// The status.
        status: Status,
    },
    /// A value (`Estimate`, `Payoff`) or a hint.
    Value {
        /// The value.
        value: Value,
    },
    /// `value_bounds`.
    Bounds {
        /// The lower bound.
        low: Value,
        /// The upper bound.
        high: Value,
    },
    /// A text (`StateText`, `MoveText`, `PlayerText`).
    Text {
        /// The text.
        text: String,
    },
    /// `Equal`.
    Equal {
        /// Whether the states are equal.
        equal: bool,
    },
    /// `Hash` or `StateKey`.
    Number {
        /// The number.
        number: u64,
    },
    /// The game's code panicked while answering.
    Panicked {
        /// The panic message.
        message: String,
    },
    /// The request made no sense (no game yet, an unknown number...).
    Error {
        /// What was wrong.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_are_one_json_line_each_and_round_trip() {
        let requests = [
            Request::New {
                options: Options::new().with("rows", 6).with("piles", "3,4"),
            },
            Request::Parse { text: "4\n".into() },
            Request::LegalInto {
                state: 3,
                buffer: vec![1, 2],
            },
        ];
        for r in requests {
            let line = serde_json::to_string(&r).unwrap();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), r);
        }
        let replies = [
            Reply::Status {
                status: Status::Ongoing(Player::P2),
            },
            Reply::Text {
                text: "|.|\n|x|".into(),
            },
        ];
        for r in replies {
            let line = serde_json::to_string(&r).unwrap();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(serde_json::from_str::<Reply>(&line).unwrap(), r);
        }
    }
}
