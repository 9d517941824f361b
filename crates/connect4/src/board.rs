//! The bitboard geometry: where each cell lives in a `u64`, and the few
//! bit-parallel operations the game is built from.
//!
//! It exists apart from the game rules so the hot operations (alignment
//! tests, winning spots) sit in one place, written once for every board size
//! and line length, and specialised by the compiler for the usual four in a
//! row.
//!
//! Layout (Pascal Pons' "Solving Connect 4"): column-major, `rows + 1` bits
//! per column, bit `col * (rows + 1) + row` is the cell at `row` (0 = bottom)
//! of `col` (0 = leftmost). The extra top bit of every column is always empty:
//! it stops vertical and diagonal lines from wrapping into the next column.

/// Bits in a bitboard: a board needs `cols * (rows + 1)` of them.
const BITBOARD_BITS: u32 = 64;

/// A board size and line length, with the masks derived from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Geometry {
    /// Rows (the height of a column).
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// The line length that wins.
    pub connect: u32,
    /// One bit at the bottom of each column.
    pub bottom: u64,
    /// Every playable cell.
    pub board: u64,
    /// Shifts of the non-vertical directions in which a line of `connect`
    /// fits on this board (horizontal `rows + 1`, diagonals `rows` and
    /// `rows + 2`); only the first `n_dirs` are used.
    dirs: [u32; 3],
    n_dirs: usize,
    /// Whether a vertical line of `connect` fits.
    vertical: bool,
    /// `connect == 4` and a line fits in all four directions: the common
    /// case, compiled with constant loop bounds.
    four_everywhere: bool,
}

impl Geometry {
    /// The geometry of a `rows` x `cols` board with lines of `connect`.
    /// The caller has checked `cols * (rows + 1) <= 64`, `rows, cols >= 1`
    /// and `2 <= connect <= max(rows, cols)`.
    pub fn new(rows: u32, cols: u32, connect: u32) -> Self {
        debug_assert!(rows >= 1 && cols >= 1 && cols * (rows + 1) <= BITBOARD_BITS);
        let h1 = rows + 1;
        let bottom = (0..cols).fold(0u64, |b, c| b | 1 << (c * h1));
        let column = (1u64 << rows) - 1;
        let board = bottom.wrapping_mul(column);
        let mut dirs = [0; 3];
        let mut n_dirs = 0;
        for (shift, fits) in [
            (h1, connect <= cols),
            (rows, connect <= rows.min(cols)),
            (rows + 2, connect <= rows.min(cols)),
        ] {
            if fits {
                dirs[n_dirs] = shift;
                n_dirs += 1;
            }
        }
        Geometry {
            rows,
            cols,
            connect,
            bottom,
            board,
            dirs,
            n_dirs,
            vertical: connect <= rows,
            four_everywhere: connect == 4 && rows >= 4 && cols >= 4,
        }
    }

    /// All cells of column `col` (which must be `< cols`).
    #[inline]
    pub fn column_mask(&self, col: u32) -> u64 {
        ((1u64 << self.rows) - 1) << (col * (self.rows + 1))
    }

    /// The column of a cell given as a one-bit mask.
    #[inline]
    pub fn column_of(&self, cell: u64) -> u32 {
        cell.trailing_zeros() / (self.rows + 1)
    }

    /// The lowest empty cell of every column that is not full.
    #[inline]
    pub fn playable(&self, mask: u64) -> u64 {
        mask.wrapping_add(self.bottom) & self.board
    }

    /// The empty cells (of `board`, not in `mask`) where one more stone
    /// would give `stones` a line of `connect`, playable now or not.
    /// `stones` must be a subset of `mask`, and `mask` stacked from the bottom.
    #[inline]
    pub fn winning_spots(&self, stones: u64, mask: u64) -> u64 {
        let spots = if self.four_everywhere {
            // Cells above an empty cell are empty: vertically only the run
            // below counts.
            let four = |rows: u32| {
                let below = completions(stones, 1, 4, true);
                [rows + 1, rows, rows + 2]
                    .into_iter()
                    .fold(below, |r, d| r | completions(stones, d, 4, false))
            };
            // The standard height as a constant gives immediate shifts: the
            // walk of `examples/bench.rs` runs about 1.4 times faster.
            if self.rows == 6 {
                four(6)
            } else {
                four(self.rows)
            }
        } else {
            let below = if self.vertical {
                completions(stones, 1, self.connect, true)
            } else {
                0
            };
            self.dirs[..self.n_dirs].iter().fold(below, |r, &d| {
                r | completions(stones, d, self.connect, false)
            })
        };
        spots & self.board & !mask
    }

    /// How many lines of `connect` cells (windows) contain no cell of
    /// `blocked`: the lines still open to the other player.
    #[inline]
    pub fn open_lines(&self, blocked: u64) -> u32 {
        let free = self.board & !blocked;
        let vertical = if self.vertical {
            run_starts(free, 1, self.connect).count_ones()
        } else {
            0
        };
        self.dirs[..self.n_dirs].iter().fold(vertical, |n, &d| {
            n + run_starts(free, d, self.connect).count_ones()
        })
    }
}

/// The cells `x` such that `x, x + d, ..., x + (k - 1) d` are all in
/// `stones`: the starts of runs of `k` along shift `d`. `O(log k)` steps.
#[inline(always)]
fn run_starts(stones: u64, d: u32, k: u32) -> u64 {
    let mut runs = stones;
    let mut len = 1;
    while 2 * len <= k {
        runs &= runs >> (d * len);
        len *= 2;
    }
    if len < k {
        runs &= runs >> (d * (k - len));
    }
    runs
}

