//! A submission's game as the grader sees it: a [`Game`] whose every method
//! asks the driver process.
//!
//! This is what keeps every verdict in the grader. The conformance laws of
//! `game-api`, the course's minimax and the fixture walk all run here, in
//! the grader process, on a [`RemoteGame`]; the student's process only
//! answers one interface call at a time. A process that lies can therefore
//! only pretend to be some game, never report a check as passed.
//!
//! Interface calls are pure, so their answers are kept: the legal moves and
//! the status of each state, what each move leads to from each state, each
//! move's text, what each text parses to. The driver also sends, with the legal moves of a state
//! that has few, what each leads to: the laws' next questions, answered in
//! one round trip instead of many. `initial_state` is always asked anew, so
//! replaying the same moves (the law on equality) makes new states.
//!
//! The trait's methods cannot fail, so a failure on the other side unwinds:
//! a panic in the student's code resumes as a panic here, with its message
//! (the laws report it as "the game panicked"); a dead, stuck or garbled
//! process unwinds with a [`Stopped`] payload, and [`RemoteGame::failure`]
//! says what happened. Unwinding this way does not call the panic hook, so
//! nothing is printed.

use crate::sandbox::{Driver, Failure};
use game_api::{Game, IllegalMove, Options, ParseMoveError, Player, Status, Value};
use grader_driver::protocol::{Child, MoveId, Reply, Request, StateId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::panic::resume_unwind;
use std::rc::Rc;

/// The payload a [`RemoteGame`] unwinds with when its process failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped(pub Failure);

/// The driver, and what has been learnt from it.
struct Link {
    driver: RefCell<Driver>,
    failure: RefCell<Option<Failure>>,
    /// `string_of_move` per move.
    move_texts: RefCell<HashMap<MoveId, String>>,
    /// `legal_moves` per state.
    legal: RefCell<HashMap<StateId, Vec<MoveId>>>,
    /// `game_status` per state.
    status: RefCell<HashMap<StateId, Status>>,
    /// `next_state` per state and move.
    next: RefCell<HashMap<(StateId, MoveId), Result<StateId, IllegalMove>>>,
    /// `move_of_string` per text.
    parsed: RefCell<HashMap<String, Result<MoveId, ParseMoveError>>>,
}

impl Link {
    fn ask(&self, request: &Request) -> Reply {
        if let Some(f) = self.failure.borrow().clone() {
            resume_unwind(Box::new(Stopped(f)));
        }
        let reply = self.driver.borrow_mut().call(request);
        match reply {
            Ok(Reply::Panicked { message }) => resume_unwind(Box::new(message)),
            Ok(Reply::Error { message }) => self.stop(Failure::Garbled(format!(
                "the driver could not answer: {message}"
            ))),
            Ok(reply) => reply,
            Err(failure) => self.stop(failure),
        }
    }

    fn stop(&self, failure: Failure) -> ! {
        self.driver.borrow_mut().stop();
        *self.failure.borrow_mut() = Some(failure.clone());
        resume_unwind(Box::new(Stopped(failure)))
    }

    fn unexpected(&self, reply: &Reply) -> ! {
        self.stop(Failure::Garbled(format!(
            "a reply that does not answer the question: {reply:?}"
        )))
    }

    fn state(self: &Rc<Self>, request: &Request) -> Result<RemoteState, IllegalMove> {
        match self.ask(request) {
            Reply::State { id, status } => {
                if let Some(status) = status {
                    self.status.borrow_mut().insert(id, status);
                }
                Ok(RemoteState {
                    id,
                    link: Rc::clone(self),
                })
            }
            Reply::Refused { mv, reason } => Err(IllegalMove::new(mv, reason)),
            other => self.unexpected(&other),
        }
    }

    fn moves(self: &Rc<Self>, request: &Request) -> Vec<RemoteMove> {
        match self.ask(request) {
            Reply::Moves { ids, .. } => ids.into_iter().map(|id| self.mv(id)).collect(),
            other => self.unexpected(&other),
        }
    }

    fn legal(self: &Rc<Self>, state: StateId) -> Vec<RemoteMove> {
        let known = self.legal.borrow().get(&state).cloned();
        let ids = known.unwrap_or_else(|| {
            let Reply::Moves { ids, children } = self.ask(&Request::Legal { state }) else {
                self.unexpected(&Reply::NoMove)
            };
            for (mv, child) in ids.iter().zip(children) {
                let next = match child {
                    Child::State { id, status } => {
                        self.status.borrow_mut().insert(id, status);
                        Ok(id)
                    }
                    Child::Refused { mv, reason } => Err(IllegalMove::new(mv, reason)),
                    Child::Unanswered => continue,
                };
                self.next.borrow_mut().insert((state, *mv), next);
            }
            self.legal.borrow_mut().insert(state, ids.clone());
            ids
        });
        ids.into_iter().map(|id| self.mv(id)).collect()
    }

    fn next_state(self: &Rc<Self>, state: StateId, mv: MoveId) -> Result<RemoteState, IllegalMove> {
        let known = self.next.borrow().get(&(state, mv)).cloned();
        let next = known.unwrap_or_else(|| {
            let next = self.state(&Request::Next { state, mv }).map(|s| s.id);
            self.next.borrow_mut().insert((state, mv), next.clone());
            next
        });
        next.map(|id| RemoteState {
            id,
            link: Rc::clone(self),
        })
    }

    fn status(&self, state: StateId) -> Status {
        if let Some(status) = self.status.borrow().get(&state) {
            return *status;
        }
        let status = match self.ask(&Request::Status { state }) {
            Reply::Status { status } => status,
            other => self.unexpected(&other),
        };
        self.status.borrow_mut().insert(state, status);
        status
    }

    fn maybe_move(self: &Rc<Self>, request: &Request) -> Option<RemoteMove> {
        match self.ask(request) {
            Reply::Move { id } => Some(self.mv(id)),
            Reply::NoMove => None,
            other => self.unexpected(&other),
        }
    }

    fn mv(self: &Rc<Self>, id: MoveId) -> RemoteMove {
        RemoteMove {
            id,
            link: Rc::clone(self),
        }
    }

    fn value(&self, request: &Request) -> Value {
        match self.ask(request) {
            Reply::Value { value } => value,
            other => self.unexpected(&other),
        }
    }

    fn number(&self, request: &Request) -> u64 {
        match self.ask(request) {
            Reply::Number { number } => number,
            other => self.unexpected(&other),
        }
    }

    fn text(&self, request: &Request) -> String {
        match self.ask(request) {
            Reply::Text { text } => text,
            other => self.unexpected(&other),
        }
    }

    fn move_text(&self, id: MoveId) -> String {
        if let Some(text) = self.move_texts.borrow().get(&id) {
            return text.clone();
        }
        let text = self.text(&Request::MoveText { mv: id });
        self.move_texts.borrow_mut().insert(id, text.clone());
        text
    }
}

/// A state living in the driver. Equality and hashing are the game's own:
/// they ask the driver.
#[derive(Clone)]
pub struct RemoteState {
    id: StateId,
    link: Rc<Link>,
}

impl PartialEq for RemoteState {
    fn eq(&self, other: &Self) -> bool {
        if self.id == other.id {
            // `==` must be reflexive; the law on equality asks about two
            // states made separately, never one with itself.
            return true;
        }
        match self.link.ask(&Request::Equal {
            a: self.id,
            b: other.id,
        }) {
            Reply::Equal { equal } => equal,
            other => self.link.unexpected(&other),
        }
    }
}

impl Eq for RemoteState {}

impl Hash for RemoteState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.link.number(&Request::Hash { state: self.id }));
    }
}

