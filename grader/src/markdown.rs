//! Safe rendering of text the grader does not control, in one place.
//!
//! The feedback is Markdown that Gradescope, GitHub or an editor renders as
//! HTML, and part of what it shows comes from the student's process: what
//! it printed, its panic and error messages. Such text must be shown
//! exactly as it was and never become Markdown or HTML of its own:
//!
//! - [`fence`] puts text in a code block that its content cannot close
//!   (CommonMark: a fence of more backticks than any run inside it);
//! - [`code_span`] does the same for one line within a paragraph;
//! - [`literal`] and [`inline`] make one line of text safe outside a fence
//!   (HTML escaped, line breaks and control characters removed; `literal`
//!   also shows Markdown punctuation as itself);
//! - [`clean`] removes terminal control sequences (ANSI colours, cursor
//!   moves) and shows other control and bidirectional-override characters
//!   as `�`, so no text can redraw a terminal or reorder what is shown;
//! - [`cut`] shortens long output, saying how much was left out.

use std::fmt::Write as _;

/// At most this many lines of a program's output are shown.
pub const MAX_LINES: usize = 40;
/// At most this many bytes of a program's output are shown.
pub const MAX_BYTES: usize = 4096;

/// `text` without terminal control sequences: ANSI escape sequences (CSI,
/// OSC and two-byte ones) are dropped, `\r\n` and lone `\r` become `\n`,
/// and every other control character (except `\n` and `\t`) and every
/// bidirectional override becomes `�`.
///
/// ```
/// use grader::markdown::clean;
/// assert_eq!(clean("\x1b[31merror\x1b[0m\r\ndone\x07"), "error\ndone\u{fffd}");
/// ```
#[must_use]
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates, then one final byte.
                Some('[') => {
                    while let Some(&n) = chars.peek() {
                        chars.next();
                        if ('\u{40}'..='\u{7e}').contains(&n) {
                            break;
                        }
                    }
                }
                // OSC (and DCS, PM, APC, SOS): up to BEL or ESC \.
                Some(']' | 'P' | '^' | '_' | 'X') => {
                    while let Some(n) = chars.next() {
                        if n == '\u{7}' {
                            break;
                        }
                        if n == '\u{1b}' {
                            chars.next_if_eq(&'\\');
                            break;
                        }
                    }
                }
                // Two-byte sequences: ESC and one more character.
                Some(_) | None => {}
            },
            '\r' => {
                chars.next_if_eq(&'\n');
                out.push('\n');
            }
            '\n' | '\t' => out.push(c),
            c if c.is_control() || is_bidi_control(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Characters that reorder the text shown around them.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// At most `max_lines` lines and about `max_bytes` bytes of `text` (cut at
/// a character boundary), then a note saying how much was left out.
///
/// ```
/// use grader::markdown::cut;
/// assert_eq!(cut("a\nb\nc\n", 2, 100), "a\nb\n… (cut: 1 more line, 2 more bytes)");
/// assert_eq!(cut("short", 2, 100), "short");
/// ```
#[must_use]
pub fn cut(text: &str, max_lines: usize, max_bytes: usize) -> String {
    let mut end = text.len().min(max_bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if let Some((i, _)) = text[..end]
        .match_indices('\n')
        .nth(max_lines.saturating_sub(1))
    {
        end = i + 1;
    }
    if end == text.len() {
        return text.to_owned();
    }
    let rest = &text[end..];
    let lines = rest.lines().count();
    let mut shown = text[..end].to_owned();
    if !shown.ends_with('\n') {
        shown.push('\n');
    }
    let _ = write!(
        shown,
        "… (cut: {lines} more line{}, {} more bytes)",
        if lines == 1 { "" } else { "s" },
        rest.len()
    );
    shown
}

/// A fenced code block showing `text` exactly (after [`clean`]): the fence
/// is a run of backticks longer than any inside `text` (at least 3), so
/// nothing in it can close the block early; `info` is the language
/// (`text`, `rust`). Ends with a blank line.
///
/// ```
/// use grader::markdown::fence;
/// assert_eq!(fence("a\n```\nb", "text"), "````text\na\n```\nb\n````\n\n");
/// ```
#[must_use]
pub fn fence(text: &str, info: &str) -> String {
    let text = clean(text);
    let longest = longest_run(&text, '`');
    let ticks = "`".repeat(longest.max(2) + 1);
    let info: String = info.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let body = text.strip_suffix('\n').unwrap_or(&text);
    format!("{ticks}{info}\n{body}\n{ticks}\n\n")
}

/// One line of text as inline code, shown exactly (after [`clean`], line
/// breaks as spaces): delimited by more backticks than any run inside.
///
/// ```
/// use grader::markdown::code_span;
/// assert_eq!(code_span("1:2 3:1"), "`1:2 3:1`");
/// assert_eq!(code_span("a``b"), "```a``b```");
/// assert_eq!(code_span("`x"), "`` `x ``");
/// ```
#[must_use]
pub fn code_span(text: &str) -> String {
    let text = one_line(text);
    let ticks = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// One line of Markdown written by the course (descriptions, what a test
/// checks) made safe: [`clean`]ed, on one line, with HTML escaped; its
/// Markdown (a `code span`, *emphasis*) still renders.
///
/// ```
/// use grader::markdown::inline;
/// assert_eq!(inline("the law `a`\n<b>"), "the law `a` &lt;b&gt;");
/// ```
#[must_use]
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        push_html_escaped(&mut out, c);
    }
    out
}

/// One line of text shown exactly as it is (a student's name, a test's
/// name), within a line that it does not start: [`clean`]ed, on one line,
/// HTML escaped, and every character that could begin Markdown inside a
/// line backslash-escaped (`` ` `` `*` `[` `]` `\` `#` `|` `~` `!`, and
/// `_` unless it is between letters or digits, where it cannot). What
/// starts a block (`-`, `+`, `1.`) is harmless there, and left readable.
///
/// ```
/// use grader::markdown::literal;
/// assert_eq!(literal("# [x](y) <img>"), "\\# \\[x\\](y) &lt;img&gt;");
/// assert_eq!(literal("law: a_b-c"), "law: a_b-c");
/// assert_eq!(literal("_x_ *y*"), "\\_x\\_ \\*y\\*");
/// ```
#[must_use]
pub fn literal(text: &str) -> String {
    let chars: Vec<char> = one_line(text).chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_words = || {
            let word = |j: Option<usize>| {
                j.and_then(|j| chars.get(j))
                    .is_some_and(|c| c.is_alphanumeric())
            };
            word(i.checked_sub(1)) && word(Some(i + 1))
        };
        let special = matches!(c, '`' | '*' | '[' | ']' | '\\' | '#' | '|' | '~' | '!')
            || (c == '_' && !between_words());
        if special {
            out.push('\\');
        }
        push_html_escaped(&mut out, c);
    }
    out
}

