//! A whole game as text, for snapshot tests: [`render`] replays moves and
//! writes, after each one, what the game says through its interface (the
//! status, the legal moves in [`canonical_order`], the board).
//!
//! It exists so that a student's own snapshot tests, a teacher's, and the
//! grader's answer keys all look at a game the same way: the grader records
//! its keys with [`render`] and observes every position, its reference's
//! and a submission's, with [`observe`]. A change in any of the nine
//! functions shows up as a readable diff.

use crate::{replay, Game, ReplayError, Status, Value};
use std::fmt::Write as _;

/// What a position looks like through the interface: what [`render`]
/// writes for each position, and what the grader compares with its keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// `game_status`.
    pub status: Status,
    /// `legal_moves`, written with `string_of_move`, in [`canonical_order`].
    pub legal: Vec<String>,
    /// `payoff` of a finished game (`None` while it goes on).
    pub payoff: Option<Value>,
    /// `string_of_state`.
    pub board: String,
}

/// Sorts moves written in a game's notation into the order transcripts and
/// answer keys use: shorter texts first, then alphabetically, so that `"2"`
/// comes before `"10"` and the order never depends on the game's own.
///
/// ```
/// let mut moves = vec!["10".to_string(), "2".into(), "1".into(), "b".into(), "a".into()];
/// game_api::transcript::canonical_order(&mut moves);
/// assert_eq!(moves, ["1", "2", "a", "b", "10"]);
/// ```
pub fn canonical_order(moves: &mut [String]) {
    moves.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
}

/// Observes a position through the interface (see [`Observation`]).
pub fn observe<G: Game + ?Sized>(game: &G, state: &G::State) -> Observation {
    let status = game.game_status(state);
    let mut legal: Vec<String> = game
        .legal_moves(state)
        .iter()
        .map(|m| game.string_of_move(m))
        .collect();
    canonical_order(&mut legal);
    Observation {
        status,
        legal,
        payoff: status.is_over().then(|| game.payoff(state, status)),
        board: game.string_of_state(state),
    }
}

/// Plays `moves` (in the game's notation) from the initial state and writes
/// the whole game: for the start and after each move, the move, the status
/// (with the payoff once the game is over), the legal moves in
/// [`canonical_order`] and the board (`string_of_state`, indented).
///
/// Made for snapshot tests: in a crate's own tests,
/// `insta::assert_snapshot!(game_api::transcript::render(&game, &["4", "4", "3"]).unwrap())`
/// records the game once and shows any later change as a diff. The
/// grader's answer keys are written by this same function.
///
/// ```
/// # use game_api::{Game, IllegalMove, ParseMoveError, Player, Status, Value};
/// # struct Count;
/// # impl Game for Count {
/// #     type State = (u32, Player); type Move = u32;
/// #     fn initial_state(&self) -> (u32, Player) { (0, Player::P1) }
/// #     fn legal_moves(&self, s: &(u32, Player)) -> Vec<u32> { if s.0 >= 3 { vec![] } else { vec![2, 1] } }
/// #     fn next_state(&self, s: &(u32, Player), m: &u32) -> Result<(u32, Player), IllegalMove> {
/// #         if self.legal_moves(s).contains(m) { Ok((s.0 + m, s.1.other())) }
/// #         else { Err(IllegalMove::new(m.to_string(), "add 1 or 2 below 3")) }
/// #     }
/// #     fn game_status(&self, s: &(u32, Player)) -> Status {
/// #         if s.0 >= 3 { Status::Win(s.1.other()) } else { Status::Ongoing(s.1) }
/// #     }
/// #     fn estimate_value(&self, _: &(u32, Player)) -> Value { 0 }
/// #     fn string_of_state(&self, s: &(u32, Player)) -> String { format!("total {}", s.0) }
/// #     fn string_of_move(&self, m: &u32) -> String { m.to_string() }
/// #     fn move_of_string(&self, t: &str) -> Result<u32, ParseMoveError> {
/// #         t.trim().parse().map_err(|_| ParseMoveError::new(t, "expected 1 or 2"))
/// #     }
/// #     fn max_game_length(&self) -> usize { 3 }
/// # }
/// use game_api::transcript::render;
/// // `Count` (hidden here): players add 1 or 2 to a total; whoever reaches 3
/// // wins. Its `legal_moves` lists 2 before 1; the transcript sorts them.
/// let text = render(&Count, &["2", "1"]).unwrap();
/// assert_eq!(text, "\
/// start
/// status: Player 1 to move
/// legal: 1 2
/// board:
///   total 0
///
/// move 1: 2
/// status: Player 2 to move
/// legal: 1 2
/// board:
///   total 2
///
/// move 2: 1
/// status: Player 2 wins (payoff -1)
/// legal: (none)
/// board:
///   total 3
/// ");
/// // A move that does not replay is an error naming it.
/// let e = render(&Count, &["2", "5"]).unwrap_err();
/// assert_eq!((e.to_string(), std::error::Error::source(&e).unwrap().to_string()),
///            ("move 2".into(), "illegal move 5: add 1 or 2 below 3".into()));
/// ```
///
/// # Errors
/// [`ReplayError`] naming the first move that does not parse or is illegal.
pub fn render<G: Game + ?Sized, S: AsRef<str>>(
    game: &G,
    moves: &[S],
) -> Result<String, ReplayError> {
    let states = replay(game, moves)?;
    let mut text = String::new();
    for (n, state) in states.iter().enumerate() {
        let played = n.checked_sub(1).map(|i| moves[i].as_ref());
        write_position(&mut text, n, played, &observe(game, state));
    }
    Ok(text)
}

