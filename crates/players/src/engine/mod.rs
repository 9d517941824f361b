//! The engine: a strong search that works with any [`Game`].
//!
//! The taught [`minimax`](crate::minimax) looks at every position; this
//! engine finds the same values while looking at very few of them, which is
//! what makes solving Connect-4 positions possible. It uses only the
//! [`Game`] trait, and goes faster when the game provides the optional
//! speed hooks (a win at once, the moves that do not lose at once, bounds on
//! the exact value, a unique state key, a move-ordering hint).
//!
//! - [`Engine::solve`] computes the exact value of a position: repeated
//!   null-window searches narrow an interval around it (the "binary search
//!   on the score" of Pascal Pons' Connect-4 solver), each one an
//!   alpha-beta negamax that reuses what the previous ones stored in the
//!   transposition table.
//! - [`Engine::search`] chooses a move under a time budget and a depth
//!   limit: iterative deepening, estimates at the depth limit, and the best
//!   move of the last completed iteration when time runs out. Equally good
//!   moves may be chosen among at random, reproducibly from a seed.

mod search;
mod table;

use crate::{Agent, Decision, SearchInfo};
use game_api::{Game, Player, Status, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::{candidate_moves, Ply, Search, UNLIMITED};
use std::cmp::Reverse;
use std::time::{Duration, Instant};
pub use table::{check_table_megabytes, max_table_megabytes, TableSizeError, MIN_TABLE_MEGABYTES};
use table::{Table, INF};

/// How the engine searches: memory, depth, time and tie-breaking.
///
/// ```
/// use players::EngineConfig;
/// use std::time::Duration;
/// let quick = EngineConfig { max_depth: Some(6), time_limit: Some(Duration::from_millis(200)), ..EngineConfig::default() };
/// assert_eq!(quick.table_megabytes, EngineConfig::default().table_megabytes);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Memory for the transposition table, in MiB (the engine's memory use
    /// is bounded by it, plus a few buffers per ply): from 1 to half the
    /// machine's memory ([`check_table_megabytes`]).
    pub table_megabytes: usize,
    /// The deepest iteration of [`Engine::search`], in plies (`None`: no
    /// limit but time).
    pub max_depth: Option<u32>,
    /// Time budget of [`Engine::search`] (`None`: no limit but depth). The
    /// first iteration always completes.
    pub time_limit: Option<Duration>,
    /// Seed of the random tie-breaking.
    pub seed: u64,
    /// Whether [`Engine::search`] chooses at random (from `seed`) among the
    /// moves of equal best value, rather than the first one found.
    pub random_ties: bool,
}

impl Default for EngineConfig {
    /// 64 MiB, no depth limit, one second, seed 0, no random ties.
    fn default() -> Self {
        EngineConfig {
            table_megabytes: 64,
            max_depth: None,
            time_limit: Some(Duration::from_secs(1)),
            seed: 0,
            random_ties: false,
        }
    }
}

/// The exact value of a position, and what it cost to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The exact value to player 1, in the game's payoff units.
    pub value: Value,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// Negamax with alpha-beta, a transposition table, move ordering and
/// iterative deepening, for any game.
///
/// ```
/// use game_api::{Game, Player};
/// use players::{Engine, EngineConfig};
/// use std::time::Duration;
/// let c4 = connect4::Connect4::default();
/// let mut engine = Engine::new(EngineConfig { table_megabytes: 16, ..EngineConfig::default() }).unwrap();
/// // Pons' example: player 1 to move wins with its 4th stone (22 - 4).
/// let state = c4.state_from_digits("4455").unwrap();
/// let solved = engine.solve(&c4, &state);
/// assert_eq!(solved.value, 18); // to player 1, who is to move
/// // Choosing a move within a budget: here 8 plies or 100 ms.
/// let mut engine = Engine::new(EngineConfig {
///     max_depth: Some(8),
///     time_limit: Some(Duration::from_millis(100)),
///     ..EngineConfig::default()
/// })
/// .unwrap();
/// let (mv, info) = engine.search(&c4, &state).unwrap();
/// assert!(c4.legal_moves(&state).contains(&mv));
/// assert!(info.depth >= 1 && info.pv[0] == c4.string_of_move(&mv));
/// ```
pub struct Engine<G: Game> {
    config: EngineConfig,
    table: Table,
    plies: Vec<Ply<G::Move, G::State>>,
    rng: ChaCha8Rng,
}

