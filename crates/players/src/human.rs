//! A person at a keyboard, as a player.
//!
//! The human reads from any [`BufRead`] and writes to any [`Write`], so the
//! same code serves a terminal (stdin/stdout) and tests (a byte string and a
//! `Vec<u8>`). Whatever is typed, it never panics: nonsense and illegal
//! moves, lines that are not UTF-8 text and overlong lines get the reason
//! (the input echoed escaped and cut short) and the legal moves, in the
//! game's natural order and summarised, then a new prompt; the end of
//! input is a resignation, said by the caller.

use crate::{Agent, Decision};
use game_api::text::{list_moves, read_line, Line, LINE_LIMIT};
use game_api::{Game, Status};
use std::io::{self, BufRead, Write};

/// A player who types moves in the game's notation.
///
/// Besides moves it understands `help` or `?` (the legal moves), `undo`,
/// `hint` and `quit` (which resigns, as does the end of input, silently:
/// the caller says what the end of input means).
///
/// ```
/// use game_api::Game;
/// use players::{Agent, Decision, Human};
/// let c4 = connect4::Connect4::default();
/// // In a terminal: Human::new(std::io::stdin().lock(), std::io::stdout())
/// let mut human = Human::new("banana\n4\n".as_bytes(), Vec::new());
/// let decision = human.decide(&c4, &c4.initial_state());
/// assert_eq!(decision, Decision::Play(c4.move_of_string("4").unwrap(), None));
/// let (_, shown) = human.into_parts();
/// assert!(String::from_utf8(shown).unwrap().contains("`banana` is not a move"));
/// // The end of input resigns.
/// let mut human = Human::new("".as_bytes(), Vec::new());
/// assert_eq!(human.decide(&c4, &c4.initial_state()), Decision::Resign);
/// ```
#[derive(Debug)]
pub struct Human<R, W> {
    input: R,
    output: W,
    help: String,
}

impl<R: BufRead, W: Write> Human<R, W> {
    /// A human reading moves from `input` and writing prompts to `output`.
    pub fn new(input: R, output: W) -> Self {
        Human {
            input,
            output,
            help: String::new(),
        }
    }

    /// Adds text that `help` shows before the legal moves, such as the
    /// game's rules and notation.
    ///
    /// ```
    /// use game_api::Game;
    /// use players::{Agent, Human};
    /// let nim = nim::Nim::default();
    /// let mut human = Human::new("help\nquit\n".as_bytes(), Vec::new()).with_help("Take 1 or 2 stones.");
    /// human.decide(&nim, &nim.initial_state());
    /// let (_, shown) = human.into_parts();
    /// assert!(String::from_utf8(shown).unwrap().contains("Take 1 or 2 stones."));
    /// ```
    #[must_use]
    pub fn with_help(mut self, text: impl Into<String>) -> Self {
        self.help = text.into();
        self
    }

    /// Gives back the input and the output (tests read what was written).
    pub fn into_parts(self) -> (R, W) {
        (self.input, self.output)
    }

    fn ask<G: Game>(&mut self, game: &G, state: &G::State) -> io::Result<Decision<G::Move>> {
        let who = match game.game_status(state) {
            Status::Ongoing(p) => game.string_of_player(p),
            _ => return Ok(Decision::Resign),
        };
        loop {
            write!(self.output, "{who}, your move: ")?;
            self.output.flush()?;
            let line = match read_line(&mut self.input, LINE_LIMIT)? {
                Line::Text(line) => line,
                Line::End => return Ok(Decision::Resign),
                Line::NotUtf8 { at } => {
                    let reason = format!("that line is not UTF-8 text (a bad byte at {at})");
                    self.refuse(game, state, &reason)?;
                    continue;
                }
                Line::TooLong { bytes } => {
                    let reason = format!("that line is {bytes} bytes long, more than any move");
                    self.refuse(game, state, &reason)?;
                    continue;
                }
            };
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => continue,
                "quit" | "resign" => return Ok(Decision::Resign),
                "undo" => return Ok(Decision::Undo),
                "hint" => return Ok(Decision::Hint),
                "help" | "?" => {
                    if !self.help.is_empty() {
                        writeln!(self.output, "{}", self.help)?;
                    }
                    writeln!(self.output, "{}", legal_moves_line(game, state))?;
                    writeln!(self.output, "also: help, undo, hint, quit")?;
                    continue;
                }
                _ => {}
            }
            let reason = match game.move_of_string(text) {
                Ok(mv) => match game.next_state(state, &mv) {
                    Ok(_) => return Ok(Decision::Play(mv, None)),
                    Err(e) => e.to_string(),
                },
                Err(e) => e.to_string(),
            };
            self.refuse(game, state, &reason)?;
        }
    }
}

impl<R: BufRead, W: Write> Human<R, W> {
    /// Says why the line was refused, then the legal moves.
    fn refuse<G: Game>(&mut self, game: &G, state: &G::State, reason: &str) -> io::Result<()> {
        writeln!(self.output, "{reason}")?;
        writeln!(self.output, "{}", legal_moves_line(game, state))
    }
}

/// "legal moves: 1, 2, 3", in the game's natural order, summarised.
fn legal_moves_line<G: Game>(game: &G, state: &G::State) -> String {
    let moves = game.legal_moves(state);
    format!(
        "legal moves: {}",
        list_moves(moves.iter().map(|m| game.string_of_move(m)))
    )
}

impl<G: Game, R: BufRead, W: Write> Agent<G> for Human<R, W> {
    fn name(&self) -> String {
        "human".to_owned()
    }

    /// Prompts until a legal move (or a command) is typed. A failure to read
    /// or write (a closed terminal) is a resignation.
    fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move> {
        self.ask(game, state).unwrap_or(Decision::Resign)
    }
}
