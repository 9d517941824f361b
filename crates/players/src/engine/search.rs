//! The recursive search: negamax with alpha-beta over internal values.
//!
//! Internal values are from the point of view of the player to move, and
//! the payoffs of finished games are pushed beyond every estimate (see
//! [`Scale`]), so a proven win always beats a hopeful guess and a value
//! tells by itself whether it is proven.
//!
//! At each position the search, in this order: returns the opening book's
//! value if the book holds the position; tightens the window with the
//! game's bounds on the exact value, returning at once if they settle it;
//! asks the game for a win at once; makes every child of the moves that do
//! not lose at once; tightens the window with what the table knows; stops
//! at the depth limit with the game's estimate; orders the moves (the
//! table's best move, then by the game's hint); and searches them, cutting
//! off as soon as the window closes. The children's table entries are read
//! before the first move is searched in a position the table knows,
//! otherwise once the first move did not cut off: a child proven good
//! enough ends the search at once (an "enhanced transposition cut-off"),
//! and those proven no better than the best so far are not searched.
//! Buffers are per ply and reused: nothing is allocated per position.
//!
//! Nearly all the time goes into waiting for table entries from memory, so
//! the children of a position are made, and their entries prefetched,
//! before the position's own entry is read (it was prefetched by the
//! parent, and arrives meanwhile) and before the first child is searched:
//! the waits then overlap, and the moves are ordered while the entries
//! arrive. (Making the children first is wasted when the position's own
//! entry settles it, but measured 5% faster on Pons' hardest set.)

use super::book::Book;
use super::table::{Found, Table, INF};
use game_api::{Game, Player, Status, Value};
use std::time::Instant;

/// Maps game values to internal search values and back.
///
/// A payoff `v` of a finished game becomes `v ± offset` (`offset` is the
/// game's `max_payoff`), draws stay 0, and estimates are kept strictly
/// inside `(-offset, offset)`. The map is increasing, so searching mapped
/// values gives the mapped exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scale {
    offset: i32,
}

impl Scale {
    pub fn new(max_payoff: Value) -> Self {
        Scale {
            offset: max_payoff.clamp(1, INF / 4),
        }
    }

    /// The internal value of a proven game value (payoff units).
    #[inline]
    pub fn proven(self, v: Value) -> i32 {
        match v.signum() {
            1 => v.min(INF / 4).saturating_add(self.offset),
            -1 => v.max(-INF / 4).saturating_sub(self.offset),
            _ => 0,
        }
    }

    /// The internal value of an estimate.
    #[inline]
    pub fn estimate(self, v: Value) -> i32 {
        v.clamp(1 - self.offset, self.offset - 1)
    }

    /// Back to game units: proven values lose their offset, estimates stay.
    #[inline]
    pub fn to_game(self, internal: i32) -> Value {
        if internal > self.offset {
            internal - self.offset
        } else if internal < -self.offset {
            internal + self.offset
        } else {
            internal
        }
    }
}

/// The buffers of one ply of the search (moves `M`, states `S`).
pub(crate) struct Ply<M, S> {
    moves: Vec<M>,
    /// (ordering score, index into `moves`)
    order: Vec<(i32, usize)>,
    /// The position after each move (`None`: the game refused it).
    children: Vec<Option<S>>,
    /// The table key of each child (0 where there is none).
    keys: Vec<u64>,
    /// What the table shows each child worth at most, to the mover.
    at_most: Vec<(i32, bool)>,
}

impl<M, S> Default for Ply<M, S> {
    fn default() -> Self {
        Ply {
            moves: Vec::new(),
            order: Vec::new(),
            children: Vec::new(),
            keys: Vec::new(),
            at_most: Vec::new(),
        }
    }
}

/// The moves the search considers in `state`: those that do not lose at
/// once, or every legal move when all of them do. The table's best-move
/// indices refer to this list.
#[inline]
pub(crate) fn candidate_moves<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    out: &mut Vec<G::Move>,
) {
    game.non_losing_moves_into(state, out);
    if out.is_empty() {
        game.legal_moves_into(state, out);
    }
}

