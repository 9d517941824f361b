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
//! - A game may provide an opening book ([`Game::opening_book`]): exact
//!   values of positions too far from the end to solve in a move's time.
//!   The search stops at the positions it holds, and with a book a search
//!   still estimated at its time limit goes on to solve the position
//!   ([`EngineConfig::solve_time_limit`]), so the engine plays standard
//!   Connect-4 perfectly from the first move.

mod book;
mod search;
mod table;

use crate::{Agent, Decision, SearchInfo};
use book::Book;
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
    /// first iteration always completes; with a book, the search may go on
    /// to solve the position until `solve_time_limit`.
    pub time_limit: Option<Duration>,
    /// Seed of the random tie-breaking.
    pub seed: u64,
    /// Whether [`Engine::search`] chooses at random (from `seed`) among the
    /// moves of equal best value, rather than the first one found.
    pub random_ties: bool,
    /// How many of the best moves [`Engine::search`] draws its move from,
    /// uniformly (from `seed`), as GameplayKit's
    /// `randomMove(fromNumberOfBestMoves:)`: 1 plays the best; more makes a
    /// weaker, less predictable player (see [`Level`](crate::Level)).
    pub best_of: usize,
    /// Whether searches use the game's opening book
    /// ([`Game::opening_book`]): the exact values it holds end the search
    /// there, so the engine plays perfectly where the book and the time
    /// reach. Off to measure the search alone.
    pub use_book: bool,
    /// With a book and no depth limit, how long from the start of a search
    /// the engine keeps trying to solve the position exactly when
    /// `time_limit` passed with only estimates (`None`: as long as it
    /// takes).
    pub solve_time_limit: Option<Duration>,
}

impl Default for EngineConfig {
    /// 64 MiB, no depth limit, one second, seed 0, no random ties, the
    /// best move, the game's opening book, and up to ten seconds to solve
    /// exactly what the book leaves.
    fn default() -> Self {
        EngineConfig {
            table_megabytes: 64,
            max_depth: None,
            time_limit: Some(Duration::from_secs(1)),
            seed: 0,
            random_ties: false,
            best_of: 1,
            use_book: true,
            solve_time_limit: Some(Duration::from_secs(10)),
        }
    }
}

/// What a solve finds: the exact value, or only its sign.
#[derive(Clone, Copy)]
enum Outcome {
    Value,
    Sign,
}

/// The exact value of a position, and what it cost to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The exact value to player 1, in the game's payoff units (only its
    /// sign, from [`Engine::solve_weak`]).
    pub value: Value,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// One move of the root with what the search found about it, for
/// [`Engine::analyse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// The value of the position after it, to player 1, in payoff units.
    pub value: Value,
    /// Whether `value` is exact: found without any estimate.
    pub exact: bool,
    /// Whether the move is proven to win or to lose (the sign of `value` is
    /// certain even if its size was bounded by an estimate); a proven value
    /// ranks beyond every estimate.
    pub proven: bool,
    /// Plies searched, counting the move itself.
    pub depth: u32,
}

/// What [`Engine::analyse`] found: every move the search considers, best
/// first for the player to move, and the move chosen from that list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    /// The move the engine plays: the first of `moves` unless the
    /// configuration draws among the best ([`EngineConfig::best_of`],
    /// [`EngineConfig::random_ties`]).
    pub chosen: M,
    /// Best first for the player to move: by value (proven wins beyond
    /// every estimate, proven losses below), exact before estimated at
    /// equal value, then in the order searched.
    pub moves: Vec<MoveValue<M>>,
    /// The search behind the chosen move.
    pub info: SearchInfo,
}

/// A root move's result, internal values (to the player to move).
#[derive(Clone, Copy, Debug)]
struct RootEntry {
    /// Index into the root's moves.
    index: usize,
    value: i32,
    exact: bool,
    /// Only an upper bound (a null-window test that failed low).
    bound: bool,
    depth: u32,
}

