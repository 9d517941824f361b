//! Minimax as taught in the course.
//!
//! This module exists to be read: students compare their own minimax with
//! it, so it stays short and follows the course's definitions word for word.
//! It is also the oracle the fast [`Engine`](crate::Engine) is tested
//! against, which is why it takes no shortcut at all (no pruning, no table).
//!
//! - [`argmax`]: the item with the largest value, and that value.
//! - [`minimax`]: the exact value to player 1 of a position, by searching
//!   the whole tree below it: player 1 takes the maximum over the moves,
//!   player 2 the minimum.
//! - [`minimax_depth`]: the same, but it stops `depth` moves ahead and uses
//!   the game's `estimate_value` there.
//! - [`best_move`]: the move the player to move should choose.
//! - [`Minimax`]: an [`Agent`] that plays [`best_move`].

use crate::{Agent, Decision, SearchInfo};
use game_api::{Game, Player, Status, Value};
use std::cell::Cell;
use std::time::Instant;

/// The item with the largest value, and that value; the first one wins a
/// tie. `None` when there are no items.
///
/// ```
/// use players::minimax::argmax;
/// let words = ["pear", "fig", "banana", "kiwi"];
/// assert_eq!(argmax(words, |w| w.len() as i32), Some((6, "banana")));
/// assert_eq!(argmax(words, |w| -(w.len() as i32)), Some((-3, "fig")));
/// assert_eq!(argmax(Vec::<&str>::new(), |w| w.len() as i32), None);
/// ```
pub fn argmax<T>(
    items: impl IntoIterator<Item = T>,
    mut value: impl FnMut(&T) -> Value,
) -> Option<(Value, T)> {
    let mut best: Option<(Value, T)> = None;
    for item in items {
        let v = value(&item);
        let better = match &best {
            None => true,
            Some((best_value, _)) => v > *best_value,
        };
        if better {
            best = Some((v, item));
        }
    }
    best
}

/// The exact value of `state` to player 1, by searching the whole game tree
/// below it (so only for small games or positions near the end).
///
/// ```
/// use game_api::Game;
/// use players::minimax::minimax;
/// // The classic lab: 7 stones, take 1 or 2, whoever takes the last loses.
/// let nim = nim::Nim::default();
/// // > 0: player 1 wins with perfect play, < 0: player 2 wins, 0: a draw
/// assert_eq!(minimax(&nim, &nim.initial_state()), -1);
/// ```
pub fn minimax<G: Game + ?Sized>(game: &G, state: &G::State) -> Value {
    value(game, state, None)
}

/// The value of `state` to player 1 looking at most `depth` moves ahead:
/// positions still going at that depth are valued by
/// [`Game::estimate_value`]. With a depth that reaches the end of the game
/// it equals [`minimax`].
///
/// ```
/// use game_api::Game;
/// use players::minimax::{minimax, minimax_depth};
/// let c4 = connect4::Connect4::default();
/// let s = c4.state_from_digits("4453").unwrap();
/// assert_eq!(minimax_depth(&c4, &s, 0), c4.estimate_value(&s));
/// let nim = nim::Nim::default();
/// let s = nim.initial_state();
/// assert_eq!(minimax_depth(&nim, &s, 7), minimax(&nim, &s)); // 7 stones: at most 7 moves
/// ```
pub fn minimax_depth<G: Game + ?Sized>(game: &G, state: &G::State, depth: u32) -> Value {
    value(game, state, Some(depth))
}

/// The best move for the player to move in `state`, with its value to
/// player 1: the move of largest value for player 1, of smallest value for
/// player 2. `depth` limits how far it looks (`None`: to the end of the
/// game); it looks at least one move ahead. `None` when the game is over.
///
/// ```
/// use game_api::{Configurable, Game, Options};
/// use players::minimax::best_move;
/// // 8 stones, take 1 or 2, last stone loses: take 1 and leave 7.
/// let nim = nim::Nim::from_options(&Options::new().with("piles", 8)).unwrap();
/// let (value, mv) = best_move(&nim, &nim.initial_state(), None).unwrap();
/// assert_eq!((value, nim.string_of_move(&mv).as_str()), (1, "1"));
/// ```
pub fn best_move<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    depth: Option<u32>,
) -> Option<(Value, G::Move)> {
    match game.game_status(state) {
        Status::Ongoing(player) => choose(game, state, player, depth),
        _ => None,
    }
}

/// [`best_move`] once the player to move is known.
fn choose<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    player: Player,
    depth: Option<u32>,
) -> Option<(Value, G::Move)> {
    let below = depth.map(|d| d.saturating_sub(1));
    // Player 1 maximises the value; player 2 maximises its opposite.
    let (v, (mv, _)) = argmax(children(game, state), |(_, child)| {
        player.sign() * value(game, child, below)
    })?;
    Some((player.sign() * v, mv))
}

