//! Helpers shared by the players' integration tests: games built from
//! options, and random positions reached by random legal moves.

#![allow(dead_code)] // each test file uses some of the helpers

use game_api::{Configurable, Game, Options};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The game built from `name=value` options.
pub fn game<G: Configurable>(options: &[(&str, &str)]) -> G {
    let options = options
        .iter()
        .fold(Options::new(), |o, (k, v)| o.with(k, v));
    G::from_options(&options).unwrap_or_else(|e| panic!("{}: {e}", G::NAME))
}

/// The position after `plies` random legal moves from the start (fewer if
/// the game ends first), reproducible from `seed`.
pub fn random_position<G: Game>(game: &G, seed: u64, plies: usize) -> G::State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = game.initial_state();
    for _ in 0..plies {
        let moves = game.legal_moves(&state);
        if moves.is_empty() {
            break;
        }
        let mv = &moves[rng.gen_range(0..moves.len())];
        state = game.next_state(&state, mv).expect("a legal move");
    }
    state
}