/// Best first: by value, then a value before a bound, then exact before
/// estimated; the sort is stable, so the search order breaks other ties.
fn rank(entries: &mut [RootEntry]) {
    entries.sort_by_key(|e| (Reverse(e.value), e.bound, !e.exact));
}

/// The root moves' exact values (searched in `order`), ranked; `None` if
/// the deadline passed first; `depth` is what the entries report. With `every` each move gets its own value;
/// otherwise a move is only solved when a null-window test shows it better
/// than the best so far (at least as good when `ties` matter), else it
/// keeps that test's bound.
fn exact_ranking<G: Game>(
    search: &mut Search<'_, G>,
    children: &[Option<G::State>],
    (order, depth): (&[usize], u32),
    me: Player,
    (every, ties): (bool, bool),
    plies: &mut [Ply<G::Move, G::State>],
) -> Option<Vec<RootEntry>> {
    let mut best: Option<Value> = None;
    let mut entries = Vec::with_capacity(order.len());
    for &index in order {
        let Some(child) = &children[index] else {
            continue;
        };
        let lowest = -search.game.max_payoff() - 1;
        let bar = match best {
            Some(b) if !every => b - Value::from(ties),
            _ => lowest,
        };
        if bar > lowest {
            let a = search.scale.proven(bar);
            let probe = search.child_value(child, me, a, a + 1, UNLIMITED, plies);
            if search.aborted {
                return None;
            }
            if probe <= a {
                entries.push(RootEntry {
                    index,
                    value: probe,
                    exact: true,
                    bound: true,
                    depth,
                });
                continue;
            }
        }
        let v = search.exact_child(child, me, bar, plies)?;
        best = best.max(Some(v));
        entries.push(RootEntry {
            index,
            value: search.scale.proven(v),
            exact: true,
            bound: false,
            depth,
        });
    }
    rank(&mut entries);
    Some(entries)
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
    /// The last game's opening book (loaded by `prepare`).
    book: Option<Book>,
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
            book: None,
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

    /// Buffers for `game`'s longest line, and its book when used (checked
    /// once per book, then shared).
    fn prepare(&mut self, game: &G) {
        let needed = game.max_game_length().saturating_add(1);
        if self.plies.len() < needed {
            self.plies.resize_with(needed, Ply::default);
        }
        let entries = if self.config.use_book {
            game.opening_book()
        } else {
            None
        };
        self.book = match (entries, self.book.take()) {
            (Some(e), Some(old)) if old.is(&e) => Some(old),
            (Some(e), _) => Some(Book::new(e)),
            (None, _) => None,
        };
    }

    /// The exact value of `state` (to player 1, in payoff units), with
    /// perfect play from both sides. The table starts empty, so the result
    /// and the count of positions depend only on `state`. There is no time
    /// limit: use it on positions small enough to solve.
    pub fn solve(&mut self, game: &G, state: &G::State) -> Solved {
        self.solve_to(game, state, Outcome::Value)
    }

    /// Who wins `state` with perfect play, without how fast: the sign of
    /// the exact value to player 1 (1: player 1 wins, 0: a draw, -1: player
    /// 2 wins). A weak solve: it only asks whether the value is above and
    /// below 0. Where the payoffs say how well one wins (Connect-4's do), it
    /// needs far fewer positions than [`Engine::solve`] on hard positions,
    /// but may need more where a quick win is easier to prove than any win.
    ///
    /// ```
    /// use game_api::Game;
    /// use players::{Engine, EngineConfig};
    /// let c4 = connect4::Connect4::default();
    /// let mut engine = Engine::new(EngineConfig::default()).unwrap();
    /// // Pons' example, worth 18 to player 1 (a win with its 4th stone).
    /// let state = c4.state_from_digits("4455").unwrap();
    /// let weak = engine.solve_weak(&c4, &state);
    /// assert_eq!(weak.value, 1);
    /// ```
    pub fn solve_weak(&mut self, game: &G, state: &G::State) -> Solved {
        self.solve_to(game, state, Outcome::Sign)
    }

    /// [`Engine::solve`] or [`Engine::solve_weak`].
    fn solve_to(&mut self, game: &G, state: &G::State, outcome: Outcome) -> Solved {
        let start = Instant::now();
        self.prepare(game);
        self.table.clear();
        let mut search = Search::new(game, &mut self.table, self.book.as_ref());
        let value = match game.game_status(state) {
            Status::Ongoing(me) => {
                let (low, high) = game.value_bounds(state);
                let (min, max) = if me == Player::P1 {
                    (low, high)
                } else {
                    (-high, -low)
                };
                let (min, max) = match outcome {
                    // Widened by one on each side: see `Search::exact`.
                    Outcome::Value => (min - 1, max + 1),
                    // The value's sign lies within the bounds' signs; a
                    // search between -1 and 1 tells "at most -1", 0 or "at
                    // least 1".
                    Outcome::Sign => (min.clamp(-1, 1), max.clamp(-1, 1)),
                };
                let exact = search.exact(state, me, min, max, &mut self.plies);
                exact.expect("no deadline") * me.sign()
            }
            over => game.payoff(state, over),
        };
        let value = match outcome {
            Outcome::Value => value,
            Outcome::Sign => value.signum(),
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
    /// best move of the last completed iteration is returned, unless the
    /// unfinished one proved a better move wins; the first iteration always
    /// completes. With [`EngineConfig::best_of`] above 1 the move is drawn
    /// from the best few (every move is then searched with a full window).
    pub fn search(&mut self, game: &G, state: &G::State) -> Option<(G::Move, SearchInfo)> {
        let every = self.config.best_of > 1;
        self.root(game, state, every).map(|a| (a.chosen, a.info))
    }

    /// Every move the search considers in `state` with its value, best
    /// first for the player to move, and the move the engine chooses, all
    /// from one search (the same as [`Engine::search`]'s, but every move
    /// gets a full window, so each value is that move's own). With the
    /// default [`EngineConfig`] the choice is the first move of the list.
    /// `None` when the game is over.
    pub fn analyse(&mut self, game: &G, state: &G::State) -> Option<Analysis<G::Move>> {
        self.root(game, state, true)
    }

    /// The root of [`Engine::search`] and [`Engine::analyse`]: iterative
    /// deepening over the root moves; `every` gives every move a full window
    /// (its own value) rather than a null-window test against the best.
    fn root(&mut self, game: &G, state: &G::State, every: bool) -> Option<Analysis<G::Move>> {
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

        // Ties are looked for when they may be chosen among.
        let ties_matter = self.config.random_ties || self.config.best_of > 1;
        let max_depth = self.config.max_depth.unwrap_or(UNLIMITED).clamp(
            1,
            u32::try_from(game.max_game_length())
                .unwrap_or(UNLIMITED)
                .saturating_add(1),
        );
        let deadline = self.config.time_limit.map(|t| start + t);
        let mut search = Search::new(game, &mut self.table, self.book.as_ref());
        let offset = search.scale.proven(1) - 1;
        // The last completed iteration: its entries ranked, its depth, and
        // whether it needed no estimate.
        let mut found: Option<(Vec<RootEntry>, u32, bool)> = None;
        for depth in 1..=max_depth {
            let before = search.horizon_hits;
            let mut best = -INF;
            let mut entries: Vec<RootEntry> = Vec::with_capacity(order.len());
            for &i in &order {
                let Some(child) = &children[i] else { continue };
                let hits = search.horizon_hits;
                let (v, bound) = if every || entries.is_empty() {
                    let v = search.child_value(child, me, -INF, INF, depth - 1, &mut self.plies);
                    (v, false)
                } else {
                    // A null window first: is this move at least as good
                    // (when ties matter) or better than the best so far?
                    let a = if ties_matter { best - 1 } else { best };
                    let probe = search.child_value(child, me, a, a + 1, depth - 1, &mut self.plies);
                    if probe > a && !search.aborted {
                        let v = search.child_value(child, me, a, INF, depth - 1, &mut self.plies);
                        (v, false)
                    } else {
                        (probe, true)
                    }
                };
                if search.aborted {
                    break;
                }
                best = best.max(v);
                entries.push(RootEntry {
                    index: i,
                    value: v,
                    exact: search.horizon_hits == hits,
                    bound,
                    depth,
                });
            }
            if search.aborted {
                // What the unfinished iteration proved (a win or a loss,
                // beyond every estimate) stands, whatever the depth.
                if let Some((last, _, _)) = &mut found {
                    for e in entries
                        .iter()
                        .filter(|e| !e.bound && e.value.abs() > offset)
                    {
                        if let Some(old) = last.iter_mut().find(|o| o.index == e.index) {
                            *old = *e;
                        }
                    }
                    rank(last);
                }
                break;
            }
            if entries.is_empty() {
                break;
            }
            let exact = search.horizon_hits == before;
            rank(&mut entries);
            if let Some(pos) = order.iter().position(|&i| i == entries[0].index) {
                order[..=pos].rotate_right(1);
            }
            found = Some((entries, depth, exact));
            // Once the first iteration is done, the clock may stop a search;
            // an iteration that would likely not finish is not started.
            search.deadline = deadline;
            let out_of_time =
                deadline.is_some_and(|d| Instant::now() + (Instant::now() - start) >= d);
            if exact || out_of_time {
                break;
            }
        }
        // With a book the game is meant to be played exactly: past the time
        // limit, an estimate gives way to an exact ranking when one is found
        // within the solving limit.
        if let Some((entries, depth, exact)) = &mut found {
            if !*exact && self.book.is_some() && self.config.max_depth.is_none() {
                search.aborted = false;
                search.deadline = self.config.solve_time_limit.map(|t| start + t);
                let order: Vec<usize> = entries.iter().map(|e| e.index).collect();
                let ranking = exact_ranking(
                    &mut search,
                    &children,
                    (&order, *depth),
                    me,
                    (every, ties_matter),
                    &mut self.plies,
                );
                if let Some(ranking) = ranking {
                    *entries = ranking;
                    *exact = true;
                }
            }
        }
        let nodes = search.nodes;
        let scale = search.scale;

        let (entries, depth, exact) = found?;
        // The candidates: the `best_of` best, and any move as good as the
        // last of them when ties are chosen among at random; never a proven loss when the best is not one.
        let known: Vec<&RootEntry> = entries.iter().filter(|e| !e.bound).collect();
        let n = self.config.best_of.clamp(1, known.len());
        let last = known[n - 1].value;
        let pool = if ties_matter {
            let floor = if known[0].value >= -offset {
                -offset
            } else {
                -INF
            };
            known
                .iter()
                .take_while(|e| e.value >= last && e.value >= floor)
                .count()
                .max(1)
        } else {
            1
        };
        let pick = if pool > 1 {
            known[self.rng.gen_range(0..pool)]
        } else {
            known[0]
        };
        let i = pick.index;
        let pv = self.principal_variation(game, &moves[i], children[i].clone(), depth);
        let info = SearchInfo {
            value: scale.to_game(pick.value) * me.sign(),
            exact: pick.exact && (exact || pick.value > offset),
            depth: pick.depth,
            nodes,
            time: start.elapsed(),
            pv,
        };
        let values = entries
            .iter()
            .filter(|e| !e.bound)
            .map(|e| MoveValue {
                mv: moves[e.index].clone(),
                value: scale.to_game(e.value) * me.sign(),
                exact: e.exact,
                proven: e.value.abs() > offset,
                depth: e.depth,
            })
            .collect();
        Some(Analysis {
            chosen: moves[i].clone(),
            moves: values,
            info,
        })
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
            book: None,
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
