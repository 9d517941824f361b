//! # `game-api`: the interface every two-player game implements
//!
//! This crate is the contract between games and everything that uses them:
//! the players (a human at a terminal, the minimax taught in the course, the
//! strong engine), the `games` command-line program and the grader. Write a
//! game once against [`Game`] and every one of them works with it.
//!
//! It is the Rust version of the course's module type:
//!
//! | course            | here                                   |
//! |-------------------|----------------------------------------|
//! | `initial_state`   | [`Game::initial_state`]                |
//! | `legal_moves`     | [`Game::legal_moves`]                  |
//! | `next_state`      | [`Game::next_state`] (an illegal move is an [`IllegalMove`] error) |
//! | `game_status`     | [`Game::game_status`] → [`Status`]     |
//! | `estimate_value`  | [`Game::estimate_value`] → [`Value`]   |
//! | `string_of_player`| [`Game::string_of_player`]             |
//! | `string_of_state` | [`Game::string_of_state`]              |
//! | `string_of_move`  | [`Game::string_of_move`]               |
//! | `move_of_string`  | [`Game::move_of_string`] (nonsense is a [`ParseMoveError`], never a panic) |
//!
//! ## Values
//!
//! Every [`Value`] is *the value to player 1*, as taught: player 1 maximises,
//! player 2 minimises. A finished game has a payoff ([`Game::payoff`]: by
//! default win `+1`, loss `-1`, draw `0`; a game may scale it, for example to
//! reward faster wins). An unfinished game has an estimate
//! ([`Game::estimate_value`]) that should stay strictly between the payoffs of
//! a loss and a win, so a search never mistakes a guess for a result.
//!
//! ## Implementing a game, step by step
//!
//! 1. Pick a `State` type that holds everything needed to continue the game,
//!    *including whose turn it is*, and a `Move` type. Both must be `Clone`,
//!    `Eq`, `Hash` and `Debug` (derive them).
//! 2. Put the game's options (board size, piles, ...) in the type that
//!    implements [`Game`], so one crate serves every size.
//! 3. Write the nine course functions. `next_state` must check the move is
//!    legal and return [`IllegalMove`] otherwise; `move_of_string` must never
//!    panic, whatever the text.
//! 4. Implement [`Configurable`] so the command-line program and the grader
//!    can build your game from options like `rows=6`.
//! 5. Run the conformance kit in one line from your tests:
//!    `game_api::conformance::assert_conforms(&MyGame::default());`
//! 6. Keep whole games as snapshots: with `insta` as a dev-dependency,
//!    `insta::assert_snapshot!(game_api::transcript::render(&game, &["4", "4", "3"]).unwrap())`
//!    records, after every move, the status, the legal moves and the board
//!    ([`transcript::render`]); any later change shows as a diff. The
//!    grader's answer keys are written by the same function.
//!
//! Here is a complete game, "count to 5": players take turns adding 1 or 2 to
//! a counter that starts at 0; whoever reaches 5 or more wins.
//!
//! ```
//! use game_api::{Game, IllegalMove, ParseMoveError, Player, Status, Value};
//!
//! #[derive(Clone, Debug, PartialEq, Eq, Hash)]
//! pub struct CountState { total: u32, to_move: Player }
//!
//! pub struct CountTo5;
//!
//! impl Game for CountTo5 {
//!     type State = CountState;
//!     type Move = u32;
//!
//!     fn initial_state(&self) -> CountState {
//!         CountState { total: 0, to_move: Player::P1 }
//!     }
//!     fn legal_moves(&self, s: &CountState) -> Vec<u32> {
//!         if s.total >= 5 { vec![] } else { vec![1, 2] }
//!     }
//!     fn next_state(&self, s: &CountState, m: &u32) -> Result<CountState, IllegalMove> {
//!         if !self.legal_moves(s).contains(m) {
//!             return Err(IllegalMove::new(self.string_of_move(m), "you may add 1 or 2 while the total is below 5"));
//!         }
//!         Ok(CountState { total: s.total + m, to_move: s.to_move.other() })
//!     }
//!     fn game_status(&self, s: &CountState) -> Status {
//!         // The player who reached 5 is the one who just moved.
//!         if s.total >= 5 { Status::Win(s.to_move.other()) } else { Status::Ongoing(s.to_move) }
//!     }
//!     fn estimate_value(&self, _s: &CountState) -> Value { 0 }
//!     fn string_of_state(&self, s: &CountState) -> String {
//!         format!("total {}, {} to move", s.total, self.string_of_player(s.to_move))
//!     }
//!     fn string_of_move(&self, m: &u32) -> String { m.to_string() }
//!     fn move_of_string(&self, text: &str) -> Result<u32, ParseMoveError> {
//!         match text.trim() {
//!             "1" => Ok(1),
//!             "2" => Ok(2),
//!             other => Err(ParseMoveError::new(other, "expected 1 or 2")),
//!         }
//!     }
//!     fn max_game_length(&self) -> usize { 5 }
//! }
//!
//! let game = CountTo5;
//! let s = game.initial_state();
//! let s = game.next_state(&s, &game.move_of_string("2").unwrap()).unwrap();
//! assert_eq!(game.game_status(&s), Status::Ongoing(Player::P2));
//! assert!(game.move_of_string("banana").is_err());
//! assert!(game.next_state(&s, &7).is_err());
//! # #[cfg(feature = "conformance")]
//! game_api::conformance::assert_conforms(&game);
//! ```
//!
//! ## Handing in a game (the grader's contract)
//!
//! A submission is a library crate depending on `game-api` whose `src/lib.rs`
//! names its game for the grader: `pub type Submission = MyGame;`, where
//! `MyGame` implements [`Game`] and [`Configurable`]. The grader builds it
//! with `Submission::from_options`, which is how options such as the board
//! size reach it. No build script, no `unsafe`, and only the dependencies the
//! course allows. `grader/sample-submission/` in the course workspace is one
//! to copy; the README's "The submission contract" says the rest.
//!
//! ## A crate of your own, outside the course's workspace
//!
//! A game written from scratch is a library crate of its own. It depends on
//! `game-api` by **path**, pointing into the course's folder (the handout,
//! or the course workspace), and on the course's command line, `games`, for
//! its examples only:
//!
//! ```toml
//! [package]
//! name = "my-nim"
//! version = "0.1.0"
//! edition = "2021"
//!
//! [dependencies]
//! game-api = { path = "../course/crates/game-api" }
//!
//! [dev-dependencies]
//! games = { path = "../course/crates/games" }  # the command line, for examples/play.rs
//! insta = "1"                                  # snapshot tests of whole games
//!
//! [workspace]  # keeps this crate out of any workspace around it
//! ```
//!
//! A path, rather than git or a published version, because it builds
//! offline, as the grader does; it is exactly the `game-api` the course
//! grades with (the grader points the dependency at its own copy whatever
//! is written, and builds only the library, so dev-dependencies and
//! examples never reach it); and it needs neither access to the course's
//! repository, which holds the reference solutions and hidden fixtures,
//! nor a release on crates.io of the course's crates.
//!
//! `examples/play.rs` then gives the game the whole command line
//! (`games::main_for`, the code of the course's `games` program):
//!
//! ```ignore
//! fn main() -> std::process::ExitCode {
//!     games::main_for::<my_nim::Submission>()
//! }
//! ```
//!
//! and `cargo run --example play -- play` plays it against the engine
//! (`-- tree --depth 3`, `-- analyse`, `-- perft 4`, `-- list`, `-- --help`
//! too). The course's `grader/sample-submission/` is such a crate.
//!
//! ## Speed hooks (optional)
//!
//! A strong search calls the game millions of times. The methods
//! [`Game::legal_moves_into`], [`Game::state_key`], [`Game::move_order_hint`]
//! (and [`Game::child_order_hint`]), [`Game::winning_move`], [`Game::non_losing_moves_into`] and
//! [`Game::value_bounds`] have correct defaults; a game overrides them only to
//! go faster. A plain student implementation works with every player.

