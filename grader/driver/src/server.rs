//! The game side of the protocol: each request is one call of the game.

use crate::protocol::{
    Child, MoveId, Reply, Request, StateId, EXPAND_UP_TO, EXPAND_WHILE_FEWER_STATES_THAN,
};
use game_api::{Configurable, Game};
use std::collections::hash_map::{DefaultHasher, Entry};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A game being questioned: the game built by the last `New`, the states
/// made so far and the moves seen so far, each by number.
///
/// ```
/// use grader_driver::protocol::{Reply, Request};
/// use grader_driver::Server;
/// use game_api::Options;
/// let mut server = Server::<nim::Nim>::new();
/// assert!(matches!(server.handle(&Request::New { options: Options::new() }), Reply::Ready { .. }));
/// assert!(matches!(server.handle(&Request::Initial), Reply::State { id: 0, .. }));
/// assert!(matches!(server.handle(&Request::Parse { text: "banana".into() }), Reply::Rejected { .. }));
/// assert_eq!(server.handle(&Request::Parse { text: "2".into() }), Reply::Move { id: 0 });
/// assert!(matches!(server.handle(&Request::Next { state: 0, mv: 0 }), Reply::State { id: 1, .. }));
/// ```
pub struct Server<G: Game> {
    game: Option<G>,
    states: Vec<G::State>,
    moves: Vec<G::Move>,
    move_ids: HashMap<G::Move, MoveId>,
}

impl<G: Game + Configurable> Default for Server<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// A request that names something that does not exist.
struct Unknown(String);

impl<G: Game + Configurable> Server<G> {
    /// A server with no game yet.
    #[must_use]
    pub fn new() -> Self {
        Server {
            game: None,
            states: Vec::new(),
            moves: Vec::new(),
            move_ids: HashMap::new(),
        }
    }

    /// Answers one request. A panic in the game's code becomes
    /// [`Reply::Panicked`]; the game and its states stay (the interface
    /// takes `&self`), so the next question is answered as in-process.
    pub fn handle(&mut self, request: &Request) -> Reply {
        match catch_unwind(AssertUnwindSafe(|| self.answer(request))) {
            Ok(Ok(reply)) => reply,
            Ok(Err(Unknown(message))) => Reply::Error { message },
            Err(payload) => Reply::Panicked {
                message: panic_message(&*payload),
            },
        }
    }

    fn state(&self, id: StateId) -> Result<&G::State, Unknown> {
        self.states
            .get(id as usize)
            .ok_or_else(|| Unknown(format!("no state #{id}")))
    }

    fn mv(&self, id: MoveId) -> Result<&G::Move, Unknown> {
        self.moves
            .get(id as usize)
            .ok_or_else(|| Unknown(format!("no move #{id}")))
    }

    fn buffer(&self, ids: &[MoveId]) -> Result<Vec<G::Move>, Unknown> {
        ids.iter().map(|&id| self.mv(id).cloned()).collect()
    }

    fn add_state(&mut self, state: G::State) -> StateId {
        let id = StateId::try_from(self.states.len()).expect("fewer than 2^32 states");
        self.states.push(state);
        id
    }

    /// A new state, with its status when the game gives one.
    fn state_reply(&mut self, game: &G, state: G::State) -> Reply {
        let status = catch_unwind(AssertUnwindSafe(|| game.game_status(&state))).ok();
        Reply::State {
            id: self.add_state(state),
            status,
        }
    }