impl<G: Game> Engine<G> {
    /// An engine with its table allocated.
    ///
    /// # Errors
    /// [`TableSizeError`] for a table size outside the accepted range
    /// ([`check_table_megabytes`]) or memory the system cannot give.
    pub fn new(config: EngineConfig) -> Result<Self, TableSizeError> {
        let megabytes = check_table_megabytes(config.table_megabytes)?;
        Ok(Engine {
            table: Table::with_megabytes(megabytes)
                .ok_or(TableSizeError::Unavailable { megabytes })?,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            plies: Vec::new(),
            config,
        })
    }

    /// The configuration it was built with.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// How many positions the transposition table holds.
    #[must_use]
    pub fn table_capacity(&self) -> usize {
        self.table.capacity()
    }

    fn prepare(&mut self, game: &G) {
        let needed = game.max_game_length().saturating_add(1);
        if self.plies.len() < needed {
            self.plies.resize_with(needed, Ply::default);
        }
    }

    /// The exact value of `state` (to player 1, in payoff units), with
    /// perfect play from both sides. The table starts empty, so the result
    /// and the count of positions depend only on `state`. There is no time
    /// limit: use it on positions small enough to solve.
    pub fn solve(&mut self, game: &G, state: &G::State) -> Solved {
        let start = Instant::now();
        self.prepare(game);
        self.table.clear();
        let mut search = Search::new(game, &mut self.table);
        let value = match game.game_status(state) {
            Status::Ongoing(me) => {
                let (low, high) = game.value_bounds(state);
                let (min, max) = if me == Player::P1 {
                    (low, high)
                } else {
                    (-high, -low)
                };
                // Each null-window search tells whether the value is above
                // `med`. Probes go near 0 first, where most values lie, at
                // half the interval widened by one on each side: this puts
                // them where Pons' solver puts them (it starts from the
                // scores of a win now and of a loss next move), which
                // measured 20% fewer positions on the begin-easy set.
                let (mut min, mut max) = (min - 1, max + 1);
                while min < max {
                    let mut med = min + (max - min) / 2;
                    if med <= 0 && min / 2 < med {
                        med = min / 2;
                    } else if med >= 0 && max / 2 > med {
                        med = max / 2;
                    }
                    let target = search.scale.proven(med + 1);
                    let r =
                        search.negamax(state, me, target - 1, target, UNLIMITED, &mut self.plies);
                    let r = search.scale.to_game(r);
                    if r <= med {
                        max = r.max(min);
                    } else {
                        min = r.min(max);
                    }
                }
                min * me.sign()
            }
            over => game.payoff(state, over),
        };
        Solved {
            value,
            nodes: search.nodes,
            time: start.elapsed(),
        }
    }

    /// Chooses a move in `state` by iterative deepening within the
    /// configured depth and time, with what the search found. `None` when
    /// the game is over.
    ///
    /// The value is exact when the last iteration needed no estimate (it
    /// then stops early: the position is solved). When time runs out, the
    /// best move of the last completed iteration is returned; the first
    /// iteration always completes.
    pub fn search(&mut self, game: &G, state: &G::State) -> Option<(G::Move, SearchInfo)> {
        let start = Instant::now();
        let Status::Ongoing(me) = game.game_status(state) else {
            return None;
        };
        self.prepare(game);
        let mut moves = Vec::new();
        candidate_moves(game, state, &mut moves);
        let children: Vec<Option<G::State>> = moves
            .iter()
            .map(|m| game.next_state(state, m).ok())
            .collect();
        // Wins at once first, then by the game's hint; later iterations put
        // the previous best move first.
        let win = game.winning_move(state);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| {
            Reverse((
                win.as_ref() == Some(&moves[i]),
                game.move_order_hint(state, &moves[i]),
            ))
        });

        let random_ties = self.config.random_ties;
        let max_depth = self.config.max_depth.unwrap_or(UNLIMITED).clamp(
            1,
            u32::try_from(game.max_game_length())
                .unwrap_or(UNLIMITED)
                .saturating_add(1),
        );
        let deadline = self.config.time_limit.map(|t| start + t);
        let mut search = Search::new(game, &mut self.table);
        let mut found: Option<(i32, Vec<usize>, u32, bool)> = None;
        for depth in 1..=max_depth {
            let before = search.horizon_hits;
            let mut best = -INF;
            let mut ties = Vec::new();
            for &i in &order {
                let Some(child) = &children[i] else { continue };
                let v = if ties.is_empty() {
                    search.child_value(child, me, -INF, INF, depth - 1, &mut self.plies)
                } else {
                    // A null window first: is this move at least as good
                    // (random ties) or better than the best so far?
                    let a = if random_ties { best - 1 } else { best };
                    let probe = search.child_value(child, me, a, a + 1, depth - 1, &mut self.plies);
                    if probe > a && !search.aborted {
                        search.child_value(child, me, a, INF, depth - 1, &mut self.plies)
                    } else {
                        probe
                    }
                };
                if search.aborted {
                    break;
                }
                if v > best {
                    best = v;
                    ties.clear();
                    ties.push(i);
                } else if v == best && random_ties {
                    ties.push(i);
                }
            }
            if search.aborted || ties.is_empty() {
                break;
            }
            let exact = search.horizon_hits == before;
            if let Some(pos) = order.iter().position(|&i| i == ties[0]) {
                order[..=pos].rotate_right(1);
            }
            found = Some((best, ties, depth, exact));
            // Once the first iteration is done, the clock may stop a search;
            // an iteration that would likely not finish is not started.
            search.deadline = deadline;
            let out_of_time =
                deadline.is_some_and(|d| Instant::now() + (Instant::now() - start) >= d);
            if exact || out_of_time {
                break;
            }
        }
        let nodes = search.nodes;
        let scale = search.scale;

