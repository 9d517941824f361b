//! Positions typed as moves: `"4 4 3"` on the command line or in a file.
//!
//! Moves are separated by spaces, in the game's notation. A notation that
//! itself contains a space (`R 3` in Yucky Chocolate) is read too: a word
//! that is not a move on its own is joined with the next one. Connect-4 also
//! takes the benchmark files' compact form, one digit per move (`4453`).

use anyhow::Result;
use game_api::{replay, Configurable, Game, Player, Status};

/// The position after `text` (moves separated by spaces) from the start.
pub struct Reached<G: Game> {
    /// The position.
    pub state: G::State,
    /// The player to move, or for a finished game the one who would be.
    pub to_move: Player,
}

/// Whether `word` is a Connect-4 position in the compact form of the
/// benchmark files: two or more column digits that are not together one
/// column (on boards of ten or more columns, `10` is a column). The game is
/// known by its name, so the program needs no Connect-4 crate for it.
pub fn is_compact<G: Game + Configurable>(game: &G, word: &str) -> bool {
    G::NAME == "connect4"
        && word.len() >= 2
        && word.bytes().all(|b| b.is_ascii_digit())
        && game.move_of_string(word).is_err()
}

/// The moves in `text`: the compact form (see [`is_compact`]) as one move
/// per digit, anything else by [`split_moves`].
pub fn read_moves<G: Game + Configurable>(game: &G, text: &str) -> Vec<String> {
    let trimmed = text.trim();
    if is_compact(game, trimmed) {
        trimmed.chars().map(String::from).collect()
    } else {
        split_moves(game, trimmed)
    }
}

/// Splits `text` into moves, joining two words when only together they
/// make a move.
pub fn split_moves<G: Game>(game: &G, text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut moves = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if game.move_of_string(words[i]).is_err() && i + 1 < words.len() {
            let joined = format!("{} {}", words[i], words[i + 1]);
            if game.move_of_string(&joined).is_ok() {
                moves.push(joined);
                i += 2;
                continue;
            }
        }
        moves.push(words[i].to_owned());
        i += 1;
    }
    moves
}

/// Plays `moves` from the initial state.
///
/// # Errors
/// Names the first move (counting from 1) that does not parse or is illegal.
pub fn reach<G: Game, S: AsRef<str>>(game: &G, moves: &[S]) -> Result<Reached<G>> {
    let states = replay(game, moves)?;
    let last = states.len() - 1;
    let to_move = match game.game_status(&states[last]) {
        Status::Ongoing(p) => p,
        // Finished: the turn passes from whoever made the last move.
        _ => match last.checked_sub(1).map(|i| game.game_status(&states[i])) {
            Some(Status::Ongoing(p)) => p.other(),
            _ => Player::P1,
        },
    };
    let state = states
        .into_iter()
        .nth(last)
        .expect("replay returns the initial state at least");
    Ok(Reached { state, to_move })
}
