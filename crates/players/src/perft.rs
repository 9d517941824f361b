//! Perft ("performance test"): counting the legal move sequences from a
//! position, ply by ply. The counts are known by hand or published for
//! many games, so they check that a game's move generation follows the
//! rules, and the count per second measures how fast it is.

use game_api::Game;

/// The number of legal move sequences of exactly `d` moves from `state`,
/// for each `d` from 1 to `depth` (the result's element `d - 1`). A
/// sequence is not extended once the game is over, but a game that ends on
/// its `d`-th move counts.
///
/// It allocates one move buffer per ply up front, nothing per position.
///
/// ```
/// use game_api::Game;
/// use players::perft;
/// let c4 = connect4::Connect4::default();
/// assert_eq!(perft(&c4, &c4.initial_state(), 3), vec![7, 49, 343]);
/// ```
#[must_use]
pub fn perft<G: Game + ?Sized>(game: &G, state: &G::State, depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth];
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    walk(game, state, &mut counts, &mut buffers);
    counts
}

fn walk<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    counts: &mut [u64],
    buffers: &mut [Vec<G::Move>],
) {
    let (Some((count, deeper_counts)), Some((moves, deeper_buffers))) =
        (counts.split_first_mut(), buffers.split_first_mut())
    else {
        return;
    };
    if game.game_status(state).is_over() {
        return;
    }
    game.legal_moves_into(state, moves);
    *count += moves.len() as u64;
    // At the last ply the moves are counted, not played.
    if deeper_counts.is_empty() {
        return;
    }
    for mv in moves.iter() {
        if let Ok(child) = game.next_state(state, mv) {
            walk(game, &child, deeper_counts, deeper_buffers);
        }
    }
}