/// [`clean`], with line breaks and tabs as spaces.
fn one_line(text: &str) -> String {
    clean(text).replace(['\n', '\t'], " ")
}

/// `&`, `<` and `>` as entities: enough, since text is never put inside
/// an HTML attribute.
fn push_html_escaped(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        c => out.push(c),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The fenced blocks of a Markdown text (CommonMark's rule for backtick
    /// fences), and whether one is left open; `outside` gets every other line.
    pub(crate) fn blocks(md: &str) -> (Vec<String>, Vec<String>, bool) {
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        let mut open: Option<(usize, String)> = None;
        for line in md.lines() {
            let trimmed = line.trim_start_matches(' ');
            let indent = line.len() - trimmed.len();
            let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
            match &mut open {
                Some((n, body)) => {
                    if indent <= 3 && ticks >= *n && trimmed[ticks..].trim().is_empty() {
                        inside.push(std::mem::take(body));
                        open = None;
                    } else {
                        body.push_str(line);
                        body.push('\n');
                    }
                }
                None if indent <= 3 && ticks >= 3 && !trimmed[ticks..].contains('`') => {
                    open = Some((ticks, String::new()));
                }
                None => outside.push(line.to_owned()),
            }
        }
        (inside, outside, open.is_some())
    }

    #[test]
    fn a_fence_is_longer_than_every_backtick_run_inside_it() {
        for text in [
            "plain",
            "a ``` b",
            "```\n# Pwned",
            "````\n```",
            "x`````y",
            "``",
        ] {
            let md = format!("before\n\n{}after\n", fence(text, "text"));
            let (inside, outside, open) = blocks(&md);
            assert!(!open, "{md}");
            assert_eq!(inside, [format!("{text}\n")], "{md}");
            assert_eq!(outside, ["before", "", "", "after"], "{md}");
        }
        assert!(fence("``", "text").starts_with("```text\n"));
        assert!(fence("a ``` b", "text").starts_with("````text\n"));
        assert!(fence("````\n```", "rust").starts_with("`````rust\n"));
    }

    #[test]
    fn html_inside_a_fence_stays_inside_and_outside_is_escaped() {
        let hostile =
            "</details>\n<script>alert(1)</script>\n```\n# Pwned\n<img src=x onerror=alert(1)>";
        let md = format!("<details>\n\n{}</details>\n", fence(hostile, "text"));
        let (inside, outside, open) = blocks(&md);
        assert!(!open);
        assert_eq!(inside, [format!("{hostile}\n")]);
        assert_eq!(outside, ["<details>", "", "", "</details>"]);
        assert_eq!(
            inline("</details><script>x</script>"),
            "&lt;/details&gt;&lt;script&gt;x&lt;/script&gt;"
        );
        assert_eq!(
            literal("```\n# Pwned\n<img src=x onerror=alert(1)>"),
            "\\`\\`\\` \\# Pwned &lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(
            literal("![x](javascript:y) &lt;"),
            "\\!\\[x\\](javascript:y) &amp;lt;"
        );
    }

    #[test]
    fn a_megabyte_of_output_is_cut_with_a_note() {
        let line = "x".repeat(99) + "\n";
        let big = line.repeat(10_486);
        let shown = cut(&big, MAX_LINES, MAX_BYTES);
        assert!(shown.len() < MAX_BYTES + 100, "{}", shown.len());
        let kept = MAX_BYTES / 100;
        assert!(shown.starts_with(&line.repeat(kept)));
        let rest = big.len() - kept * 100;
        assert!(
            shown.ends_with(&format!(
                "… (cut: {} more lines, {rest} more bytes)",
                10_486 - kept
            )),
            "{}",
            &shown[shown.len() - 80..]
        );
        let one_line = "é".repeat(600_000);
        let shown = cut(&one_line, MAX_LINES, MAX_BYTES);
        assert!(shown.starts_with(&"é".repeat(MAX_BYTES / 2)));
        assert!(shown.ends_with(" more bytes)"));
        let many = "a\n".repeat(100);
        assert!(
            cut(&many, MAX_LINES, MAX_BYTES).ends_with("… (cut: 60 more lines, 120 more bytes)")
        );
    }

    #[test]
    fn terminal_control_sequences_are_removed_or_shown_as_replacement_characters() {
        assert_eq!(clean("\x1b[1;31mred\x1b[0m"), "red");
        assert_eq!(clean("\x1b]0;title\x07text"), "text");
        assert_eq!(clean("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "link");
        assert_eq!(clean("a\x1bcb"), "ab");
        assert_eq!(clean("50%\r100%\r\n"), "50%\n100%\n");
        assert_eq!(
            clean("nul\0 bell\x07 del\x7f c1\u{9b}"),
            "nul\u{fffd} bell\u{fffd} del\u{fffd} c1\u{fffd}"
        );
        assert_eq!(clean("abc\u{202e}fed"), "abc\u{fffd}fed");
        assert_eq!(clean("tab\tand\nnewline"), "tab\tand\nnewline");
        assert!(!fence("\x1b[2J\x1b[Hcleared", "text").contains('\x1b'));
        assert_eq!(inline("a\x1b[31m\nb"), "a b");
    }
}
