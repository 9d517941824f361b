//! The transposition table: what the search already knows about positions
//! it has met before, by another order of moves or in an earlier search.
//!
//! It is a flat array of 16-byte entries sized once from a number of
//! megabytes, so memory stays bounded whatever the search does. Each entry
//! keeps a lower and an upper bound on a position's value (a null-window
//! search learns one side at a time), the move that was best there, how
//! deep the search looked and how much work it took. Entries go in buckets
//! of two (half a cache line, one memory access): a new position replaces
//! the one of the two that was cheaper to find, so the costly results of
//! big subtrees survive a flood of small ones. Clearing is O(1): entries
//! carry a generation and old generations read as empty.
//!
//! Nearly all of a search's time is spent waiting for entries from memory,
//! and an entry comes far sooner from the processor's caches than from
//! main memory. So a search uses only the front of the table at first,
//! small enough to stay in the caches, and doubles it (moving its entries)
//! each time every place in it is taken, up to the whole table: small
//! searches stay in the caches and big ones get all the memory. (Growing
//! sooner, when half full, measured slower: entries replaced in a small
//! table cost less than entries fetched from a big one.)

/// "No bound" markers in the compact 16-bit storage.
const NO_LOWER: i16 = i16::MIN;
const NO_UPPER: i16 = i16::MAX;
/// Stored depth of a value that used no estimate: it holds at every depth.
const EXACT_DEPTH: u8 = u8::MAX;
/// Stored best-move index meaning "none recorded".
const NO_MOVE: u8 = u8::MAX;

/// The bits of the mixed key an entry keeps (the low 16 hold the
/// generation instead). Two different positions share a slot and these 48
/// bits about once in 2^48 probes: rare enough for exact results.
const KEY_BITS: u64 = !0xFFFF;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The mixed key's high 48 bits, and the generation in the low 16 bits.
    tag: u64,
    lower: i16,
    upper: i16,
    best: u8,
    depth: u8,
    /// log2 of the positions searched to find these bounds.
    work: u8,
}

impl Entry {
    /// Whether it is from another generation than `generation` (or was
    /// never written): an empty place.
    #[inline]
    fn stale(&self, generation: u64) -> bool {
        self.tag & !KEY_BITS != generation
    }
}

/// Where a position new to `bucket` goes: an empty place first, else the
/// entry that was cheaper to find (the second on a tie).
#[inline]
fn place_for_new(bucket: &[Entry; 2], generation: u64) -> usize {
    if bucket[0].stale(generation) {
        0
    } else if bucket[1].stale(generation) || bucket[1].work <= bucket[0].work {
        1
    } else {
        0
    }
}

/// Two entries sharing one slot.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct Bucket([Entry; 2]);

/// What the table knows about a position (bounds are internal search
/// values, from the point of view of the player to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    /// The value is at least this (`-INF` when unknown).
    pub lower: i32,
    /// The value is at most this (`INF` when unknown).
    pub upper: i32,
    /// Index of the best move in the position's move list, if recorded.
    pub best: Option<usize>,
    /// Whether the bounds hold for a search of `depth` plies: always for
    /// values that used no estimate, else when stored by a search at least
    /// that deep.
    depth: u8,
}

impl Known {
    /// Whether the bounds may be used by a search looking `depth` plies ahead.
    #[inline]
    pub fn usable_at(&self, depth: u32) -> bool {
        self.depth == EXACT_DEPTH || u32::from(self.depth) >= depth
    }

    /// Whether the bounds are game-theoretic (computed without estimates).
    #[inline]
    pub fn exact(&self) -> bool {
        self.depth == EXACT_DEPTH
    }
}

/// What a search found about a position, for [`Table::store`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The value is at least this (`-INF`: unknown).
    pub lower: i32,
    /// The value is at most this (`INF`: unknown).
    pub upper: i32,
    /// Index of the best move in the position's move list.
    pub best: Option<usize>,
    /// How many plies deep the search looked.
    pub depth: u32,
    /// Whether no estimate was used (the bounds hold at every depth).
    pub exact: bool,
    /// How many positions the search visited.
    pub positions: u64,
}

/// The smallest table accepted, in MiB.
pub const MIN_TABLE_MEGABYTES: usize = 1;

/// The largest table accepted on this machine, in MiB: half its memory
/// (`MemTotal` in `/proc/meminfo`), or 1024 MiB where that cannot be read.
#[must_use]
pub fn max_table_megabytes() -> usize {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        });
    total_kib.map_or(1024, |kib| (kib / 1024 / 2).max(MIN_TABLE_MEGABYTES))
}

