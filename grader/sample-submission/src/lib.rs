//! A sample submission: Nim, written against `game-api` the way a student
//! would. Copy this folder, rename the package, and replace the game.
//!
//! What makes it a submission (the contract):
//! - it is a library crate depending on `game-api`;
//! - `src/lib.rs` says `pub type Submission = ...;` naming the type that
//!   implements `Game` and `Configurable`;
//! - the grader builds the game with `Submission::from_options`, so every
//!   option the assignment lists (here `piles`, `max_take`, `rule`) must
//!   be read there.

use game_api::{Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError, ParseMoveError, Player, Status, Value};

/// The grader builds this type.
pub type Submission = Nim;

/// Nim: take stones from one pile; under the misère rule whoever takes the
/// last stone loses, under the normal rule they win.
pub struct Nim {
    piles: Vec<u32>,
    max_take: Option<u32>,
    misere: bool,
}

/// A position: the piles and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    piles: Vec<u32>,
    to_move: Player,
}

/// Take `take` stones from pile `pile` (counted from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Take {
    pile: usize,
    take: u32,
}

impl Game for Nim {
    type State = State;
    type Move = Take;

    fn initial_state(&self) -> State {
        State { piles: self.piles.clone(), to_move: Player::P1 }
    }

    fn legal_moves(&self, s: &State) -> Vec<Take> {
        let mut moves = Vec::new();
        for (pile, &stones) in s.piles.iter().enumerate() {
            let most = self.max_take.map_or(stones, |m| m.min(stones));
            for take in 1..=most {
                moves.push(Take { pile, take });
            }
        }
        moves
    }

    fn next_state(&self, s: &State, mv: &Take) -> Result<State, IllegalMove> {
        if !self.legal_moves(s).contains(mv) {
            return Err(IllegalMove::new(self.string_of_move(mv), "not a legal take here"));
        }
        let mut next = s.clone();
        next.piles[mv.pile] -= mv.take;
        next.to_move = s.to_move.other();
        Ok(next)
    }

    fn game_status(&self, s: &State) -> Status {
        if s.piles.iter().any(|&p| p > 0) {
            return Status::Ongoing(s.to_move);
        }
        // The player who took the last stone is the one who just moved.
        let last = s.to_move.other();
        Status::Win(if self.misere { last.other() } else { last })
    }

    fn estimate_value(&self, _s: &State) -> Value {
        0
    }

    fn string_of_state(&self, s: &State) -> String {
        format!("piles {:?}, {} to move", s.piles, s.to_move)
    }

    fn string_of_move(&self, mv: &Take) -> String {
        if self.piles.len() == 1 {
            mv.take.to_string()
        } else {
            format!("{}:{}", mv.pile + 1, mv.take)
        }
    }

    fn move_of_string(&self, text: &str) -> Result<Take, ParseMoveError> {
        let bad = || ParseMoveError::new(text, "expected a number of stones, or pile:stones");
        let (pile, take) = match text.trim().split_once(':') {
            Some((p, t)) => (p.trim().parse::<usize>().map_err(|_| bad())?, t.trim()),
            None if self.piles.len() == 1 => (1, text.trim()),
            None => return Err(bad()),
        };
        let take: u32 = take.parse().map_err(|_| bad())?;
        if pile == 0 || take == 0 {
            return Err(bad());
        }
        Ok(Take { pile: pile - 1, take })
    }

    fn max_game_length(&self) -> usize {
        self.piles.iter().sum::<u32>() as usize
    }
}

impl Configurable for Nim {
    const NAME: &'static str = "nim";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::new("piles", "7", "stones in each pile, e.g. 3,4,5"),
            OptionSpec::new("max_take", "2", "most stones per move, or none"),
            OptionSpec::new("rule", "misere", "misere (last taker loses) or normal"),
        ]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        let invalid = |name: &str, value: &str, reason: &str| OptionsError::Invalid {
            name: name.into(),
            value: value.into(),
            reason: reason.into(),
        };
        let piles_text = options.get("piles").unwrap_or("7");
        let piles = piles_text
            .split(',')
            .map(|p| p.trim().parse::<u32>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| invalid("piles", piles_text, "expected numbers separated by commas"))?;
        let max_take = match options.get("max_take").unwrap_or("2") {
            "none" => None,
            m => Some(m.parse().map_err(|_| invalid("max_take", m, "expected a number or none"))?),
        };
        let misere = match options.get("rule").unwrap_or("misere") {
            "misere" => true,
            "normal" => false,
            r => return Err(invalid("rule", r, "expected misere or normal")),
        };
        Ok(Nim { piles, max_take, misere })
    }

    fn options(&self) -> Options {
        let piles: Vec<String> = self.piles.iter().map(u32::to_string).collect();
        let max_take = self.max_take.map_or_else(|| "none".to_owned(), |m| m.to_string());
        Options::new()
            .with("piles", piles.join(","))
            .with("max_take", max_take)
            .with("rule", if self.misere { "misere" } else { "normal" })
    }

    fn notation() -> &'static str {
        "a number of stones (one pile) or pile:stones"
    }

    fn rules() -> &'static str {
        "take stones from one pile"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obeys_the_laws_of_the_interface() {
        game_api::conformance::assert_conforms(&Nim::from_options(&Options::new()).unwrap());
    }
}
