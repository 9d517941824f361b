//! Who plays and how a game stands: the two types every game shares.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the two players. Player 1 moves first and maximises values.
///
/// ```
/// use game_api::Player;
/// assert_eq!(Player::P1.other(), Player::P2);
/// assert_eq!(Player::P2.sign(), -1);
/// assert_eq!(Player::P1.to_string(), "Player 1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    /// The first player (moves first, maximises).
    P1,
    /// The second player (minimises).
    P2,
}

impl Player {
    /// The opponent.
    #[must_use]
    pub fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    /// `+1` for player 1, `-1` for player 2: multiply a value to player 1 by
    /// it to get the value to this player.
    #[must_use]
    pub fn sign(self) -> i32 {
        match self {
            Player::P1 => 1,
            Player::P2 => -1,
        }
    }

    /// `1` or `2`.
    #[must_use]
    pub fn number(self) -> u8 {
        match self {
            Player::P1 => 1,
            Player::P2 => 2,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Player {}", self.number())
    }
}

/// How a game stands: won by a player, drawn, or ongoing with the player to
/// move.
///
/// ```
/// use game_api::{Player, Status};
/// let s = Status::Ongoing(Player::P2);
/// assert!(!s.is_over());
/// assert_eq!(s.to_move(), Some(Player::P2));
/// assert_eq!(Status::Win(Player::P1).winner(), Some(Player::P1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    /// The game is over and this player won.
    Win(Player),
    /// The game is over and nobody won.
    Draw,
    /// The game goes on; this player is to move.
    Ongoing(Player),
}

impl Status {
    /// Whether the game is over (won or drawn).
    #[must_use]
    pub fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing(_))
    }

    /// The player to move, if the game goes on.
    #[must_use]
    pub fn to_move(self) -> Option<Player> {
        match self {
            Status::Ongoing(p) => Some(p),
            _ => None,
        }
    }

    /// The winner, if there is one.
    #[must_use]
    pub fn winner(self) -> Option<Player> {
        match self {
            Status::Win(p) => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Win(p) => write!(f, "{p} wins"),
            Status::Draw => write!(f, "draw"),
            Status::Ongoing(p) => write!(f, "{p} to move"),
        }
    }
}