/// A transposition table size that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableSizeError {
    /// Outside [`MIN_TABLE_MEGABYTES`]..=[`max_table_megabytes`].
    #[error(
        "a table of {megabytes} MiB is out of range: give from {MIN_TABLE_MEGABYTES} MiB \
         to {max} MiB (half of this machine's memory)"
    )]
    OutOfRange {
        /// The size asked for.
        megabytes: usize,
        /// The largest size accepted here.
        max: usize,
    },
    /// In range, but the system could not give the memory.
    #[error("the system could not give {megabytes} MiB for the table: give less")]
    Unavailable {
        /// The size asked for.
        megabytes: usize,
    },
}

/// The one check of a table size, in MiB, wherever one is read (the
/// engine's constructor, the command line): from [`MIN_TABLE_MEGABYTES`]
/// to [`max_table_megabytes`].
///
/// ```
/// use players::{check_table_megabytes, TableSizeError};
/// assert_eq!(check_table_megabytes(64), Ok(64));
/// assert!(matches!(check_table_megabytes(0), Err(TableSizeError::OutOfRange { .. })));
/// assert!(check_table_megabytes(usize::MAX).is_err());
/// ```
///
/// # Errors
/// [`TableSizeError::OutOfRange`], saying the accepted range.
pub fn check_table_megabytes(megabytes: usize) -> Result<usize, TableSizeError> {
    let max = max_table_megabytes();
    if (MIN_TABLE_MEGABYTES..=max).contains(&megabytes) {
        Ok(megabytes)
    } else {
        Err(TableSizeError::OutOfRange { megabytes, max })
    }
}

/// Search values never reach these; they mean "unbounded".
pub(crate) const INF: i32 = i32::MAX / 2;

/// How many buckets a search uses at first (1 MiB, a core's second-level
/// cache here), unless the table is smaller.
const FIRST_BUCKETS: usize = (1 << 20) / std::mem::size_of::<Bucket>();

/// A fixed-size transposition table of two-entry buckets, of which the
/// first `active` are in use.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    generation: u16,
    /// Buckets in use, from the front: `first` after a clear, doubled when
    /// every place in them is taken, at most `buckets.len()`.
    active: usize,
    /// How many buckets a search uses at first.
    first: usize,
    /// Entries of this generation in the active buckets.
    filled: usize,
}

impl Table {
    /// A table using at most `megabytes` MiB (at least one bucket), or
    /// `None` when the system cannot give that much memory. Sizes are
    /// checked by [`check_table_megabytes`] before they get here.
    pub fn with_megabytes(megabytes: usize) -> Option<Self> {
        let len = (megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(len).ok()?;
        advise_huge_pages(&mut buckets);
        buckets.resize(len, Bucket::default());
        Some(Table::from_buckets(buckets, FIRST_BUCKETS))
    }

    /// A table over `buckets`, using `first` of them at first.
    fn from_buckets(buckets: Vec<Bucket>, first: usize) -> Self {
        let first = first.clamp(1, buckets.len());
        Table {
            buckets,
            generation: 1,
            active: first,
            first,
            filled: 0,
        }
    }

    /// How many positions it can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    /// Forgets everything, in O(1) (a full sweep once every 65535 clears).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
        self.active = self.first;
        self.filled = 0;
    }

    /// The bucket of a tag among `active` buckets. It depends only on the
    /// tag's key bits, so an entry can be moved when the table grows.
    #[inline]
    fn slot(tag: u64, active: usize) -> usize {
        // The high half of a 128-bit product maps the key bits onto
        // 0..active, keeping their order: an entry only moves up.
        ((u128::from(tag & KEY_BITS) * active as u128) >> 64) as usize
    }

    /// The bucket and the tag (in the current generation) of a key.
    #[inline]
    fn locate(&self, key: u64) -> (usize, u64) {
        let tag = (mix(key) & KEY_BITS) | u64::from(self.generation);
        (Self::slot(tag, self.active), tag)
    }