fn value<G: Game + ?Sized>(game: &G, state: &G::State, depth: Option<u32>) -> Value {
    match game.game_status(state) {
        Status::Ongoing(_) if depth == Some(0) => game.estimate_value(state),
        Status::Ongoing(player) => match choose(game, state, player, depth) {
            Some((v, _)) => v,
            // A game that lists no move in an ongoing position breaks the
            // rules of the interface; the estimate is all we have.
            None => game.estimate_value(state),
        },
        finished => game.payoff(state, finished),
    }
}

/// Every legal move with the position it leads to. A move the game lists
/// but then refuses (a broken game) is left out.
fn children<'a, G: Game + ?Sized>(
    game: &'a G,
    state: &'a G::State,
) -> impl Iterator<Item = (G::Move, G::State)> + 'a {
    game.legal_moves(state).into_iter().filter_map(move |mv| {
        let next = game.next_state(state, &mv).ok()?;
        Some((mv, next))
    })
}

/// The course's minimax as a player: it plays [`best_move`] with an optional
/// depth limit (`None`: search to the end of the game, only for small
/// games).
///
/// ```
/// use game_api::Game;
/// use players::{Agent, Decision, Minimax};
/// let c4 = connect4::Connect4::default();
/// let mut ai = Minimax::new(Some(4));
/// assert_eq!(Agent::<connect4::Connect4>::name(&ai), "minimax:depth=4");
/// // Player 2 must block player 1's three stones in column 1.
/// let Decision::Play(mv, Some(info)) = ai.decide(&c4, &c4.state_from_digits("12121").unwrap()) else { panic!() };
/// assert_eq!(c4.string_of_move(&mv), "1");
/// assert_eq!(info.depth, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Minimax {
    depth: Option<u32>,
}

impl Minimax {
    /// A minimax player looking `depth` moves ahead (`None`: to the end).
    #[must_use]
    pub fn new(depth: Option<u32>) -> Self {
        Minimax { depth }
    }
}

impl<G: Game> Agent<G> for Minimax {
    fn name(&self) -> String {
        match self.depth {
            Some(d) => format!("minimax:depth={d}"),
            None => "minimax".to_owned(),
        }
    }

    fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move> {
        let start = Instant::now();
        let counted = Counted {
            game,
            positions: Cell::new(0),
        };
        let Some((value, mv)) = best_move(&counted, state, self.depth) else {
            return Decision::Resign;
        };
        let depth = self
            .depth
            .unwrap_or_else(|| u32::try_from(game.max_game_length()).unwrap_or(u32::MAX));
        let info = SearchInfo {
            value,
            exact: self.depth.is_none(),
            depth,
            nodes: counted.positions.get(),
            time: start.elapsed(),
            pv: vec![game.string_of_move(&mv)],
        };
        Decision::Play(mv, Some(info))
    }
}

/// A game that counts the positions a search looks at (each one has its
/// status asked exactly once by [`minimax`]), so the taught functions stay
/// free of bookkeeping.
struct Counted<'a, G: Game> {
    game: &'a G,
    positions: Cell<u64>,
}

impl<G: Game> Game for Counted<'_, G> {
    type State = G::State;
    type Move = G::Move;

    fn initial_state(&self) -> G::State {
        self.game.initial_state()
    }
    fn legal_moves(&self, state: &G::State) -> Vec<G::Move> {
        self.game.legal_moves(state)
    }
    fn next_state(
        &self,
        state: &G::State,
        mv: &G::Move,
    ) -> Result<G::State, game_api::IllegalMove> {
        self.game.next_state(state, mv)
    }
    fn game_status(&self, state: &G::State) -> Status {
        self.positions.set(self.positions.get() + 1);
        self.game.game_status(state)
    }
    fn estimate_value(&self, state: &G::State) -> Value {
        self.game.estimate_value(state)
    }
    fn string_of_player(&self, player: Player) -> String {
        self.game.string_of_player(player)
    }
    fn string_of_state(&self, state: &G::State) -> String {
        self.game.string_of_state(state)
    }
    fn string_of_move(&self, mv: &G::Move) -> String {
        self.game.string_of_move(mv)
    }
    fn move_of_string(&self, text: &str) -> Result<G::Move, game_api::ParseMoveError> {
        self.game.move_of_string(text)
    }
    fn max_game_length(&self) -> usize {
        self.game.max_game_length()
    }
    fn payoff(&self, state: &G::State, status: Status) -> Value {
        self.game.payoff(state, status)
    }
    fn max_payoff(&self) -> Value {
        self.game.max_payoff()
    }
}