/// Appends one position of a transcript: a blank line before every one but
/// the first, then the move that led to it, the status, the legal moves
/// and the board.
fn write_position(text: &mut String, n: usize, played: Option<&str>, seen: &Observation) {
    if n > 0 {
        text.push('\n');
    }
    // Writing to a String cannot fail.
    let _ = match played {
        Some(mv) => writeln!(text, "move {n}: {mv}"),
        None => writeln!(text, "start"),
    };
    let _ = match seen.payoff {
        Some(payoff) => writeln!(text, "status: {} (payoff {payoff})", seen.status),
        None => writeln!(text, "status: {}", seen.status),
    };
    let legal = if seen.legal.is_empty() {
        "(none)".to_owned()
    } else {
        seen.legal.join(" ")
    };
    let _ = writeln!(text, "legal: {legal}");
    text.push_str("board:\n");
    for line in seen.board.lines() {
        if !line.is_empty() {
            text.push_str("  ");
        }
        text.push_str(line);
        text.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{IllegalMove, ParseMoveError, Player};

    /// Two moves "a" and "bb" until three moves are made; a board with an
    /// empty line inside; payoff scaled to 5.
    struct Three;

    impl Game for Three {
        type State = u8;
        type Move = bool;
        fn initial_state(&self) -> u8 {
            0
        }
        fn legal_moves(&self, s: &u8) -> Vec<bool> {
            if *s < 3 {
                vec![true, false]
            } else {
                vec![]
            }
        }
        fn next_state(&self, s: &u8, m: &bool) -> Result<u8, IllegalMove> {
            if *s < 3 {
                Ok(s + 1)
            } else {
                Err(IllegalMove::new(self.string_of_move(m), "the game is over"))
            }
        }
        fn game_status(&self, s: &u8) -> Status {
            match s {
                3 => Status::Draw,
                1 => Status::Ongoing(Player::P2),
                _ => Status::Ongoing(Player::P1),
            }
        }
        fn estimate_value(&self, _: &u8) -> Value {
            0
        }
        fn string_of_state(&self, s: &u8) -> String {
            format!("moves {s}\n\nend")
        }
        fn string_of_move(&self, m: &bool) -> String {
            if *m { "bb" } else { "a" }.to_owned()
        }
        fn move_of_string(&self, t: &str) -> Result<bool, ParseMoveError> {
            match t {
                "bb" => Ok(true),
                "a" => Ok(false),
                _ => Err(ParseMoveError::new(t, "expected a or bb")),
            }
        }
        fn max_game_length(&self) -> usize {
            3
        }
        fn max_payoff(&self) -> Value {
            5
        }
    }

    #[test]
    fn a_finished_game_shows_its_payoff_and_no_moves_and_empty_board_lines_stay_empty() {
        let text = render(&Three, &["bb", "a", "a"]).unwrap();
        let last = text
            .split("\n\n")
            .filter(|p| p.starts_with("move "))
            .last()
            .unwrap();
        assert_eq!(
            last,
            "move 3: a\nstatus: draw (payoff 0)\nlegal: (none)\nboard:\n  moves 3"
        );
        assert!(
            text.starts_with(
                "start\nstatus: Player 1 to move\nlegal: a bb\nboard:\n  moves 0\n\n  end\n"
            ),
            "{text}"
        );
        assert!(!text.lines().any(|l| l.ends_with(' ')), "{text}");
    }

    #[test]
    fn nonsense_and_moves_after_the_end_are_errors_naming_the_move() {
        let e = render(&Three, &["a", "c"]).unwrap_err();
        assert!(matches!(e, ReplayError::Parse { index: 2, .. }), "{e:?}");
        let e = render(&Three, &["a", "a", "a", "bb"]).unwrap_err();
        assert!(
            matches!(&e, ReplayError::Illegal { index: 4, source } if source.mv == "bb"),
            "{e:?}"
        );
    }

    #[test]
    fn no_moves_render_the_start_alone() {
        assert_eq!(
            render(&Three, &[] as &[&str]).unwrap(),
            "start\nstatus: Player 1 to move\nlegal: a bb\nboard:\n  moves 0\n\n  end\n"
        );
    }
}
