//! Levels people can beat: the engine made weaker on purpose, in the spirit
//! of GameplayKit's `randomMove(fromNumberOfBestMoves:)`: a shallower
//! search, a move drawn from the few best, or both. Level 1 plays at random
//! among the moves that do not lose at once; the top level is the engine at
//! full strength. Every level below the top is limited by depth only, so a
//! game between them is the same for the same seed, however busy the
//! machine.

use crate::EngineConfig;
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// The engine's time per move at full strength (the top level, and `ai`
/// with no limits): "answers within about a second" on the standard
/// Connect-4 board.
pub const FULL_STRENGTH_TIME: Duration = Duration::from_millis(900);

/// A playing strength, from 1 ([`Level::WEAKEST`]) to [`Level::STRONGEST`].
///
/// ```
/// use players::Level;
/// let two = Level::new(2).unwrap();
/// assert_eq!(two.config(7).max_depth, Some(2));
/// assert_eq!(two.config(7).best_of, 3);
/// assert!(Level::new(0).is_err() && Level::new(u64::from(Level::STRONGEST.number()) + 1).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level number out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("there is no level {0}: the levels are 1 (random among the moves that do not lose at once) to {max} (full strength)", max = Level::STRONGEST.0)]
pub struct LevelError(pub u64);

/// Per level: the search depth (`None`: full strength, by time) and how
/// many of the best moves the move is drawn from. Level 1 searches 2 plies
/// (its move and the reply) to see which moves lose at once in any game,
/// then draws among all the others.
const LEVELS: [(Option<u32>, usize); 7] = [
    (Some(2), usize::MAX),
    (Some(2), 3),
    (Some(3), 2),
    (Some(4), 1),
    (Some(6), 1),
    (Some(10), 1),
    (None, 1),
];

impl Level {
    /// Random among the moves that do not lose at once.
    pub const WEAKEST: Level = Level(1);
    /// The engine at full strength.
    pub const STRONGEST: Level = Level(LEVELS.len() as u8);

    /// Level `n`.
    ///
    /// # Errors
    /// [`LevelError`] outside 1 to [`Level::STRONGEST`].
    pub fn new(n: u64) -> Result<Level, LevelError> {
        u8::try_from(n)
            .ok()
            .filter(|n| (1..=Level::STRONGEST.0).contains(n))
            .map(Level)
            .ok_or(LevelError(n))
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=Level::STRONGEST.0).map(Level)
    }

    /// Its number, from 1.
    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }

    /// The engine's settings for this level; `seed` draws its random choices.
    #[must_use]
    pub fn config(self, seed: u64) -> EngineConfig {
        let (depth, best_of) = LEVELS[usize::from(self.0 - 1)];
        EngineConfig {
            max_depth: depth,
            time_limit: depth.is_none().then_some(FULL_STRENGTH_TIME),
            seed,
            random_ties: true,
            best_of,
            // Exact values would make the depth-limited levels play the
            // opening perfectly.
            use_book: depth.is_none(),
            ..EngineConfig::default()
        }
    }

    /// What the level does, in a few words ("depth 3, one of the 2 best moves").
    #[must_use]
    pub fn describe(self) -> String {
        match LEVELS[usize::from(self.0 - 1)] {
            (_, usize::MAX) => "random among the moves that do not lose at once".to_owned(),
            (None, _) => format!(
                "full strength ({} s a move)",
                FULL_STRENGTH_TIME.as_secs_f64()
            ),
            (Some(depth), 1) => format!("depth {depth}, the best move"),
            (Some(depth), n) => format!("depth {depth}, one of the {n} best moves"),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_go_from_one_to_the_strongest_and_no_further() {
        assert_eq!(Level::new(1), Ok(Level::WEAKEST));
        assert_eq!(Level::new(7), Ok(Level::STRONGEST));
        assert_eq!(Level::new(0), Err(LevelError(0)));
        assert_eq!(Level::new(8), Err(LevelError(8)));
        assert_eq!(Level::new(u64::MAX), Err(LevelError(u64::MAX)));
        assert_eq!(Level::all().count(), 7);
    }

    #[test]
    fn every_level_below_the_top_is_limited_by_depth_only() {
        for level in Level::all().filter(|l| *l < Level::STRONGEST) {
            let c = level.config(1);
            assert!(c.max_depth.is_some() && c.time_limit.is_none(), "{level}");
        }
        let top = Level::STRONGEST.config(1);
        assert_eq!((top.max_depth, top.best_of), (None, 1));
        assert_eq!(top.time_limit, Some(FULL_STRENGTH_TIME));
    }

    #[test]
    fn stronger_levels_search_deeper_or_choose_from_fewer_moves() {
        let levels: Vec<_> = Level::all().map(|l| l.config(0)).collect();
        for pair in levels.windows(2) {
            let depth = |c: &EngineConfig| c.max_depth.unwrap_or(u32::MAX);
            assert!(depth(&pair[1]) >= depth(&pair[0]));
            assert!(pair[1].best_of <= pair[0].best_of);
            assert!(depth(&pair[1]) > depth(&pair[0]) || pair[1].best_of < pair[0].best_of);
        }
    }
}
