//! A player that picks a uniformly random legal move: the weakest opponent,
//! useful for tests and for random playouts. It is reproducible: the same
//! seed always gives the same choices.

use crate::{Agent, Decision};
use game_api::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a uniformly random legal move, reproducibly from a seed.
///
/// ```
/// use game_api::Game;
/// use players::{Agent, Decision, RandomAgent};
/// let c4 = connect4::Connect4::default();
/// let s = c4.initial_state();
/// let Decision::Play(first, None) = RandomAgent::new(7).decide(&c4, &s) else { panic!() };
/// assert!(c4.legal_moves(&s).contains(&first));
/// // The same seed, the same choice.
/// assert_eq!(RandomAgent::new(7).decide(&c4, &s), Decision::Play(first, None));
/// ```
#[derive(Clone, Debug)]
pub struct RandomAgent {
    seed: u64,
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random player whose choices are determined by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        format!("random:seed={}", self.seed)
    }

    fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move> {
        let mut moves = game.legal_moves(state);
        if moves.is_empty() {
            return Decision::Resign;
        }
        let i = self.rng.gen_range(0..moves.len());
        Decision::Play(moves.swap_remove(i), None)
    }
}