        let (best, ties, depth, exact) = found?;
        let pick = if ties.len() > 1 {
            ties[self.rng.gen_range(0..ties.len())]
        } else {
            ties[0]
        };
        let pv = self.principal_variation(game, &moves[pick], children[pick].clone(), depth);
        let info = SearchInfo {
            value: scale.to_game(best) * me.sign(),
            exact,
            depth,
            nodes,
            time: start.elapsed(),
            pv,
        };
        Some((moves[pick].clone(), info))
    }

    /// The chosen move, then the best moves the table remembers, up to
    /// `depth` moves.
    fn principal_variation(
        &self,
        game: &G,
        first: &G::Move,
        mut next: Option<G::State>,
        depth: u32,
    ) -> Vec<String> {
        let mut pv = vec![game.string_of_move(first)];
        let mut moves = Vec::new();
        while let Some(state) = next.take() {
            if pv.len() >= depth as usize || game.game_status(&state).is_over() {
                break;
            }
            let Some(best) = self
                .table
                .probe(game.state_key(&state))
                .and_then(|k| k.best)
            else {
                break;
            };
            candidate_moves(game, &state, &mut moves);
            let Some(mv) = moves.get(best) else { break };
            pv.push(game.string_of_move(mv));
            next = game.next_state(&state, mv).ok();
        }
        pv
    }
}

impl<G: Game> Agent<G> for Engine<G> {
    fn name(&self) -> String {
        let mut name = "ai".to_owned();
        if let Some(d) = self.config.max_depth {
            name.push_str(&format!(":depth={d}"));
        }
        if let Some(t) = self.config.time_limit {
            name.push_str(&format!(":time={t:?}"));
        }
        name
    }

    fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move> {
        match self.search(game, state) {
            Some((mv, info)) => Decision::Play(mv, Some(info)),
            None => Decision::Resign,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minimax::minimax;
    use game_api::{Configurable, Options};

    /// An engine whose table has a single bucket (two entries), which
    /// `Engine::new` does not allow: the table must only speed things up.
    fn tiny<G: Game>() -> Engine<G> {
        let config = EngineConfig::default();
        Engine {
            table: Table::with_megabytes(0).unwrap(),
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            plies: Vec::new(),
            config,
        }
    }

    /// The positions after 0 to `plies` moves, each the `k`-th legal move
    /// in turn (a spread of positions, reproducibly).
    fn positions<G: Game>(game: &G, plies: usize) -> Vec<G::State> {
        let mut states = vec![game.initial_state()];
        for k in 0..plies {
            let last = states.last().unwrap();
            let moves = game.legal_moves(last);
            let Some(mv) = moves.get((3 * k + 1) % moves.len().max(1)) else {
                break;
            };
            states.push(game.next_state(last, mv).unwrap());
        }
        states
    }

    fn assert_exact<G: Game>(game: &G, from: usize, plies: usize) {
        let mut engine = tiny::<G>();
        for state in positions(game, plies).into_iter().skip(from) {
            if game.game_status(&state).is_over() {
                continue;
            }
            assert_eq!(engine.solve(game, &state).value, minimax(game, &state));
        }
    }

    #[test]
    fn a_one_bucket_table_still_gives_exact_values() {
        let c4 = connect4::Connect4::from_options(&Options::new().with("rows", 4).with("cols", 4))
            .unwrap();
        assert_exact(&c4, 3, 10);
        let nim = nim::Nim::from_options(
            &Options::new()
                .with("piles", "2,3,4")
                .with("max_take", "none")
                .with("rule", "normal"),
        )
        .unwrap();
        assert_exact(&nim, 0, 4);
    }
}
