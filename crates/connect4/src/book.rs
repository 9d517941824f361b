//! The opening book of the standard board: exact values of positions with
//! 12 stones, so the engine plays perfectly from the first move.
//!
//! The empty board takes the solver minutes, positions with 12 stones
//! about a second at most; with the value of every 12-stone position known,
//! a search from any earlier position only has to reach them. The data is
//! Markus Thill's `book_12ply_distances.dat` from the MIT-licensed
//! `bitbully-databases` package (see `book/README.md`), read here with our
//! own code from its documented format:
//!
//! - entries of 5 bytes, sorted by their first four: a position as a
//!   big-endian 32-bit code, then its score as a signed byte;
//! - the code reads from its highest bit, column by column from the left,
//!   each column's stones from the bottom: `10` a stone of player 1, `11`
//!   one of player 2, `0` the end of the column (also after a full one);
//!   zeros pad the rest;
//! - a position and its mirror image share one entry;
//! - score 0 is a draw, `100 - s` is how many moves from now player 1
//!   wins (score `s > 0`) or loses (`s < 0`).
//!
//! Positions are keyed by [`mirror_key`]: the smaller of the keys of the
//! position and of its mirror image, so both find the same entry.

use crate::board::Geometry;
use game_api::Value;
use std::sync::{Arc, OnceLock};

/// The book, as published (21 MB, 4,200,899 entries).
static DATA: &[u8] = include_bytes!("../book/book_12ply_distances.dat");

/// How many stones the positions in the book have.
pub(crate) const BOOK_PLIES: u32 = 12;

/// Bytes per entry: the 4-byte position code and the score.
const ENTRY_BYTES: usize = 5;

/// The decoded book, once per process.
static BOOK: OnceLock<Arc<[(u64, Value)]>> = OnceLock::new();

/// A unique key of the stones of `p1` and `all`: per column, the stones of
/// player 1 below a marker bit on top of the column's stones (Pons'
/// `position + mask + bottom`). Columns do not carry into each other, so
/// mirroring the key mirrors the position.
#[inline]
pub(crate) fn raw_key(geo: &Geometry, p1: u64, all: u64) -> u64 {
    p1 + all + geo.bottom
}

/// The key with its columns in reverse order.
#[inline]
fn mirror(geo: &Geometry, key: u64) -> u64 {
    let h1 = geo.rows + 1;
    let column = (1u64 << h1) - 1;
    (0..geo.cols).fold(0, |m, c| {
        m | ((key >> (c * h1)) & column) << ((geo.cols - 1 - c) * h1)
    })
}

/// The key shared by a position and its mirror image.
#[inline]
pub(crate) fn mirror_key(geo: &Geometry, p1: u64, all: u64) -> u64 {
    let key = raw_key(geo, p1, all);
    key.min(mirror(geo, key))
}

/// The book's entries as `(mirror_key, value to player 1)`, sorted by key.
/// `geo` must be the standard board, where moves are counted as in
/// `win_value`.
pub(crate) fn entries(geo: &Geometry, win_value: impl Fn(u32) -> Value) -> Arc<[(u64, Value)]> {
    BOOK.get_or_init(|| {
        let mut entries: Vec<(u64, Value)> = DATA
            .chunks_exact(ENTRY_BYTES)
            .enumerate()
            .map(|(i, entry)| {
                let code = u32::from_be_bytes([entry[0], entry[1], entry[2], entry[3]]);
                let (p1, all) = decode(geo, code).unwrap_or_else(|| {
                    panic!("opening book entry {i}: {code:#010x} is not a 12-stone position")
                });
                let score = i8::from_be_bytes([entry[4]]);
                (mirror_key(geo, p1, all), value_of_score(score, &win_value))
            })
            .collect();
        entries.sort_unstable();
        entries.dedup();
        Arc::from(entries)
    })
    .clone()
}