#![warn(missing_docs)]

#[cfg(feature = "conformance")]
pub mod conformance;
mod error;
mod options;
mod player;
pub mod text;
pub mod transcript;

pub use error::{IllegalMove, OptionsError, ParseMoveError, ReplayError};
pub use options::{whole_number, OptionSpec, Options, WholeNumberError};
pub use player::{Player, Status};
pub use text::echo;

use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A game value, always *to player 1*: player 1 maximises it, player 2
/// minimises it.
pub type Value = i32;

/// A two-player, turn-based game with perfect information.
///
/// See the [crate documentation](crate) for a walk-through and a complete
/// example. Required methods are the course's nine functions plus
/// [`Game::max_game_length`]; every other method has a correct default.
pub trait Game {
    /// A position: everything needed to continue the game, including whose
    /// turn it is.
    type State: Clone + Eq + Hash + Debug;
    /// A move, as chosen by a player.
    type Move: Clone + Eq + Hash + Debug;

    /// The position the game starts from.
    fn initial_state(&self) -> Self::State;

    /// The moves the player to move may make; empty exactly when the game is
    /// over.
    fn legal_moves(&self, state: &Self::State) -> Vec<Self::Move>;

    /// The position after `mv` is played in `state`.
    ///
    /// # Errors
    /// [`IllegalMove`] when `mv` is not legal in `state` (including when the
    /// game is over). The state is never corrupted: the caller keeps `state`.
    fn next_state(&self, state: &Self::State, mv: &Self::Move) -> Result<Self::State, IllegalMove>;