/// One search: the game, the table, counters and the clock.
pub(crate) struct Search<'a, G: Game> {
    pub game: &'a G,
    pub table: &'a mut Table,
    /// Exact values known in advance, if the game has a book.
    pub book: Option<&'a Book>,
    pub scale: Scale,
    /// Positions visited.
    pub nodes: u64,
    /// How many times a value was estimated (or taken from an estimated
    /// table entry); a search during which it did not grow is exact.
    pub horizon_hits: u64,
    /// When to give up (checked every few thousand positions).
    pub deadline: Option<Instant>,
    /// Set once the deadline has passed: every value computed after is
    /// meaningless and must be thrown away.
    pub aborted: bool,
}

impl<'a, G: Game> Search<'a, G> {
    /// A fresh search on `table`: no positions counted, no deadline.
    pub fn new(game: &'a G, table: &'a mut Table, book: Option<&'a Book>) -> Self {
        Search {
            game,
            table,
            book,
            scale: Scale::new(game.max_payoff()),
            nodes: 0,
            horizon_hits: 0,
            deadline: None,
            aborted: false,
        }
    }
}

/// Depth that never reaches a horizon.
pub(crate) const UNLIMITED: u32 = u32::MAX;

impl<G: Game> Search<'_, G> {
    /// The value of `child` (reached by a move of `me`) to `me`.
    #[inline]
    pub fn child_value(
        &mut self,
        child: &G::State,
        me: Player,
        alpha: i32,
        beta: i32,
        depth: u32,
        plies: &mut [Ply<G::Move, G::State>],
    ) -> i32 {
        match self.game.game_status(child) {
            Status::Ongoing(p) if p == me => self.negamax(child, p, alpha, beta, depth, plies),
            Status::Ongoing(p) => -self.negamax(child, p, -beta, -alpha, depth, plies),
            over => {
                self.nodes += 1;
                self.scale.proven(self.game.payoff(child, over)) * me.sign()
            }
        }
    }

    /// The estimate of an ongoing `state`, to `me`.
    #[inline]
    fn estimate(&mut self, state: &G::State, me: Player) -> i32 {
        self.horizon_hits += 1;
        self.scale.estimate(self.game.estimate_value(state)) * me.sign()
    }

    /// The exact value of the ongoing `state` to `me`, the player to move,
    /// in game units, given that it lies in `[min, max]`; `None` if the
    /// deadline passed first.
    ///
    /// Pons' "binary search on the score": each null-window search tells
    /// whether the value is above `med`. Probes go near 0 first, where most
    /// values lie, at half the interval: given the game's bounds widened by
    /// one on each side, this puts them where Pons' solver puts them (it
    /// starts from the scores of a win now and of a loss next move), which
    /// measured 20% fewer positions on the begin-easy set.
    pub fn exact(
        &mut self,
        state: &G::State,
        me: Player,
        mut min: Value,
        mut max: Value,
        plies: &mut [Ply<G::Move, G::State>],
    ) -> Option<Value> {
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let target = self.scale.proven(med + 1);
            let r = self.negamax(state, me, target - 1, target, UNLIMITED, plies);
            if self.aborted {
                return None;
            }
            let r = self.scale.to_game(r);
            if r <= med {
                max = r.max(min);
            } else {
                min = r.min(max);
            }
        }
        Some(min)
    }

    /// The exact value of `child`, reached by a move of `me`, to `me` (in
    /// game units), given that it is above `above` (game units, to `me`);
    /// `None` if the deadline passed first.
    pub fn exact_child(
        &mut self,
        child: &G::State,
        me: Player,
        above: Value,
        plies: &mut [Ply<G::Move, G::State>],
    ) -> Option<Value> {
        let mover = match self.game.game_status(child) {
            Status::Ongoing(p) => p,
            over => return Some(self.game.payoff(child, over) * me.sign()),
        };
        let (low, high) = self.game.value_bounds(child);
        let (low, high) = if mover == Player::P1 {
            (low, high)
        } else {
            (-high, -low)
        };
        let (min, max) = if mover == me {
            (low.max(above), high)
        } else {
            (low, high.min(-above))
        };
        let v = self.exact(child, mover, min - 1, max + 1, plies)?;
        Some(if mover == me { v } else { -v })
    }

    /// The book's exact value of `state` (to player 1), if it has one.
    #[inline]
    fn book_value(&self, state: &G::State) -> Option<Value> {
        self.book?.get(self.game.book_key(state)?)
    }

    /// What the table knows of the children's values to `me` (the mover
    /// in a position searched `depth` plies deep), read into `at_most`
    /// (`INF` where unknown); and a child it shows worth at least `beta`,
    /// with that lower bound and its index, if there is one.
    #[inline]
    fn transposition_cutoff(
        &mut self,
        (children, keys): (&[Option<G::State>], &[u64]),
        at_most: &mut Vec<(i32, bool)>,
        me: Player,
        beta: i32,
        depth: u32,
    ) -> Option<(i32, usize)> {
        at_most.clear();
        for (i, (child, &key)) in children.iter().zip(keys).enumerate() {
            at_most.push((INF, true));
            let Some(child) = child else { continue };
            let Some(known) = self.table.probe(key) else {
                continue;
            };
            if !known.usable_at(depth.saturating_sub(1)) {
                continue;
            }
            let (at_least, below) = match self.game.game_status(child) {
                Status::Ongoing(p) if p == me => (known.lower, known.upper),
                Status::Ongoing(_) => (-known.upper, -known.lower),
                _ => continue,
            };
            if at_least >= beta {
                if !known.exact() {
                    self.horizon_hits += 1;
                }
                return Some((at_least, i));
            }
            at_most[i] = (below, known.exact());
        }
        None
    }

    /// Fail-soft negamax: the value `v` of the ongoing `state` to `me`, the
    /// player to move, searched `depth` plies deep. If `v <= alpha` it is an
    /// upper bound, if `v >= beta` a lower bound, otherwise exact.
    pub fn negamax(
        &mut self,
        state: &G::State,
        me: Player,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        plies: &mut [Ply<G::Move, G::State>],
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            if let Some(deadline) = self.deadline {
                self.aborted |= Instant::now() >= deadline;
            }
        }
        if self.aborted {
            return 0;
        }
        let game = self.game;
        let Some((ply, deeper)) = plies.split_first_mut() else {
            // Longer than the game's declared maximum length.
            return self.estimate(state, me);
        };
        if let Some(v) = self.book_value(state) {
            return self.scale.proven(v * me.sign());
        }
        let horizon_before = self.horizon_hits;
        let nodes_before = self.nodes;

        // What the game knows about the exact value.
        let (low, high) = game.value_bounds(state);
        let (low, high) = if me == Player::P1 {
            (low, high)
        } else {
            (-high, -low)
        };
        let (mut lower, mut upper) = (self.scale.proven(low), self.scale.proven(high));
        if lower >= beta || lower >= upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }

        // A win at once.
        let mut best = -INF;
        if let Some(win) = game.winning_move(state) {
            if let Ok(child) = game.next_state(state, &win) {
                let v = self.child_value(&child, me, alpha, beta, depth.saturating_sub(1), deeper);
                if v >= beta || v >= upper {
                    return v;
                }
                best = v;
                lower = lower.max(v);
            }
        }

        let key = game.state_key(state);
        if depth > 0 {
            candidate_moves(game, state, &mut ply.moves);
            // Every child now, so the table entries they will read are fetched
            // from memory while the first ones are searched.
            ply.children.clear();
            ply.keys.clear();
            for mv in &ply.moves {
                let child = game.next_state(state, mv).ok();
                let key = child.as_ref().map_or(0, |c| game.state_key(c));
                if child.is_some() {
                    self.table.prefetch(key);
                }
                ply.children.push(child);
                ply.keys.push(key);
            }
        }

        // What an earlier search found.
        let mut table_move = None;
        if let Some(known) = self.table.probe(key) {
            table_move = known.best;
            if known.usable_at(depth) {
                if !known.exact() {
                    self.horizon_hits += 1;
                }
                lower = lower.max(known.lower);
                upper = upper.min(known.upper);
            }
        }
        if lower >= beta || lower >= upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);

        if depth == 0 {
            return self.estimate(state, me).clamp(lower, upper);
        }

        // Ordering while the entries arrive.
        ply.order.clear();
        for (i, (mv, child)) in ply.moves.iter().zip(&ply.children).enumerate() {
            let score = match child {
                _ if table_move == Some(i) => i32::MAX,
                Some(child) => game.child_order_hint(state, mv, child),
                None => game.move_order_hint(state, mv),
            };
            ply.order.push((score, i));
        }

        // Where the children's entries are read: before the first move in a
        // position searched before (the children were likely searched too),
        // else only once the first move failed to cut off (reading them all
        // first costs a wait on memory that a first visit rarely repays).
        let etc_at = usize::from(table_move.is_none());
        let window_alpha = alpha;
        let mut best_index = None;
        for k in 0..ply.order.len() {
            // Selection sort, one step at a time: a cut-off saves the rest.
            let mut top = k;
            for j in k + 1..ply.order.len() {
                if ply.order[j].0 > ply.order[top].0 {
                    top = j;
                }
            }
            ply.order.swap(k, top);
            if k == etc_at {
                // Before searching the others (or every move, in a position
                // searched before), see whether the table already proves
                // one of them good enough (an "enhanced transposition
                // cut-off"): their entries were prefetched.
                if let Some((v, i)) = self.transposition_cutoff(
                    (&ply.children, &ply.keys),
                    &mut ply.at_most,
                    me,
                    beta,
                    depth,
                ) {
                    best = v;
                    best_index = Some(i);
                    break;
                }
            }
            let i = ply.order[k].1;
            let Some(child) = &ply.children[i] else {
                continue;
            };
            if k >= etc_at && ply.at_most[i].0 <= alpha {
                // The table shows this move no better than what we have.
                let (v, exact) = ply.at_most[i];
                if !exact {
                    self.horizon_hits += 1;
                }
                best = best.max(v);
                continue;
            }
            let v = self.child_value(child, me, alpha, beta, depth.saturating_sub(1), deeper);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_index = Some(i);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INF {
            // No move could be played: a broken game. Estimate.
            return self.estimate(state, me).clamp(lower, upper);
        }

        let (lower, upper) = if best >= beta {
            (best, INF)
        } else if best > window_alpha {
            (best, best)
        } else {
            (-INF, best)
        };
        let found = Found {
            lower,
            upper,
            best: best_index,
            depth,
            exact: self.horizon_hits == horizon_before,
            positions: self.nodes - nodes_before,
        };
        self.table.store(key, found);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_puts_proven_values_beyond_estimates_and_maps_back() {
        let s = Scale::new(18);
        assert_eq!(s.proven(1), 19);
        assert_eq!(s.proven(-18), -36);
        assert_eq!(s.proven(0), 0);
        assert_eq!(s.estimate(40), 17);
        assert_eq!(s.estimate(-40), -17);
        for v in -18..=18 {
            assert_eq!(s.to_game(s.proven(v)), v);
        }
        for e in -17..=17 {
            assert_eq!(s.to_game(s.estimate(e)), e);
            assert!(s.proven(1) > s.estimate(e) && s.proven(-1) < s.estimate(e));
        }
    }

    #[test]
    fn with_unit_payoffs_estimates_are_zero() {
        let s = Scale::new(1);
        assert_eq!(s.estimate(5), 0);
        assert_eq!(s.proven(1), 2);
    }
}
