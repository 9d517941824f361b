//! Showing people's input back to them, safely and briefly.
//!
//! Whatever a program echoes from its input (a move that does not parse, an
//! option's value, a file's player names) goes through [`echo`]: control
//! characters, NUL, a byte-order mark and other invisible characters are
//! shown as escapes (so `\e[2J` cannot clear a terminal, and `44\0 53` is not
//! shown as `4453`), and long text is cut short. Long lists of moves go
//! through [`list_moves`]: in the game's natural order (`1, 2, ..., 10`,
//! not the order a search tries them), and summarised.

use std::cmp::Ordering;
use std::io::{self, BufRead};

/// The longest line [`read_line`] keeps, in bytes (1 MiB).
pub const LINE_LIMIT: usize = 1 << 20;

/// How many characters of echoed input are shown before it is cut with `…`.
pub const ECHO_LIMIT: usize = 80;

/// How many moves [`list_moves`] shows before saying how many more there are.
pub const LIST_LIMIT: usize = 20;

/// `text` made safe and short enough to show in a message: control
/// characters, NUL, BOM and other invisible or direction-changing
/// characters escaped as Rust writes them (`\u{1b}`, `\0`, `\u{feff}`),
/// backslashes doubled, and at most [`ECHO_LIMIT`] characters shown, then `…`.
///
/// ```
/// use game_api::echo;
/// assert_eq!(echo("banana"), "banana");
/// assert_eq!(echo("\u{1b}[2J"), "\\u{1b}[2J");
/// assert_eq!(echo("44\0 53"), "44\\0 53");
/// assert_eq!(echo("\u{feff}4"), "\\u{feff}4");
/// let long = "x".repeat(10_000);
/// assert_eq!(echo(&long), format!("{}…", "x".repeat(80)));
/// ```
#[must_use]
pub fn echo(text: &str) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        let piece: String = match c {
            // Quotes are harmless in messages; escape_debug would escape them.
            '"' | '\'' => c.to_string(),
            _ => c.escape_debug().collect(),
        };
        let width = piece.chars().count();
        if shown + width > ECHO_LIMIT {
            out.push('…');
            return out;
        }
        out.push_str(&piece);
        shown += width;
    }
    out
}

/// Compares move texts in natural order: runs of digits by their value,
/// everything else character by character (`2` before `10`, `1:2` before
/// `1:10`, `C 3` before `R 1`).
///
/// ```
/// use game_api::text::natural_cmp;
/// let mut moves = vec!["10", "2", "1:10", "1:2", "R 1", "C 3"];
/// moves.sort_by(|a, b| natural_cmp(a, b));
/// assert_eq!(moves, ["1:2", "1:10", "2", "10", "C 3", "R 1"]);
/// ```
#[must_use]
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let (na, ra) = split_digits(a);
                let (nb, rb) = split_digits(b);
                // Compare values: without leading zeros, longer is larger.
                let (ta, tb) = (na.trim_start_matches('0'), nb.trim_start_matches('0'));
                let by_value = ta.len().cmp(&tb.len()).then_with(|| ta.cmp(tb));
                match by_value.then_with(|| na.len().cmp(&nb.len())) {
                    Ordering::Equal => (a, b) = (ra, rb),
                    other => return other,
                }
            }
            (Some(x), Some(y)) => match x.cmp(&y) {
                Ordering::Equal => (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]),
                other => return other,
            },
        }
    }
}

fn split_digits(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(end)
}

/// Moves for a message: in natural order (see [`natural_cmp`]), each
/// [`echo`]ed, separated by commas; past [`LIST_LIMIT`] moves, the first
/// ones and `… and K more`.
///
/// ```
/// use game_api::text::list_moves;
/// assert_eq!(list_moves(["4", "3", "5", "10"].map(String::from)), "3, 4, 5, 10");
/// let many = (1..=1000).rev().map(|n| n.to_string());
/// let text = list_moves(many);
/// assert!(text.starts_with("1, 2, 3, ") && text.ends_with("20 … and 980 more"), "{text}");
/// ```
#[must_use]
pub fn list_moves(moves: impl IntoIterator<Item = String>) -> String {
    let mut moves: Vec<String> = moves.into_iter().collect();
    let total = moves.len();
    if total > LIST_LIMIT {
        // Only the first LIST_LIMIT need sorting: linear time for huge lists.
        moves.select_nth_unstable_by(LIST_LIMIT, |a, b| natural_cmp(a, b));
        moves.truncate(LIST_LIMIT);
    }
    moves.sort_by(|a, b| natural_cmp(a, b));
    let shown: Vec<String> = moves.iter().map(|m| echo(m)).collect();
    let mut text = shown.join(", ");
    if total > LIST_LIMIT {
        text.push_str(&format!(" … and {} more", total - LIST_LIMIT));
    }
    text
}