/// The cells `x` that would complete a run of `k` along shift `d`: for some
/// `a + b = k - 1`, the `a` cells before `x` and the `b` cells after it are
/// all in `stones`. With `only_before`, just `a = k - 1` (vertical lines,
/// where the cells above an empty cell are empty).
///
/// The shifts stay below 64 because the geometry only asks for directions in
/// which a line of `k` fits on the board.
#[inline(always)]
fn completions(stones: u64, d: u32, k: u32, only_before: bool) -> u64 {
    // before(a): the a cells before x are stones; after(b) likewise.
    let before = |a: u32| (1..=a).fold(u64::MAX, |acc, j| acc & (stones << (d * j)));
    let after = |b: u32| (1..=b).fold(u64::MAX, |acc, j| acc & (stones >> (d * j)));
    if only_before {
        return before(k - 1);
    }
    (0..k).fold(0, |r, a| r | (before(a) & after(k - 1 - a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell at `row` of `col` on a board of `rows` rows.
    fn cell(rows: u32, col: u32, row: u32) -> u64 {
        1 << (col * (rows + 1) + row)
    }

    #[test]
    fn standard_board_masks_have_one_free_bit_per_column() {
        let g = Geometry::new(6, 7, 4);
        assert_eq!(g.board.count_ones(), 42);
        assert_eq!(g.bottom.count_ones(), 7);
        assert_eq!(
            g.board & (g.board >> 6) & g.bottom,
            0,
            "the sentinel bit of a column is not on the board"
        );
        assert_eq!(g.column_mask(6) & g.board, g.column_mask(6));
        assert_eq!(g.column_mask(0).leading_zeros(), 64 - 6);
    }

    /// Whether `stones` hold `k` in a row, by walking every cell and
    /// direction on the grid (no bit tricks).
    fn has_line_by_walking(rows: u32, cols: u32, k: u32, stones: u64) -> bool {
        let at = |c: i64, r: i64| {
            (0..i64::from(cols)).contains(&c)
                && (0..i64::from(rows)).contains(&r)
                && stones & cell(rows, c as u32, r as u32) != 0
        };
        (0..i64::from(cols)).any(|c| {
            (0..i64::from(rows)).any(|r| {
                [(0, 1), (1, 0), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dc, dr)| (0..i64::from(k)).all(|i| at(c + i * dc, r + i * dr)))
            })
        })
    }

    #[test]
    fn three_at_the_top_of_a_column_do_not_wrap_into_the_next_column() {
        let g = Geometry::new(6, 7, 4);
        let stones = cell(6, 0, 3) | cell(6, 0, 4) | cell(6, 0, 5);
        let mask = g.column_mask(0);
        assert_eq!(g.winning_spots(stones, mask), 0);
        // The same three lower down do have a spot: the cell above.
        let low = cell(6, 0, 0) | cell(6, 0, 1) | cell(6, 0, 2);
        assert_eq!(g.winning_spots(low, low), cell(6, 0, 3));
    }

    #[test]
    fn winning_spots_are_the_empty_cells_that_complete_a_line() {
        // Random stacked positions without a line, on boards of every shape:
        // a cell is a winning spot exactly when it is empty and adding it
        // makes a line.
        for (rows, cols, k) in [
            (6, 7, 4),
            (4, 4, 3),
            (5, 6, 5),
            (7, 8, 4),
            (1, 9, 3),
            (8, 3, 6),
            (3, 12, 4),
        ] {
            let g = Geometry::new(rows, cols, k);
            let mut seed = 0x1234_5678_u64 + u64::from(rows * 100 + cols * 10 + k);
            let mut random = || {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                seed >> 33
            };
            let mut checked = 0;
            for _ in 0..400 {
                let mut mask = 0;
                let mut stones = 0;
                for c in 0..cols {
                    let height = random() as u32 % (rows + 1);
                    for r in 0..height {
                        mask |= cell(rows, c, r);
                        if random() % 2 == 0 {
                            stones |= cell(rows, c, r);
                        }
                    }
                }
                if has_line_by_walking(rows, cols, k, stones) {
                    continue;
                }
                checked += 1;
                let spots = g.winning_spots(stones, mask);
                for c in 0..cols {
                    for r in 0..rows {
                        let x = cell(rows, c, r);
                        let completes =
                            mask & x == 0 && has_line_by_walking(rows, cols, k, stones | x);
                        assert_eq!(
                            spots & x != 0,
                            completes,
                            "{rows}x{cols} k={k}, cell ({c},{r})"
                        );
                    }
                }
                assert_eq!(spots & !g.board, 0, "spots off the board");
            }
            assert!(
                checked >= 100,
                "{rows}x{cols} k={k}: only {checked} patterns without a line"
            );
        }
    }

    #[test]
    fn open_lines_of_an_empty_standard_board_is_69() {
        // 24 horizontal + 21 vertical + 12 + 12 diagonal windows.
        assert_eq!(Geometry::new(6, 7, 4).open_lines(0), 69);
        // A stone in the bottom centre cell sits in 7 windows.
        assert_eq!(Geometry::new(6, 7, 4).open_lines(cell(6, 3, 0)), 62);
    }
}
