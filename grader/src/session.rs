//! The game side of the protocol: answers [`Request`]s by calling a [`Game`].
//!
//! The same code answers in two places: inside the driver process built
//! against a student's submission, and in-process against our reference
//! games when the answer keys are recorded. So a submission is always
//! observed exactly the way the keys were.

use crate::protocol::{canonical_order, Observation, Request, Response};
use game_api::conformance::{check_law, KitConfig, LAWS};
use game_api::{Configurable, Game};
use players::{Agent, Decision, Minimax};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A game being questioned: the game built by the last `New`, and its
/// current state.
///
/// ```
/// use grader::protocol::{Request, Response};
/// use grader::session::Session;
/// # use game_api::*;
/// # #[derive(Clone, Debug, PartialEq, Eq, Hash)] pub struct S(u32);
/// # pub struct Count;
/// # impl Game for Count { type State = S; type Move = u32;
/// #   fn initial_state(&self) -> S { S(0) }
/// #   fn legal_moves(&self, s: &S) -> Vec<u32> { if s.0 >= 3 { vec![] } else { vec![1] } }
/// #   fn next_state(&self, s: &S, m: &u32) -> Result<S, IllegalMove> { if self.legal_moves(s).contains(m) { Ok(S(s.0 + m)) } else { Err(IllegalMove::new(m.to_string(), "no")) } }
/// #   fn game_status(&self, s: &S) -> Status { if s.0 >= 3 { Status::Win(Player::P1) } else if s.0 % 2 == 0 { Status::Ongoing(Player::P1) } else { Status::Ongoing(Player::P2) } }
/// #   fn estimate_value(&self, _: &S) -> Value { 0 }
/// #   fn string_of_state(&self, s: &S) -> String { s.0.to_string() }
/// #   fn string_of_move(&self, m: &u32) -> String { m.to_string() }
/// #   fn move_of_string(&self, t: &str) -> Result<u32, ParseMoveError> { t.parse().map_err(|_| ParseMoveError::new(t, "a number")) }
/// #   fn max_game_length(&self) -> usize { 3 } }
/// # impl Configurable for Count { const NAME: &'static str = "count";
/// #   fn option_specs() -> Vec<OptionSpec> { vec![] }
/// #   fn from_options(o: &Options) -> Result<Self, OptionsError> { o.check_known(&[])?; Ok(Count) }
/// #   fn options(&self) -> Options { Options::new() }
/// #   fn notation() -> &'static str { "1" } fn rules() -> &'static str { "" } }
/// let mut session = Session::<Count>::new();
/// assert_eq!(session.handle(&Request::New { options: Options::new() }),
///            Response::Ready { name: "count".into() });
/// assert!(matches!(session.handle(&Request::Play { text: "x".into() }), Response::Rejected { .. }));
/// assert!(matches!(session.handle(&Request::Play { text: "1".into() }), Response::Observed(_)));
/// ```
pub struct Session<G: Game> {
    game: Option<(G, G::State)>,
}

impl<G: Game + Configurable> Default for Session<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game + Configurable> Session<G> {
    /// A session with no game yet.
    #[must_use]
    pub fn new() -> Self {
        Session { game: None }
    }

    /// Answers one request. A panic in the game's code becomes
    /// [`Response::Panicked`]; the session then forgets its game.
    pub fn handle(&mut self, request: &Request) -> Response {
        match catch_unwind(AssertUnwindSafe(|| self.answer(request))) {
            Ok(response) => response,
            Err(payload) => {
                self.game = None;
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(no message)".to_owned());
                Response::Panicked { message }
            }
        }
    }

    fn answer(&mut self, request: &Request) -> Response {
        if let Request::New { options } = request {
            return match G::from_options(options) {
                Ok(game) => {
                    let state = game.initial_state();
                    self.game = Some((game, state));
                    Response::Ready {
                        name: G::NAME.to_owned(),
                    }
                }
                Err(e) => Response::OptionsRefused {
                    message: e.to_string(),
                },
            };
        }
        let Some((game, state)) = self.game.as_mut() else {
            return Response::Error {
                message: "no game: send `new` first".into(),
            };
        };
        match request {
            Request::New { .. } => unreachable!("handled above"),
            Request::Observe => Response::Observed(observe(game, state)),
            Request::Play { text } | Request::Try { text } => {
                let mv = match game.move_of_string(text) {
                    Ok(mv) => mv,
                    Err(e) => {
                        return Response::Rejected {
                            message: e.to_string(),
                        }
                    }
                };
                match game.next_state(state, &mv) {
                    Err(e) => Response::Refused {
                        message: e.to_string(),
                    },
                    Ok(next) if matches!(request, Request::Play { .. }) => {
                        *state = next;
                        Response::Observed(observe(game, state))
                    }
                    Ok(_) => Response::Accepted,
                }
            }
            // The course's minimax, so the check is about the game, not the search.
            Request::Ai { depth } => match Minimax::new(Some(*depth)).decide(game, state) {
                Decision::Play(mv, _) => Response::Chose {
                    text: game.string_of_move(&mv),
                },
                _ => Response::NoMove,
            },
            Request::Law { name, seed, cases } => match LAWS.iter().find(|l| *l == name) {
                Some(law) => {
                    let verdict = check_law(
                        game,
                        law,
                        &KitConfig {
                            cases: *cases,
                            seed: *seed,
                        },
                    );
                    Response::Law {
                        failure: verdict.failure,
                    }
                }
                None => Response::Error {
                    message: format!("unknown law `{name}`"),
                },
            },
        }
    }
}

fn observe<G: Game>(game: &G, state: &G::State) -> Observation {
    let status = game.game_status(state);
    let mut legal: Vec<String> = game
        .legal_moves(state)
        .iter()
        .map(|m| game.string_of_move(m))
        .collect();
    canonical_order(&mut legal);
    Observation {
        status,
        legal,
        payoff: status.is_over().then(|| game.payoff(state, status)),
        rendering: game.string_of_state(state),
    }
}