/// The stones of player 1 and all stones of a position code; `None` unless
/// it is a position with [`BOOK_PLIES`] stones on `geo`'s board.
fn decode(geo: &Geometry, code: u32) -> Option<(u64, u64)> {
    let h1 = geo.rows + 1;
    // The unread bits at the top of `bits`, and how many are left.
    let (mut bits, mut left) = (code, 32u32);
    let mut next = || {
        left = left.checked_sub(1)?;
        let bit = bits >> 31 == 1;
        bits <<= 1;
        Some(bit)
    };
    let (mut p1, mut all, mut stones) = (0u64, 0u64, 0);
    for col in 0..geo.cols {
        let mut height = 0;
        while next()? {
            if height == geo.rows {
                return None;
            }
            let cell = 1u64 << (col * h1 + height);
            all |= cell;
            if !next()? {
                p1 |= cell;
            }
            height += 1;
            stones += 1;
        }
    }
    (stones == BOOK_PLIES).then_some((p1, all))
}

/// A score as a value to player 1: `win_value(m)` is what a win with move
/// number `m` is worth to the winner.
fn value_of_score(score: i8, win_value: impl Fn(u32) -> Value) -> Value {
    let moves_left = 100 - u32::from(score.unsigned_abs());
    match score.signum() {
        0 => 0,
        s => Value::from(s) * win_value(BOOK_PLIES + moves_left),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Geometry {
        Geometry::new(6, 7, 4)
    }

    /// The bits of a code written as text (spaces ignored), from the
    /// highest, padded with zeros.
    fn code(bits: &str) -> u32 {
        let bits: Vec<bool> = bits
            .chars()
            .filter(|c| *c != ' ')
            .map(|c| c == '1')
            .collect();
        bits.iter().fold(0u32, |c, &b| c << 1 | u32::from(b)) << (32 - bits.len())
    }

    #[test]
    fn a_code_decodes_column_by_column_from_the_highest_bit() {
        let geo = standard();
        // The package's first example, from the bottom: column 2 O X O X,
        // column 4 X O X O X, column 6 O X O; the others empty.
        let (p1, all) = decode(&geo, code("0 111011100 0 10111011100 0 1110110 0 0"))
            .expect("a 12-stone position");
        let cell = |col: u32, row: u32| 1u64 << (col * 7 + row);
        let x = [
            cell(1, 1),
            cell(1, 3),
            cell(3, 0),
            cell(3, 2),
            cell(3, 4),
            cell(5, 1),
        ];
        let o = [
            cell(1, 0),
            cell(1, 2),
            cell(3, 1),
            cell(3, 3),
            cell(5, 0),
            cell(5, 2),
        ];
        assert_eq!(p1, x.iter().sum::<u64>());
        assert_eq!(all, p1 + o.iter().sum::<u64>());
        // Two stones only, or a seventh stone in a column: not a book position.
        assert_eq!(decode(&geo, code("1011 0 0 0 0 0 0 0")), None);
        assert_eq!(decode(&geo, code("10101010101010 0")), None);
    }

    #[test]
    fn mirror_keys_are_shared_by_a_position_and_its_mirror_image() {
        let geo = standard();
        // One stone of player 1 in column 1, against one in column 7.
        let left = 1u64;
        let right = 1u64 << (6 * 7);
        assert_ne!(raw_key(&geo, left, left), raw_key(&geo, right, right));
        assert_eq!(mirror_key(&geo, left, left), mirror_key(&geo, right, right));
        assert_eq!(
            mirror(&geo, mirror(&geo, 0x1234_5678_9abc)),
            0x1234_5678_9abc
        );
    }

    #[test]
    fn scores_count_moves_from_the_twelfth() {
        // Player 1 wins with move 12 + 29 = 41, its 21st stone: 22 - 21.
        let win_value = |m: u32| 22 - Value::try_from(m.div_ceil(2)).unwrap();
        assert_eq!(value_of_score(71, win_value), 1);
        // Player 2 wins with move 24, its 12th stone.
        assert_eq!(value_of_score(-88, win_value), -10);
        assert_eq!(value_of_score(0, win_value), 0);
    }
}