impl fmt::Debug for RemoteState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "state #{}", self.id)
    }
}

/// A move living in the driver. The driver numbers equal moves alike, so
/// equality and hashing are the number's.
#[derive(Clone)]
pub struct RemoteMove {
    id: MoveId,
    link: Rc<Link>,
}

impl PartialEq for RemoteMove {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for RemoteMove {}

impl Hash for RemoteMove {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl fmt::Debug for RemoteMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.link.move_text(self.id))
    }
}

/// A submission's game, built in its driver process.
pub struct RemoteGame {
    link: Rc<Link>,
    max_game_length: usize,
    max_payoff: Value,
}

/// Why a [`RemoteGame`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotBuilt {
    /// `from_options` refused the options, with its message.
    Refused(String),
    /// The process failed.
    Failed(Failure),
}

impl RemoteGame {
    /// Builds the game in `driver` with `options` (`from_options`).
    ///
    /// # Errors
    /// [`NotBuilt`] when the game refuses the options or the process fails.
    pub fn new(
        mut driver: Driver,
        options: &Options,
    ) -> Result<RemoteGame, (NotBuilt, Box<Driver>)> {
        let request = Request::New {
            options: options.clone(),
        };
        let refused = |why: NotBuilt, mut driver: Driver| {
            if matches!(why, NotBuilt::Failed(_)) {
                driver.stop();
            }
            Err((why, Box::new(driver)))
        };
        match driver.call(&request) {
            Ok(Reply::Ready {
                max_game_length,
                max_payoff,
                ..
            }) => Ok(RemoteGame {
                link: Rc::new(Link {
                    driver: RefCell::new(driver),
                    failure: RefCell::new(None),
                    move_texts: RefCell::new(HashMap::new()),
                    legal: RefCell::new(HashMap::new()),
                    status: RefCell::new(HashMap::new()),
                    next: RefCell::new(HashMap::new()),
                    parsed: RefCell::new(HashMap::new()),
                }),
                max_game_length: usize::try_from(max_game_length).unwrap_or(usize::MAX),
                max_payoff,
            }),
            Ok(Reply::OptionsRefused { message }) => refused(NotBuilt::Refused(message), driver),
            Ok(Reply::Panicked { message }) => refused(
                NotBuilt::Refused(format!("from_options panicked: {message}")),
                driver,
            ),
            Ok(other) => refused(
                NotBuilt::Failed(Failure::Garbled(format!(
                    "a reply that does not answer the question: {other:?}"
                ))),
                driver,
            ),
            Err(f) => refused(NotBuilt::Failed(f), driver),
        }
    }