    fn intern(&mut self, mv: G::Move) -> MoveId {
        match self.move_ids.entry(mv) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let id = MoveId::try_from(self.moves.len()).expect("fewer than 2^32 moves");
                self.moves.push(e.key().clone());
                e.insert(id);
                id
            }
        }
    }

    fn moves_reply(&mut self, moves: Vec<G::Move>) -> Reply {
        let ids = moves.into_iter().map(|m| self.intern(m)).collect();
        Reply::Moves {
            ids,
            children: Vec::new(),
        }
    }

    /// `legal_moves`, with what each move leads to when there are few.
    fn expand(&mut self, game: &G, state: StateId) -> Result<Reply, Unknown> {
        let moves = game.legal_moves(self.state(state)?);
        let mut children = Vec::new();
        if moves.len() <= EXPAND_UP_TO && self.states.len() < EXPAND_WHILE_FEWER_STATES_THAN {
            for mv in &moves {
                let child = catch_unwind(AssertUnwindSafe(|| {
                    let s = &self.states[state as usize];
                    game.next_state(s, mv).map(|next| {
                        let status = game.game_status(&next);
                        (next, status)
                    })
                }));
                children.push(match child {
                    Ok(Ok((next, status))) => Child::State {
                        id: self.add_state(next),
                        status,
                    },
                    Ok(Err(e)) => Child::Refused {
                        mv: e.mv,
                        reason: e.reason,
                    },
                    Err(_) => Child::Unanswered,
                });
            }
        }
        let ids = moves.into_iter().map(|m| self.intern(m)).collect();
        Ok(Reply::Moves { ids, children })
    }

    fn answer(&mut self, request: &Request) -> Result<Reply, Unknown> {
        if let Request::New { options } = request {
            self.game = None;
            self.states.clear();
            self.moves.clear();
            self.move_ids.clear();
            return Ok(match G::from_options(options) {
                Ok(game) => {
                    let reply = Reply::Ready {
                        name: G::NAME.to_owned(),
                        max_game_length: game.max_game_length() as u64,
                        max_payoff: game.max_payoff(),
                    };
                    self.game = Some(game);
                    reply
                }
                Err(e) => Reply::OptionsRefused {
                    message: e.to_string(),
                },
            });
        }
        let game = self
            .game
            .take()
            .ok_or_else(|| Unknown("no game: send `new` first".into()))?;
        let reply = catch_unwind(AssertUnwindSafe(|| self.call(&game, request)));
        self.game = Some(game);
        reply.unwrap_or_else(|payload| std::panic::resume_unwind(payload))
    }

    fn call(&mut self, game: &G, request: &Request) -> Result<Reply, Unknown> {
        Ok(match request {
            Request::New { .. } => unreachable!("handled by `answer`"),
            Request::Initial => self.state_reply(game, game.initial_state()),
            Request::Legal { state } => self.expand(game, *state)?,
            Request::LegalInto { state, buffer } => {
                let mut out = self.buffer(buffer)?;
                game.legal_moves_into(self.state(*state)?, &mut out);
                self.moves_reply(out)
            }
            Request::NonLosing { state, buffer } => {
                let mut out = self.buffer(buffer)?;
                game.non_losing_moves_into(self.state(*state)?, &mut out);
                self.moves_reply(out)
            }
            Request::Next { state, mv } => {
                match game.next_state(self.state(*state)?, self.mv(*mv)?) {
                    Ok(next) => self.state_reply(game, next),
                    Err(e) => Reply::Refused {
                        mv: e.mv,
                        reason: e.reason,
                    },
                }
            }
            Request::Status { state } => Reply::Status {
                status: game.game_status(self.state(*state)?),
            },
            Request::Estimate { state } => Reply::Value {
                value: game.estimate_value(self.state(*state)?),
            },
            Request::Payoff { state, status } => Reply::Value {
                value: game.payoff(self.state(*state)?, *status),
            },
            Request::Hint { state, mv } => Reply::Value {
                value: game.move_order_hint(self.state(*state)?, self.mv(*mv)?),
            },
            Request::StateText { state } => Reply::Text {
                text: game.string_of_state(self.state(*state)?),
            },
            Request::MoveText { mv } => Reply::Text {
                text: game.string_of_move(self.mv(*mv)?),
            },
            Request::PlayerText { player } => Reply::Text {
                text: game.string_of_player(*player),
            },
            Request::Parse { text } => match game.move_of_string(text) {
                Ok(mv) => Reply::Move {
                    id: self.intern(mv),
                },
                Err(e) => Reply::Rejected {
                    input: e.input,
                    reason: e.reason,
                },
            },
            Request::Equal { a, b } => Reply::Equal {
                equal: self.state(*a)? == self.state(*b)?,
            },
            Request::Hash { state } => {
                let mut hasher = DefaultHasher::new();
                self.state(*state)?.hash(&mut hasher);
                Reply::Number {
                    number: hasher.finish(),
                }
            }
            Request::StateKey { state } => Reply::Number {
                number: game.state_key(self.state(*state)?),
            },
            Request::Winning { state } => match game.winning_move(self.state(*state)?) {
                Some(mv) => Reply::Move {
                    id: self.intern(mv),
                },
                None => Reply::NoMove,
            },
            Request::Bounds { state } => {
                let (low, high) = game.value_bounds(self.state(*state)?);
                Reply::Bounds { low, high }
            }
        })
    }
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}