    /// Whether the game is won, drawn, or still going (and whose turn it is).
    fn game_status(&self, state: &Self::State) -> Status;

    /// A heuristic value (to player 1) of an unfinished position, used by
    /// searches at their depth limit. Keep it strictly between the payoffs of
    /// a loss and a win.
    fn estimate_value(&self, state: &Self::State) -> Value;

    /// How a player is called in messages, e.g. `"Player 1 (X)"`.
    fn string_of_player(&self, player: Player) -> String {
        player.to_string()
    }

    /// A human-readable rendering of a position (may span several lines).
    fn string_of_state(&self, state: &Self::State) -> String;

    /// A move in the game's notation; [`Game::move_of_string`] reads it back.
    fn string_of_move(&self, mv: &Self::Move) -> String;

    /// Reads a move in the game's notation.
    ///
    /// It only parses: whether the move is legal in a given position is
    /// decided by [`Game::next_state`].
    ///
    /// # Errors
    /// [`ParseMoveError`] saying what was wrong, for any text that is not a
    /// move. Must never panic.
    fn move_of_string(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// An upper bound on the number of moves in any game from the initial
    /// state. The conformance kit checks random playouts end within it.
    fn max_game_length(&self) -> usize;

    /// The payoff (value to player 1) of a finished game, given its status.
    ///
    /// Defaults to `+1` when player 1 wins, `-1` when player 2 wins and `0`
    /// for a draw. A game may scale it (say, to reward faster wins) as long
    /// as wins are positive, losses negative, draws zero, and
    /// `|payoff| <= max_payoff()`. For an ongoing status it returns
    /// [`Game::estimate_value`].
    fn payoff(&self, state: &Self::State, status: Status) -> Value {
        match status {
            Status::Win(p) => p.sign(),
            Status::Draw => 0,
            Status::Ongoing(_) => self.estimate_value(state),
        }
    }

    /// The largest absolute payoff of a finished game (default `1`).
    fn max_payoff(&self) -> Value {
        1
    }

    // ----- speed hooks: optional, with correct defaults -----

    /// Fills `out` with the legal moves (clearing it first). Override to
    /// avoid allocating: searches call this at every node with a reused
    /// buffer.
    fn legal_moves_into(&self, state: &Self::State, out: &mut Vec<Self::Move>) {
        out.clear();
        out.extend(self.legal_moves(state));
    }

    /// A 64-bit key for transposition tables: equal states must give equal
    /// keys, and distinct states should (almost always) give distinct keys.
    /// The default hashes the state with a fixed, deterministic hasher.
    fn state_key(&self, state: &Self::State) -> u64 {
        let mut h = Fnv64::default();
        state.hash(&mut h);
        h.finish()
    }

    /// A move-ordering hint: searches try moves with higher hints first.
    /// Default `0` for every move (the order of `legal_moves`).
    fn move_order_hint(&self, _state: &Self::State, _mv: &Self::Move) -> i32 {
        0
    }

    /// The same hint as [`Game::move_order_hint`], for a search that has
    /// already made `child`, the position after `mv`: a game whose hint is
    /// cheaper to read from the child overrides this. It must equal
    /// `move_order_hint(state, mv)` (the conformance kit checks it).
    /// Default: `move_order_hint(state, mv)`.
    ///
    /// ```
    /// # use game_api::{Game, IllegalMove, ParseMoveError, Status, Value};
    /// /// Take 1 or 2 stones; whoever takes the last one wins.
    /// struct Take;
    /// impl Game for Take {
    ///     type State = u8;
    ///     type Move = u8;
    ///     fn initial_state(&self) -> u8 { 5 }
    ///     fn legal_moves(&self, s: &u8) -> Vec<u8> { (1..=2).filter(|m| m <= s).collect() }
    ///     fn next_state(&self, s: &u8, m: &u8) -> Result<u8, IllegalMove> {
    ///         s.checked_sub(*m).ok_or_else(|| IllegalMove::new(m.to_string(), "not that many stones"))
    ///     }
    ///     fn game_status(&self, s: &u8) -> Status {
    ///         // Player 1 moves when an odd number of stones were taken from 5.
    ///         let mover = if (5 - s) % 2 == 0 { game_api::Player::P1 } else { game_api::Player::P2 };
    ///         if *s == 0 { Status::Win(mover.other()) } else { Status::Ongoing(mover) }
    ///     }
    ///     fn estimate_value(&self, _s: &u8) -> Value { 0 }
    ///     fn string_of_state(&self, s: &u8) -> String { s.to_string() }
    ///     fn string_of_move(&self, m: &u8) -> String { m.to_string() }
    ///     fn move_of_string(&self, t: &str) -> Result<u8, ParseMoveError> {
    ///         t.parse().map_err(|_| ParseMoveError::new(t, "1 or 2"))
    ///     }
    ///     fn max_game_length(&self) -> usize { 5 }
    ///     // Leaving a multiple of 3 is good: the hint says so...
    ///     fn move_order_hint(&self, s: &u8, m: &u8) -> i32 { i32::from((s - m) % 3 == 0) }
    ///     // ... and the child already holds what is left.
    ///     fn child_order_hint(&self, _s: &u8, _m: &u8, child: &u8) -> i32 { i32::from(child % 3 == 0) }
    /// }
    /// assert_eq!(Take.child_order_hint(&5, &2, &3), Take.move_order_hint(&5, &2));
    /// ```
    fn child_order_hint(&self, state: &Self::State, mv: &Self::Move, _child: &Self::State) -> i32 {
        self.move_order_hint(state, mv)
    }

    /// A move that wins at once, if the game can tell cheaply.
    /// Returning `None` is always allowed; the search then finds wins the
    /// ordinary way. Default `None`.
    fn winning_move(&self, _state: &Self::State) -> Option<Self::Move> {
        None
    }

    /// Fills `out` (clearing it first) with the legal moves that do not let
    /// the opponent win on the very next move. It may keep some losing moves
    /// (the default keeps every legal move), but it must never drop a move
    /// that does not lose at once. An empty result in an ongoing game means
    /// every move loses at once.
    fn non_losing_moves_into(&self, state: &Self::State, out: &mut Vec<Self::Move>) {
        self.legal_moves_into(state, out);
    }

    /// Inclusive bounds `(low, high)` on the exact game-theoretic value (to
    /// player 1) of `state` under perfect play. Default
    /// `(-max_payoff(), max_payoff())`.
    fn value_bounds(&self, _state: &Self::State) -> (Value, Value) {
        (-self.max_payoff(), self.max_payoff())
    }

    // ----- opening book: optional -----

    /// The key of `state` in this game's opening book
    /// ([`Game::opening_book`]), or `None` when the book cannot hold it.
    /// Positions that are the same up to a symmetry of the game (they have
    /// the same value) must share their key. Default `None`: no book.
    fn book_key(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// Exact values (to player 1, in payoff units) of positions far from the
    /// end that a search could not solve within a move's time, as
    /// `(book_key, value)` pairs sorted by key, each key once. Shared, so a
    /// game can decode its book once per process and hand it to every
    /// engine. Default `None`: no book.
    fn opening_book(&self) -> Option<Arc<[(u64, Value)]>> {
        None
    }
}

/// A game that can be built from named options (`rows=6`, `piles=3,4,5`):
/// this is how the command-line program, transcripts and the grader create
/// games.
///
/// ```
/// use game_api::{Configurable, OptionSpec, Options, OptionsError};
///
/// struct Piles { stones: u32 }
/// impl Configurable for Piles {
///     const NAME: &'static str = "piles";
///     fn option_specs() -> Vec<OptionSpec> {
///         vec![OptionSpec::new("stones", "7", "how many stones to start with")]
///     }
///     fn from_options(options: &Options) -> Result<Self, OptionsError> {
///         options.check_known(&Self::option_specs())?;
///         Ok(Piles { stones: options.get_number("stones", 7)? })
///     }
///     fn options(&self) -> Options {
///         Options::new().with("stones", self.stones)
///     }
///     fn notation() -> &'static str { "a number" }
///     fn rules() -> &'static str { "take stones" }
/// }
///
/// let p = Piles::from_options(&Options::parse_args(["stones=9"]).unwrap()).unwrap();
/// assert_eq!(p.stones, 9);
/// assert!(Piles::from_options(&Options::parse_args(["stone=9"]).unwrap()).is_err());
/// ```
pub trait Configurable: Sized {
    /// The game's name on the command line and in data files, e.g. `"connect4"`.
    const NAME: &'static str;
    /// The options the game understands, with their defaults.
    fn option_specs() -> Vec<OptionSpec>;
    /// Builds the game; options not given take their defaults.
    ///
    /// # Errors
    /// [`OptionsError`] for an unknown option, a value that does not parse,
    /// or a combination the game cannot play.
    fn from_options(options: &Options) -> Result<Self, OptionsError>;
    /// The options that rebuild this exact game (all of them, defaults
    /// included), as recorded in transcripts.
    fn options(&self) -> Options;
    /// One line describing the move notation, e.g. `"a column number, 1 = leftmost"`.
    fn notation() -> &'static str;
    /// The rules in a few lines, shown by `help`.
    fn rules() -> &'static str;
}

/// FNV-1a, 64-bit: tiny, deterministic across runs and platforms (unlike
/// `std`'s randomly seeded hasher), good enough for state keys.
#[derive(Clone, Copy)]
struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv64 {
    fn finish(&self) -> u64 {
        // A final avalanche so that low bits (used to index tables) mix well.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Plays `moves` (in the game's notation) from the initial state and returns
/// every state along the way, the initial state first.
///
/// ```
/// # use game_api::{Game, replay};
/// # fn demo<G: Game>(game: &G) {
/// let states = replay(game, &["4", "4"]).unwrap();
/// assert_eq!(states.len(), 3);
/// # }
/// ```
///
/// # Errors
/// [`ReplayError`] naming the index (from 1) of the first move that does not
/// parse or is illegal, or that is played after the game ended.
pub fn replay<G: Game + ?Sized, S: AsRef<str>>(
    game: &G,
    moves: &[S],
) -> Result<Vec<G::State>, ReplayError> {
    let mut states = vec![game.initial_state()];
    for (i, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let state = states.last().expect("states is never empty");
        let mv = game
            .move_of_string(text)
            .map_err(|source| ReplayError::Parse {
                index: i + 1,
                source,
            })?;
        let next = game
            .next_state(state, &mv)
            .map_err(|source| ReplayError::Illegal {
                index: i + 1,
                source,
            })?;
        states.push(next);
    }
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_state_key_is_deterministic_and_distinguishes() {
        let mut a = Fnv64::default();
        42u32.hash(&mut a);
        let mut b = Fnv64::default();
        42u32.hash(&mut b);
        let mut c = Fnv64::default();
        43u32.hash(&mut c);
        assert_eq!(a.finish(), b.finish());
        assert_ne!(a.finish(), c.finish());
    }
}