    /// How the process failed, if it did.
    #[must_use]
    pub fn failure(&self) -> Option<Failure> {
        self.link.failure.borrow().clone()
    }

    /// Stops the process and returns the start of what it printed.
    #[must_use]
    pub fn finish(&self) -> String {
        self.link.driver.borrow_mut().finish()
    }
}

impl Game for RemoteGame {
    type State = RemoteState;
    type Move = RemoteMove;

    fn initial_state(&self) -> RemoteState {
        match self.link.state(&Request::Initial) {
            Ok(state) => state,
            Err(e) => self.link.unexpected(&Reply::Refused {
                mv: e.mv,
                reason: e.reason,
            }),
        }
    }

    fn legal_moves(&self, state: &RemoteState) -> Vec<RemoteMove> {
        self.link.legal(state.id)
    }

    fn next_state(&self, state: &RemoteState, mv: &RemoteMove) -> Result<RemoteState, IllegalMove> {
        self.link.next_state(state.id, mv.id)
    }

    fn game_status(&self, state: &RemoteState) -> Status {
        self.link.status(state.id)
    }

    fn estimate_value(&self, state: &RemoteState) -> Value {
        self.link.value(&Request::Estimate { state: state.id })
    }

    fn string_of_player(&self, player: Player) -> String {
        self.link.text(&Request::PlayerText { player })
    }

    fn string_of_state(&self, state: &RemoteState) -> String {
        self.link.text(&Request::StateText { state: state.id })
    }

    fn string_of_move(&self, mv: &RemoteMove) -> String {
        self.link.move_text(mv.id)
    }

    fn move_of_string(&self, text: &str) -> Result<RemoteMove, ParseMoveError> {
        let known = self.link.parsed.borrow().get(text).cloned();
        let parsed = known.unwrap_or_else(|| {
            let parsed = match self.link.ask(&Request::Parse {
                text: text.to_owned(),
            }) {
                Reply::Move { id } => Ok(id),
                Reply::Rejected { input, reason } => Err(ParseMoveError::new(input, reason)),
                other => self.link.unexpected(&other),
            };
            self.link
                .parsed
                .borrow_mut()
                .insert(text.to_owned(), parsed.clone());
            parsed
        });
        parsed.map(|id| self.link.mv(id))
    }

    fn max_game_length(&self) -> usize {
        self.max_game_length
    }

    fn payoff(&self, state: &RemoteState, status: Status) -> Value {
        self.link.value(&Request::Payoff {
            state: state.id,
            status,
        })
    }

    fn max_payoff(&self) -> Value {
        self.max_payoff
    }

    fn legal_moves_into(&self, state: &RemoteState, out: &mut Vec<RemoteMove>) {
        *out = self.link.moves(&Request::LegalInto {
            state: state.id,
            buffer: out.iter().map(|m| m.id).collect(),
        });
    }

    fn state_key(&self, state: &RemoteState) -> u64 {
        self.link.number(&Request::StateKey { state: state.id })
    }

    fn move_order_hint(&self, state: &RemoteState, mv: &RemoteMove) -> i32 {
        self.link.value(&Request::Hint {
            state: state.id,
            mv: mv.id,
        })
    }

    fn winning_move(&self, state: &RemoteState) -> Option<RemoteMove> {
        self.link.maybe_move(&Request::Winning { state: state.id })
    }

    fn non_losing_moves_into(&self, state: &RemoteState, out: &mut Vec<RemoteMove>) {
        *out = self.link.moves(&Request::NonLosing {
            state: state.id,
            buffer: out.iter().map(|m| m.id).collect(),
        });
    }

    fn value_bounds(&self, state: &RemoteState) -> (Value, Value) {
        match self.link.ask(&Request::Bounds { state: state.id }) {
            Reply::Bounds { low, high } => (low, high),
            other => self.link.unexpected(&other),
        }
    }
}