    /// Doubles the buckets in use (up to all of them) and moves every entry
    /// of this generation to its bucket there. Entries only move up, so
    /// going down from the top, a bucket is emptied before anything is
    /// moved into it.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let active = self.active.saturating_mul(2).min(self.buckets.len());
        let generation = u64::from(self.generation);
        self.filled = 0;
        for from in (0..self.active).rev() {
            let moving = std::mem::take(&mut self.buckets[from]);
            for entry in moving.0 {
                if entry.stale(generation) {
                    continue;
                }
                let bucket = &mut self.buckets[Self::slot(entry.tag, active)].0;
                let i = place_for_new(bucket, generation);
                if bucket[i].stale(generation) {
                    self.filled += 1;
                    bucket[i] = entry;
                } else if bucket[i].work < entry.work {
                    bucket[i] = entry;
                }
            }
        }
        self.active = active;
    }

    /// Starts fetching the entry of `key` from memory, so a later
    /// [`Table::probe`] need not wait for it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let entry: *const Bucket = &self.buckets[self.locate(key).0];
            // SAFETY: a prefetch is only a hint to the cache; it reads
            // nothing and cannot fault, and `entry` points into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What is known about the position with this key, if anything.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Known> {
        let (slot, tag) = self.locate(key);
        let e = self.buckets[slot].0.iter().find(|e| e.tag == tag)?;
        Some(Known {
            lower: if e.lower == NO_LOWER {
                -INF
            } else {
                i32::from(e.lower)
            },
            upper: if e.upper == NO_UPPER {
                INF
            } else {
                i32::from(e.upper)
            },
            best: (e.best != NO_MOVE).then_some(usize::from(e.best)),
            depth: e.depth,
        })
    }

    /// Records bounds found by a search `depth` plies deep (`exact`: no
    /// estimate was used) that visited `positions` positions. Bounds for the
    /// same position and depth are combined; a new position takes the place
    /// of an old generation's entry, else of the cheaper of the two.
    #[inline]
    pub fn store(&mut self, key: u64, found: Found) {
        let Found {
            lower,
            upper,
            best,
            depth,
            exact,
            positions,
        } = found;
        let depth = if exact {
            EXACT_DEPTH
        } else {
            depth.min(u32::from(EXACT_DEPTH) - 1) as u8
        };
        let best = best
            .and_then(|b| u8::try_from(b).ok())
            .filter(|&b| b != NO_MOVE)
            .unwrap_or(NO_MOVE);
        // log2, so it fits a byte: 0 for one position, 63 at most.
        let work = (u64::BITS - positions.max(1).leading_zeros() - 1) as u8;
        let (slot, tag) = self.locate(key);
        let generation = u64::from(self.generation);
        let bucket = &mut self.buckets[slot].0;
        let (mut lower, mut upper) = (compact_lower(lower), compact_upper(upper));
        let (i, work, best) = match bucket.iter().position(|e| e.tag == tag) {
            Some(i) => {
                let e = &bucket[i];
                if e.depth == depth {
                    let (merged_lower, merged_upper) = (lower.max(e.lower), upper.min(e.upper));
                    if merged_lower <= merged_upper {
                        (lower, upper) = (merged_lower, merged_upper);
                    }
                }
                let best = if best == NO_MOVE { e.best } else { best };
                (i, work.max(e.work), best)
            }
            None => {
                let i = place_for_new(bucket, generation);
                self.filled += usize::from(bucket[i].stale(generation));
                (i, work, best)
            }
        };
        bucket[i] = Entry {
            tag,
            lower,
            upper,
            best,
            depth,
            work,
        };
        if self.filled == 2 * self.active && self.active < self.buckets.len() {
            self.grow();
        }
    }
}

