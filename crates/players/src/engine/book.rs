//! The opening book: exact values the game knows in advance.
//!
//! Far from the end, a position can take the search minutes to solve
//! (the empty Connect-4 board), so no move budget finds its exact value.
//! A game may then provide a book ([`Game::opening_book`]): exact values
//! of positions, keyed by [`Game::book_key`] (shared by symmetric
//! positions). The search returns a book value as soon as it meets a
//! position in the book, so from the first move it only has to reach the
//! book's positions, and plays exactly. Nothing here knows any game.
//!
//! [`Game::opening_book`]: game_api::Game::opening_book
//! [`Game::book_key`]: game_api::Game::book_key

use game_api::Value;
use std::sync::Arc;

/// Exact values by book key, as the game gave them: sorted by key, each key
/// once, so a lookup is a binary search and the entries are shared by every
/// engine in the process, never copied.
#[derive(Clone, Debug)]
pub(crate) struct Book {
    entries: Arc<[(u64, Value)]>,
}

impl Book {
    /// The book of `entries`.
    ///
    /// # Panics
    /// If the entries are not sorted by key, each key once: the game broke
    /// [`Game::opening_book`](game_api::Game::opening_book)'s contract, and
    /// a search could not trust its values.
    pub fn new(entries: Arc<[(u64, Value)]>) -> Self {
        if let Some(i) = entries.windows(2).position(|w| w[0].0 >= w[1].0) {
            panic!(
                "the game's opening book is not sorted by key, each key once: entry {} (key {:#x}) comes after key {:#x}",
                i + 1,
                entries[i + 1].0,
                entries[i].0
            );
        }
        Book { entries }
    }

    /// Whether this book holds exactly `entries` (the same shared data).
    pub fn is(&self, entries: &Arc<[(u64, Value)]>) -> bool {
        Arc::ptr_eq(&self.entries, entries)
    }

    /// The exact value (to player 1) of the position with `key`, if known.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Value> {
        self.entries
            .binary_search_by_key(&key, |e| e.0)
            .ok()
            .map(|i| self.entries[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_keys_it_holds() {
        let book = Book::new(Arc::from(vec![(2, 5), (7, -3), (9, 0)]));
        assert_eq!(book.get(7), Some(-3));
        assert_eq!(book.get(9), Some(0));
        assert_eq!(book.get(3), None);
        assert_eq!(book.get(u64::MAX), None);
    }

    #[test]
    #[should_panic(expected = "not sorted by key")]
    fn refuses_entries_out_of_order() {
        let _ = Book::new(Arc::from(vec![(2, 5), (2, 1)]));
    }
}
