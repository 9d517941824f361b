//! # Players: everything that chooses moves
//!
//! A player ([`Agent`]) is anything that, given a game and a position,
//! chooses a move and may say why ([`SearchInfo`]). Every agent works with
//! any [`Game`], a student's included, because it only uses the trait.
//!
//! - [`Human`]: reads moves from any `BufRead`, prompts on any `Write`.
//! - [`RandomAgent`]: a uniformly random legal move, reproducible from a seed.
//! - [`minimax`]: the course's minimax, short and readable; also the oracle
//!   the engine is tested against ([`Minimax`] is the player).
//! - [`Engine`]: negamax with alpha-beta, a transposition table, move
//!   ordering and iterative deepening under a time budget; it also solves
//!   positions exactly, and uses the game's opening book if it has one
//!   (standard Connect-4 does: it then plays perfectly);
//!   [`Engine::analyse`] values every move at once.
//! - [`Level`]: the engine made weaker on purpose, from random among the
//!   moves that do not lose at once up to full strength.
//! - [`perft()`]: counts move sequences, to check a game's move generation.

#![warn(missing_docs)]

mod engine;
mod human;
mod level;
pub mod minimax;
mod perft;
mod random;

pub use engine::{
    check_table_megabytes, max_table_megabytes, Analysis, Engine, EngineConfig, MoveValue, Solved,
    TableSizeError, MIN_TABLE_MEGABYTES,
};
pub use human::Human;
pub use level::{Level, LevelError, FULL_STRENGTH_TIME};
pub use minimax::Minimax;
pub use perft::perft;
pub use random::RandomAgent;

use game_api::{Game, Value};
use std::time::Duration;

/// What an agent decided to do on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    /// Play this move, with what the search found if the agent searched.
    Play(M, Option<SearchInfo>),
    /// Give up (a human typed `quit`, or input ended).
    Resign,
    /// Take back the last own move and the opponent's reply (humans only).
    Undo,
    /// Ask what the engine would play here (humans only); the caller shows a
    /// hint and asks again.
    Hint,
}

/// What a search found, for the "value, depth, nodes, time" line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The value of the chosen move, to player 1.
    pub value: Value,
    /// Whether `value` is exact (the search reached the end of every line
    /// that matters) rather than estimated at a depth limit.
    pub exact: bool,
    /// The deepest completed iteration, in plies.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation (best line), moves in the game's notation,
    /// starting with the chosen move.
    pub pv: Vec<String>,
}

/// Anything that chooses moves in a game `G`.
///
/// ```
/// use game_api::Game;
/// use players::{Agent, Decision};
///
/// /// Always plays the first legal move.
/// struct First;
/// impl<G: Game> Agent<G> for First {
///     fn name(&self) -> String {
///         "first".to_owned()
///     }
///     fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move> {
///         match game.legal_moves(state).into_iter().next() {
///             Some(mv) => Decision::Play(mv, None),
///             None => Decision::Resign,
///         }
///     }
/// }
///
/// let c4 = connect4::Connect4::default();
/// let Decision::Play(mv, None) = First.decide(&c4, &c4.initial_state()) else { panic!() };
/// assert_eq!(c4.string_of_move(&mv), "4"); // the centre column comes first
/// ```
pub trait Agent<G: Game> {
    /// A short description, e.g. `"minimax:depth=4"`.
    fn name(&self) -> String;

    /// Chooses what to do in `state`, which is ongoing with this agent to
    /// move.
    fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move>;
}