/// A bijective 64-bit mix (the SplitMix64 finaliser): every key bit
/// reaches the slot and the tag, whatever the game's keys look like.
#[inline]
fn mix(key: u64) -> u64 {
    let mut z = key;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Asks Linux to back the (not yet touched) buffer of `entries` with huge
/// pages: random probes into a table of many megabytes then miss the TLB far
/// less often (about 20% faster searches here). Elsewhere it does nothing.
fn advise_huge_pages(buckets: &mut Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = buckets.as_mut_ptr() as usize;
        let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
        let aligned = start.next_multiple_of(PAGE);
        if end > aligned {
            let len = (end - aligned) / PAGE * PAGE;
            // SAFETY: the range lies inside the vector's own allocation;
            // MADV_HUGEPAGE changes how pages are backed, never their
            // contents. Failure (an old kernel) is harmless and ignored.
            unsafe { libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

/// A lower bound in 16 bits, rounded down (so it stays a true lower bound).
fn compact_lower(v: i32) -> i16 {
    if v <= i32::from(NO_LOWER) {
        NO_LOWER
    } else {
        v.min(i32::from(NO_UPPER) - 1) as i16
    }
}

/// An upper bound in 16 bits, rounded up (so it stays a true upper bound).
fn compact_upper(v: i32) -> i16 {
    if v >= i32::from(NO_UPPER) {
        NO_UPPER
    } else {
        v.max(i32::from(NO_LOWER) + 1) as i16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(
        lower: i32,
        upper: i32,
        best: Option<usize>,
        depth: u32,
        exact: bool,
        positions: u64,
    ) -> Found {
        Found {
            lower,
            upper,
            best,
            depth,
            exact,
            positions,
        }
    }

    #[test]
    fn entries_are_sixteen_bytes_in_buckets_of_two_and_capacity_follows_megabytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        assert_eq!(Table::with_megabytes(1).unwrap().capacity(), (1 << 20) / 16);
        assert_eq!(Table::with_megabytes(0).unwrap().capacity(), 2);
    }

    #[test]
    fn stored_bounds_come_back_and_clear_forgets_them() {
        let mut t = Table::with_megabytes(1).unwrap();
        t.store(42, found(3, INF, Some(2), 7, false, 10));
        let k = t.probe(42).unwrap();
        assert_eq!((k.lower, k.upper, k.best), (3, INF, Some(2)));
        assert!(k.usable_at(7) && !k.usable_at(8) && !k.exact());
        assert_eq!(t.probe(43), None);
        t.clear();
        assert_eq!(t.probe(42), None);
    }

    #[test]
    fn bounds_of_the_same_position_and_depth_are_combined() {
        let mut t = Table::with_megabytes(1).unwrap();
        t.store(9, found(-INF, 5, None, 0, true, 1));
        t.store(9, found(2, INF, Some(1), 0, true, 1));
        let k = t.probe(9).unwrap();
        assert_eq!((k.lower, k.upper, k.best), (2, 5, Some(1)));
        assert!(k.exact() && k.usable_at(1000));
    }

    #[test]
    fn values_beyond_sixteen_bits_stay_true_bounds() {
        let mut t = Table::with_megabytes(1).unwrap();
        t.store(1, found(100_000, 200_000, None, 3, true, 1));
        let k = t.probe(1).unwrap();
        assert!(k.lower <= 100_000 && k.upper >= 200_000, "{k:?}");
        t.store(2, found(-200_000, -100_000, None, 3, true, 1));
        let k = t.probe(2).unwrap();
        assert!(k.lower <= -200_000 && k.upper >= -100_000, "{k:?}");
    }

    #[test]
    fn keys_differing_only_in_low_bits_are_told_apart() {
        // A one-bucket table: every key lands in the same slot.
        let mut t = Table::with_megabytes(0).unwrap();
        t.store(1, found(0, 0, None, 0, true, 1));
        t.store(2, found(5, 5, None, 0, true, 1));
        assert_eq!(t.probe(1).map(|k| k.lower), Some(0));
        assert_eq!(t.probe(2).map(|k| k.lower), Some(5));
        assert_eq!(t.probe(3), None);
    }

    #[test]
    fn a_new_position_replaces_the_cheaper_of_the_two() {
        let mut t = Table::with_megabytes(0).unwrap();
        t.store(1, found(1, 1, None, 0, true, 1_000_000));
        t.store(2, found(2, 2, None, 0, true, 10));
        t.store(3, found(3, 3, None, 0, true, 1));
        assert!(t.probe(1).is_some(), "the costly entry survives");
        assert_eq!(t.probe(2), None);
        assert!(t.probe(3).is_some(), "the newest is always kept");
    }

    /// A table of `len` buckets using `first` of them at first.
    fn growing(len: usize, first: usize) -> Table {
        Table::from_buckets(vec![Bucket::default(); len], first)
    }

    #[test]
    fn a_search_uses_the_front_of_the_table_and_doubles_it_when_every_place_is_taken() {
        let mut t = growing(64, 4);
        let mut present = Vec::new();
        for key in 0..10_000u64 {
            let before = t.active;
            t.store(key, found(key as i32, key as i32, Some(1), 0, true, key));
            if t.active != before {
                assert_eq!(t.active, (2 * before).min(64), "doubles, up to the table");
                assert_eq!(t.filled, 2 * before, "grew when every place was taken");
                for &k in &present {
                    let known = t.probe(k).expect("doubling loses no entry");
                    assert_eq!((known.lower, known.best), (k as i32, Some(1)));
                }
            }
            present.retain(|&k| t.probe(k).is_some());
            present.push(key);
        }
        assert_eq!(t.active, 64);
        t.clear();
        assert_eq!((t.active, t.filled), (4, 0), "a clear starts small again");
        assert!((0..10_000).all(|k| t.probe(k).is_none()));
    }

    #[test]
    fn the_last_step_fills_a_table_that_is_not_a_power_of_two_larger() {
        let mut t = growing(100, 16);
        for key in 0..10_000u64 {
            t.store(key, found(1, 1, None, 0, true, 1));
        }
        assert_eq!(t.active, 100);
        let live = (0..10_000).filter(|&k| t.probe(k).is_some()).count();
        assert_eq!(live, 200, "every place of the whole table is used");
    }

    #[test]
    fn entries_of_an_old_generation_are_replaced_first() {
        let mut t = Table::with_megabytes(0).unwrap();
        t.store(1, found(1, 1, None, 0, true, 1_000_000));
        t.clear();
        t.store(2, found(2, 2, None, 0, true, 1_000));
        t.store(3, found(3, 3, None, 0, true, 1));
        assert!(t.probe(2).is_some() && t.probe(3).is_some());
    }
}