/// `n` and `word`, with an `s` unless `n` is 1: `1 row`, `5 rows`.
///
/// ```
/// use game_api::text::count;
/// assert_eq!((count(1u32, "row"), count(5u32, "stone")), ("1 row".to_owned(), "5 stones".to_owned()));
/// ```
#[must_use]
pub fn count(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// How many bytes of one line [`EndlessLines`] lets through before it
/// takes the input for something that is not text (`/dev/zero`): 16 MiB.
pub const ENDLESS_LINE: u64 = 16 << 20;

/// Input that ends once a line runs past [`ENDLESS_LINE`] bytes without a
/// line break, so that reading line by line always ends, even on an input
/// such as `/dev/zero` that never does (memory is bounded by [`read_line`],
/// time by this).
///
/// ```
/// use game_api::text::{read_line, EndlessLines, Line};
/// let mut input = EndlessLines::new(std::io::BufReader::new(std::io::repeat(0)));
/// assert!(matches!(read_line(&mut input, 10).unwrap(), Line::TooLong { .. }));
/// assert_eq!(read_line(&mut input, 10).unwrap(), Line::End);
/// ```
#[derive(Debug)]
pub struct EndlessLines<R> {
    inner: R,
    /// Bytes passed on since the last line break.
    run: u64,
}

impl<R> EndlessLines<R> {
    /// Watches `inner`'s lines.
    pub fn new(inner: R) -> Self {
        EndlessLines { inner, run: 0 }
    }
}

impl<R: BufRead> io::Read for EndlessLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for EndlessLines<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.run > ENDLESS_LINE {
            return Ok(&[]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if amount == 0 {
            return;
        }
        // The bytes consumed are still in the buffer `fill_buf` returned.
        if let Ok(buf) = self.inner.fill_buf() {
            let taken = &buf[..amount.min(buf.len())];
            match taken.iter().rposition(|&b| b == b'\n') {
                Some(i) => self.run = (taken.len() - i - 1) as u64,
                None => self.run += taken.len() as u64,
            }
        }
        self.inner.consume(amount);
    }
}

/// A line of input, as [`read_line`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line break (`\n` or `\r\n`).
    Text(String),
    /// A line that is not UTF-8 text; `at` is the byte offset of the first
    /// bad byte.
    NotUtf8 {
        /// Offset of the first byte that is not UTF-8.
        at: usize,
    },
    /// A line longer than the limit, read through to its end and dropped.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// The input has ended.
    End,
}

/// Reads one line of at most `limit` bytes (a longer one is read through
/// to its end and dropped, so memory stays bounded whatever the input),
/// telling text from bytes that are not UTF-8 instead of failing.
///
/// ```
/// use game_api::text::{read_line, Line};
/// let mut input = &b"4\r\n\xff\n12345\nlast"[..];
/// assert_eq!(read_line(&mut input, 4).unwrap(), Line::Text("4".into()));
/// assert_eq!(read_line(&mut input, 4).unwrap(), Line::NotUtf8 { at: 0 });
/// assert_eq!(read_line(&mut input, 4).unwrap(), Line::TooLong { bytes: 6 });
/// assert_eq!(read_line(&mut input, 4).unwrap(), Line::Text("last".into()));
/// assert_eq!(read_line(&mut input, 4).unwrap(), Line::End);
/// ```
///
/// # Errors
/// What reading `input` reports.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, limit: usize) -> io::Result<Line> {
    let mut bytes = Vec::new();
    let (mut total, mut too_long) = (0usize, false);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if total == 0 {
                return Ok(Line::End);
            }
            break;
        }
        let (n, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if !too_long {
            if bytes.len() + n > limit + 2 {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(&buf[..n]);
            }
        }
        total += n;
        input.consume(n);
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    if too_long || bytes.len() > limit {
        return Ok(Line::TooLong { bytes: total });
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(e) => Line::NotUtf8 {
            at: e.utf8_error().valid_up_to(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_cuts_after_whole_escapes_only() {
        let nuls = "\0".repeat(100);
        let shown = echo(&nuls);
        assert!(shown.ends_with("\\0…"), "{shown}");
        assert_eq!(shown.chars().count(), 81);
        assert_eq!(echo(&"é".repeat(80)), "é".repeat(80));
        assert_eq!(
            echo("a\\0"),
            "a\\\\0",
            "a typed backslash is told apart from NUL"
        );
        assert_eq!(echo("\u{202e}evil"), "\\u{202e}evil");
    }

    #[test]
    fn natural_order_compares_numbers_by_value() {
        assert_eq!(natural_cmp("7", "10"), Ordering::Less);
        assert_eq!(natural_cmp("007", "7"), Ordering::Greater);
        assert_eq!(
            natural_cmp("99999999999999999999999", "1"),
            Ordering::Greater
        );
        assert_eq!(natural_cmp("a", "a"), Ordering::Equal);
    }
}
