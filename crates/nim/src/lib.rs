//! # Nim: take stones, and mind the last one
//!
//! The course's first game, and the reference [`Game`] for it: small enough
//! to solve by hand, with a published theory (who wins one pile is a matter
//! of `n mod (k+1)`, several piles a matter of the nim-sum, by Bouton's
//! theorem) that the tests check every player against.
//!
//! There are one or more piles of stones. Players take turns; a move takes
//! at least one stone, and at most `max_take` if a limit is set, from a
//! single pile. Under the misère rule (the default, as in the classic lab)
//! whoever takes the last stone *loses*; under the normal rule they win.
//!
//! The default game, [`Nim::default`], is the classic lab's: one pile of 7
//! stones, take 1 or 2, whoever takes the last stone loses.
//!
//! ```
//! use game_api::{Configurable, Game, Options, Player, Status};
//! use nim::Nim;
//!
//! let game = Nim::default();
//! let s = game.initial_state();
//! assert_eq!(s.piles(), [7]);
//! let s = game.next_state(&s, &game.move_of_string("2").unwrap()).unwrap();
//! assert_eq!(s.piles(), [5]);
//! assert_eq!(game.game_status(&s), Status::Ongoing(Player::P2));
//!
//! // Three piles, any number of stones per move, last taker wins:
//! let options = Options::parse_args(["piles=3,4,5", "max_take=none", "rule=normal"]).unwrap();
//! let game = Nim::from_options(&options).unwrap();
//! let s = game.next_state(&game.initial_state(), &game.move_of_string("1:2").unwrap()).unwrap();
//! assert_eq!(s.piles(), [1, 4, 5]);
//! println!("{}", game.string_of_state(&s));
//! ```

#![warn(missing_docs)]

use game_api::text::count;
use game_api::{
    echo, whole_number, Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError,
    ParseMoveError, Player, Status, Value, WholeNumberError,
};
use std::fmt;
use std::num::NonZeroU32;

/// The most piles a game may have.
pub const MAX_PILES: usize = 16;

/// The most stones a pile may start with. It keeps every list of legal moves
/// small enough to build, even with no limit on a take.
pub const MAX_PILE_SIZE: u32 = 1_000_000;

/// Piles longer than this are drawn as their number only.
const MAX_DRAWN_PILE: u32 = 40;

/// Who wins when the last stone is taken.
///
/// ```
/// use nim::Rule;
/// assert_eq!(Rule::default(), Rule::Misere);
/// assert_eq!(Rule::Normal.to_string(), "normal");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Whoever takes the last stone loses (misère play, the classic lab's rule).
    #[default]
    Misere,
    /// Whoever takes the last stone wins (normal play).
    Normal,
}

impl Rule {
    fn describe(self) -> &'static str {
        match self {
            Rule::Misere => "whoever takes the last stone loses",
            Rule::Normal => "whoever takes the last stone wins",
        }
    }
}

impl fmt::Display for Rule {
    /// The rule's name in options: `misere` or `normal`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Misere => "misere",
            Rule::Normal => "normal",
        })
    }
}

/// A position: the stones left in each pile and whose turn it is.
///
/// It is a small `Copy` value (no heap), so searches copy it freely.
///
/// ```
/// use game_api::{Game, Player};
/// use nim::Nim;
///
/// let game = Nim::new(&[3, 4, 5], 0, nim::Rule::Normal).unwrap();
/// let s = game.initial_state();
/// assert_eq!(s.piles(), [3, 4, 5]);
/// assert_eq!(s.to_move(), Player::P1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NimState {
    /// The piles in use are the first `count`; the others stay 0.
    piles: [u32; MAX_PILES],
    count: u8,
    to_move: Player,
}

impl NimState {
    /// The stones left in each pile, pile 1 first.
    #[must_use]
    pub fn piles(&self) -> &[u32] {
        &self.piles[..usize::from(self.count)]
    }

    /// The player whose turn it is (after the last stone is gone: the one
    /// who would move next).
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    fn is_empty(&self) -> bool {
        self.piles().iter().all(|&n| n == 0)
    }
}

impl fmt::Debug for NimState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NimState")
            .field("piles", &self.piles())
            .field("to_move", &self.to_move)
            .finish()
    }
}

/// A move: take some stones (at least one) from one pile.
///
/// Written `2` (take 2) in a game with one pile, and `pile:take` such as
/// `2:3` (take 3 from pile 2) with several piles; piles are numbered from 1.
///
/// ```
/// use nim::NimMove;
/// let m = NimMove::new(2, 3).unwrap();
/// assert_eq!((m.pile(), m.take()), (2, 3));
/// assert_eq!(NimMove::new(0, 3), None); // piles are numbered from 1
/// assert_eq!(NimMove::new(2, 0), None); // a move takes at least one stone
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    /// The pile's index, from 0.
    pile: u8,
    take: NonZeroU32,
}

impl NimMove {
    /// Take `take` stones from pile number `pile` (numbered from 1, as in the
    /// notation). `None` for pile 0, a pile beyond [`MAX_PILES`], or a take
    /// of 0 stones.
    ///
    /// ```
    /// use nim::NimMove;
    /// assert!(NimMove::new(1, 2).is_some());
    /// assert!(NimMove::new(nim::MAX_PILES + 1, 2).is_none());
    /// ```
    #[must_use]
    pub fn new(pile: usize, take: u32) -> Option<NimMove> {
        let index = pile.checked_sub(1).filter(|&i| i < MAX_PILES)?;
        Some(NimMove {
            pile: u8::try_from(index).ok()?,
            take: NonZeroU32::new(take)?,
        })
    }

    /// The pile's number, from 1.
    ///
    /// ```
    /// assert_eq!(nim::NimMove::new(3, 1).unwrap().pile(), 3);
    /// ```
    #[must_use]
    pub fn pile(self) -> usize {
        usize::from(self.pile) + 1
    }

    /// How many stones it takes.
    ///
    /// ```
    /// assert_eq!(nim::NimMove::new(3, 1).unwrap().take(), 1);
    /// ```
    #[must_use]
    pub fn take(self) -> u32 {
        self.take.get()
    }
}

/// The game of Nim with given piles, limit per move and rule.
///
/// Build it with [`Nim::new`], from options (`piles=3,4,5 max_take=none
/// rule=normal`, see [`Configurable`]), or take the classic lab's game with
/// [`Nim::default`].
///
/// ```
/// use game_api::Game;
/// let game = nim::Nim::default();
/// assert_eq!(game.initial_state().piles(), [7]);
/// assert_eq!(game.legal_moves(&game.initial_state()).len(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    start: NimState,
    /// `None`: a move may take a whole pile.
    max_take: Option<NonZeroU32>,
    rule: Rule,
}

impl Default for Nim {
    /// One pile of 7 stones, take 1 or 2, whoever takes the last stone loses.
    fn default() -> Self {
        Nim::new(&[7], 2, Rule::Misere).expect("the classic setup is valid")
    }
}

impl Nim {
    /// A game starting from `piles` (pile 1 first), where a move takes at
    /// most `max_take` stones (`0` for no limit), under `rule`.
    ///
    /// ```
    /// use nim::{Nim, Rule};
    /// assert!(Nim::new(&[3, 4, 5], 0, Rule::Normal).is_ok());
    /// let err = Nim::new(&[3, 0], 2, Rule::Misere).unwrap_err();
    /// assert!(err.to_string().contains("pile 2 is empty"), "{err}");
    /// ```
    ///
    /// # Errors
    /// [`OptionsError::Invalid`] (naming the option `piles`) for no pile,
    /// more than [`MAX_PILES`] piles, an empty pile or a pile larger than
    /// [`MAX_PILE_SIZE`].
    pub fn new(piles: &[u32], max_take: u32, rule: Rule) -> Result<Nim, OptionsError> {
        let invalid = |reason: String| OptionsError::Invalid {
            name: "piles".to_owned(),
            value: join_piles(piles),
            reason,
        };
        if piles.is_empty() {
            return Err(invalid("give at least one pile".to_owned()));
        }
        if piles.len() > MAX_PILES {
            return Err(invalid(format!(
                "{} piles given, at most {MAX_PILES} are supported",
                piles.len()
            )));
        }
        for (i, &n) in piles.iter().enumerate() {
            if n == 0 {
                return Err(invalid(format!(
                    "pile {} is empty: every pile starts with at least 1 stone",
                    i + 1
                )));
            }
            if n > MAX_PILE_SIZE {
                return Err(invalid(format!(
                    "pile {} has {n} stones, at most {MAX_PILE_SIZE} are supported",
                    i + 1
                )));
            }
        }
        let mut start = NimState {
            piles: [0; MAX_PILES],
            count: 0,
            to_move: Player::P1,
        };
        start.piles[..piles.len()].copy_from_slice(piles);
        start.count = u8::try_from(piles.len()).expect("at most MAX_PILES piles");
        Ok(Nim {
            start,
            max_take: NonZeroU32::new(max_take),
            rule,
        })
    }

    /// The most stones a move may take from a pile of `n`.
    fn most_from(&self, n: u32) -> u32 {
        self.max_take.map_or(n, |k| n.min(k.get()))
    }

    fn several_piles(&self) -> bool {
        self.start.count > 1
    }

    /// The expected notation, for parse errors.
    fn expected(&self) -> &'static str {
        if self.several_piles() {
            "expected `pile:take`, such as `2:3` (take 3 stones from pile 2)"
        } else {
            "expected how many stones to take, such as `2`"
        }
    }

    /// "take 1 to 2 stones" / "take any number of stones".
    fn describe_limit(&self) -> String {
        match self.max_take {
            Some(k) if k.get() == 1 => "take 1 stone".to_owned(),
            Some(k) => format!("take 1 to {k} stones"),
            None => "take any number of stones".to_owned(),
        }
    }
}

fn join_piles(piles: &[u32]) -> String {
    piles
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads a whole number as every option does (digits only, no sign).
fn parse_count(text: &str) -> Result<u32, WholeNumberError> {
    whole_number(text)
}

fn parse_piles(text: &str) -> Result<Vec<u32>, OptionsError> {
    let invalid = |reason: String| OptionsError::Invalid {
        name: "piles".to_owned(),
        value: text.to_owned(),
        reason,
    };
    text.split(',')
        .enumerate()
        .map(|(i, part)| match parse_count(part.trim()) {
            Ok(n) => Ok(n),
            Err(WholeNumberError::NotANumber) => Err(invalid(format!(
                "pile {}: `{}` is not a whole number of stones (write sizes like 3,4,5)",
                i + 1,
                echo(part.trim())
            ))),
            Err(WholeNumberError::TooLarge) => Err(invalid(format!(
                "pile {}: `{}` is too large, at most {MAX_PILE_SIZE} stones are supported",
                i + 1,
                echo(part.trim())
            ))),
        })
        .collect()
}

fn parse_max_take(text: &str) -> Result<u32, OptionsError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("none") {
        return Ok(0);
    }
    parse_count(text).map_err(|e| OptionsError::Invalid {
        name: "max_take".to_owned(),
        value: text.to_owned(),
        reason: match e {
            WholeNumberError::NotANumber => {
                "expected a whole number of stones, or 0 or none for no limit"
            }
            WholeNumberError::TooLarge => "too large: use 0 or none for no limit",
        }
        .to_owned(),
    })
}

fn parse_rule(text: &str) -> Result<Rule, OptionsError> {
    match text.trim().to_lowercase().as_str() {
        "misere" | "misère" => Ok(Rule::Misere),
        "normal" => Ok(Rule::Normal),
        _ => Err(OptionsError::Invalid {
            name: "rule".to_owned(),
            value: text.to_owned(),
            reason: "expected misere (whoever takes the last stone loses) \
                     or normal (whoever takes the last stone wins)"
                .to_owned(),
        }),
    }
}

impl Game for Nim {
    type State = NimState;
    type Move = NimMove;

    fn initial_state(&self) -> NimState {
        // BEGIN SOLUTION: the start position is kept in the game (`self.start`)
        self.start
        // END SOLUTION
    }

    fn legal_moves(&self, state: &NimState) -> Vec<NimMove> {
        // BEGIN SOLUTION: every take from 1 to the limit from every nonempty pile, pile by pile
        let mut moves = Vec::new();
        self.legal_moves_into(state, &mut moves);
        moves
        // END SOLUTION
    }

    fn next_state(&self, state: &NimState, mv: &NimMove) -> Result<NimState, IllegalMove> {
        // BEGIN SOLUTION: refuse a move the rules forbid with IllegalMove, else take the stones and pass the turn
        let illegal = |reason: String| IllegalMove::new(self.string_of_move(mv), reason);
        if state.is_empty() {
            return Err(illegal("the game is over: every pile is empty".to_owned()));
        }
        let index = usize::from(mv.pile);
        let Some(&n) = state.piles().get(index) else {
            return Err(illegal(format!(
                "there is no pile {}: this game has {}",
                mv.pile(),
                count(u32::from(state.count), "pile")
            )));
        };
        if let Some(k) = self.max_take.filter(|k| mv.take > *k) {
            return Err(illegal(format!(
                "a move takes at most {}",
                count(k.get(), "stone")
            )));
        }
        if n == 0 {
            return Err(illegal(format!("pile {} is empty", mv.pile())));
        }
        if mv.take() > n {
            return Err(illegal(format!(
                "pile {} has only {}",
                mv.pile(),
                count(n, "stone")
            )));
        }
        let mut next = *state;
        next.piles[index] = n - mv.take();
        next.to_move = state.to_move.other();
        Ok(next)
        // END SOLUTION
    }

    fn game_status(&self, state: &NimState) -> Status {
        // BEGIN SOLUTION: over when every pile is empty; who wins depends on the rule
        match (state.is_empty(), self.rule) {
            (false, _) => Status::Ongoing(state.to_move),
            // The player who took the last stone is the one who just moved.
            (true, Rule::Normal) => Status::Win(state.to_move.other()),
            (true, Rule::Misere) => Status::Win(state.to_move),
        }
        // END SOLUTION
    }

    /// Nim has no heuristic here: every unfinished position is `0`.
    fn estimate_value(&self, _state: &NimState) -> Value {
        // BEGIN SOLUTION: no heuristic is needed for Nim: a constant strictly between a loss and a win
        0
        // END SOLUTION
    }

    fn string_of_state(&self, state: &NimState) -> String {
        // BEGIN SOLUTION: the rule and limit, one line per pile, then whose turn it is or who won
        let width = state
            .piles()
            .iter()
            .max()
            .map_or(1, |n| n.to_string().len());
        let mut text = format!(
            "Nim ({}; {} from one pile)\n",
            self.rule.describe(),
            self.describe_limit()
        );
        for (i, &n) in state.piles().iter().enumerate() {
            let drawing = match n {
                0 => "(empty)".to_owned(),
                n if n <= MAX_DRAWN_PILE => "|".repeat(n as usize),
                _ => String::new(),
            };
            let line = format!("pile {}: {n:>width$}  {drawing}", i + 1);
            text.push_str(line.trim_end());
            text.push('\n');
        }
        match self.game_status(state) {
            Status::Ongoing(p) => text.push_str(&format!("{} to move", self.string_of_player(p))),
            Status::Win(p) => {
                text.push_str(&format!(
                    "No stones left: {} wins",
                    self.string_of_player(p)
                ));
            }
            Status::Draw => text.push_str("Draw"),
        }
        text
        // END SOLUTION
    }

    fn string_of_move(&self, mv: &NimMove) -> String {
        // BEGIN SOLUTION: the take alone with one pile, `pile:take` with several
        if self.several_piles() || mv.pile != 0 {
            format!("{}:{}", mv.pile(), mv.take)
        } else {
            mv.take.to_string()
        }
        // END SOLUTION
    }

    fn move_of_string(&self, text: &str) -> Result<NimMove, ParseMoveError> {
        // BEGIN SOLUTION: read `take`, `pile:take` or `pile take`; anything else is a ParseMoveError naming the problem
        let fail = |reason: String| ParseMoveError::new(text, reason);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(fail(format!("nothing was typed: {}", self.expected())));
        }
        let (pile_text, take_text) = if let Some((pile, take)) = trimmed.split_once(':') {
            (Some(pile.trim()), take.trim())
        } else {
            let mut words = trimmed.split_whitespace();
            let first = words.next().unwrap_or_default();
            match (words.next(), words.next()) {
                (None, _) => (None, first),
                (Some(second), None) => (Some(first), second),
                (Some(_), Some(_)) => {
                    return Err(fail(format!("too many numbers: {}", self.expected())))
                }
            }
        };
        let pile = match pile_text {
            None if self.several_piles() => {
                return Err(fail(format!(
                    "this game has {} piles, so say which: {}",
                    self.start.count,
                    self.expected()
                )))
            }
            None => 1,
            Some(p) => match parse_count(p) {
                Err(WholeNumberError::NotANumber) => {
                    return Err(fail(format!(
                        "`{}` is not a pile number: {}",
                        echo(p),
                        self.expected()
                    )))
                }
                Ok(0) => return Err(fail("piles are numbered from 1".to_owned())),
                Ok(n) if n <= u32::from(self.start.count) => n as usize,
                Ok(_) | Err(WholeNumberError::TooLarge) => {
                    return Err(fail(format!(
                        "there is no pile {}: this game has {}",
                        echo(p),
                        count(self.start.count, "pile")
                    )))
                }
            },
        };
        let take = match parse_count(take_text) {
            Ok(0) => return Err(fail("a move takes at least 1 stone".to_owned())),
            Ok(n) => n,
            Err(WholeNumberError::NotANumber) => {
                return Err(fail(format!(
                    "`{}` is not a number of stones: {}",
                    echo(take_text),
                    self.expected()
                )))
            }
            Err(WholeNumberError::TooLarge) => {
                return Err(fail(format!(
                    "`{}` stones is more than any pile holds",
                    echo(take_text)
                )))
            }
        };
        NimMove::new(pile, take).ok_or_else(|| fail(self.expected().to_owned()))
        // END SOLUTION
    }

    /// Every move takes at least one stone, so a game lasts at most as many
    /// moves as there are stones.
    fn max_game_length(&self) -> usize {
        // BEGIN SOLUTION: every move takes at least one stone
        let total: u64 = self.start.piles().iter().map(|&n| u64::from(n)).sum();
        usize::try_from(total).unwrap_or(usize::MAX)
        // END SOLUTION
    }

    // BEGIN SOLUTION
    /// Fills `out` without allocating (once it has room): pile by pile, the
    /// smaller takes first.
    fn legal_moves_into(&self, state: &NimState, out: &mut Vec<NimMove>) {
        out.clear();
        for (index, &n) in (0u8..).zip(state.piles()) {
            let takes = (1..=self.most_from(n)).filter_map(NonZeroU32::new);
            out.extend(takes.map(|take| NimMove { pile: index, take }));
        }
    }
    // END SOLUTION
}

impl Configurable for Nim {
    const NAME: &'static str = "nim";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::new(
                "piles",
                "7",
                "the starting pile sizes, comma-separated (e.g. 3,4,5); \
                 1 to 16 piles of 1 to 1000000 stones",
            ),
            OptionSpec::new(
                "max_take",
                "2",
                "the most stones one move may take; 0 or none for no limit",
            ),
            OptionSpec::new(
                "rule",
                "misere",
                "misere: whoever takes the last stone loses; normal: whoever takes it wins",
            ),
        ]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        let classic = Nim::default();
        let piles = options.get("piles").map(parse_piles).transpose()?;
        let max_take = options.get("max_take").map(parse_max_take).transpose()?;
        let rule = options.get("rule").map(parse_rule).transpose()?;
        Nim::new(
            piles.as_deref().unwrap_or(classic.start.piles()),
            max_take.unwrap_or_else(|| classic.max_take.map_or(0, NonZeroU32::get)),
            rule.unwrap_or(classic.rule),
        )
    }

    fn options(&self) -> Options {
        let max_take = self
            .max_take
            .map_or_else(|| "none".to_owned(), |k| k.to_string());
        Options::new()
            .with("piles", join_piles(self.start.piles()))
            .with("max_take", max_take)
            .with("rule", self.rule)
    }

    fn notation() -> &'static str {
        "with one pile, how many stones to take (`2`); with several, `pile:take` \
         with piles numbered from 1 (`2:3` or `2 3` takes 3 stones from pile 2)"
    }

    fn rules() -> &'static str {
        "Players take turns taking stones from one pile: at least 1, and at most \
         max_take if set. With rule=misere (the default) whoever takes the last \
         stone loses; with rule=normal whoever takes it wins."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(args: &[&str]) -> Nim {
        Nim::from_options(&Options::parse_args(args).unwrap()).unwrap()
    }

    fn take(pile: usize, n: u32) -> NimMove {
        NimMove::new(pile, n).unwrap()
    }

    fn play(game: &Nim, moves: &[&str]) -> NimState {
        moves.iter().fold(game.initial_state(), |s, m| {
            game.next_state(&s, &game.move_of_string(m).unwrap())
                .unwrap()
        })
    }

    #[test]
    fn several_piles_accept_colon_and_space_forms_with_any_spacing() {
        let g = game(&["piles=3,4,5"]);
        for text in ["2:3", "2 3", " 2 : 3 ", "2:  3", "\t2\t3\n", "02:003"] {
            assert_eq!(g.move_of_string(text), Ok(take(2, 3)), "{text:?}");
        }
    }

    #[test]
    fn one_pile_accepts_a_bare_take_or_pile_one() {
        let g = Nim::default();
        for text in ["2", " 2 ", "1:2", "1 2", " 1 : 2"] {
            assert_eq!(g.move_of_string(text), Ok(take(1, 2)), "{text:?}");
        }
    }

    #[test]
    fn string_of_move_is_the_bare_take_with_one_pile_and_pile_colon_take_otherwise() {
        assert_eq!(Nim::default().string_of_move(&take(1, 2)), "2");
        assert_eq!(game(&["piles=3,4"]).string_of_move(&take(2, 3)), "2:3");
        assert_eq!(game(&["piles=3,4"]).string_of_move(&take(1, 1)), "1:1");
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        let one = Nim::default();
        let three = game(&["piles=3,4,5"]);
        let cases: [(&Nim, &str, &str); 17] = [
            (&one, "", "nothing was typed"),
            (&one, "   ", "nothing was typed"),
            (&one, "banana", "`banana` is not a number of stones"),
            (&one, "0", "at least 1 stone"),
            (&one, "-1", "`-1` is not a number of stones"),
            (&one, "+1", "`+1` is not a number of stones"),
            (&one, "2.5", "`2.5` is not a number of stones"),
            (&one, "99999999999999999999", "more than any pile holds"),
            (&one, "2:1", "there is no pile 2: this game has 1 pile"),
            (&three, "2", "this game has 3 piles, so say which"),
            (&three, "1:0", "at least 1 stone"),
            (&three, "0:1", "piles are numbered from 1"),
            (&three, "4:1", "there is no pile 4: this game has 3 piles"),
            (
                &three,
                "99999999999999999999:1",
                "there is no pile 99999999999999999999",
            ),
            (&three, "1 2 3", "too many numbers"),
            (&three, "1:2:3", "`2:3` is not a number of stones"),
            (&three, ":3", "`` is not a pile number"),
        ];
        for (g, text, reason) in cases {
            let err = g.move_of_string(text).unwrap_err();
            assert_eq!(err.input, text);
            assert!(err.reason.contains(reason), "{text:?}: {}", err.reason);
        }
    }

    #[test]
    fn illegal_moves_are_refused_with_the_rule_they_break() {
        let g = game(&["piles=3,1", "max_take=2"]);
        let s = play(&g, &["2:1"]);
        let cases = [
            (take(1, 3), "a move takes at most 2 stones"),
            (take(2, 1), "pile 2 is empty"),
            (take(3, 1), "there is no pile 3: this game has 2 piles"),
        ];
        for (mv, reason) in cases {
            let err = g.next_state(&s, &mv).unwrap_err();
            assert_eq!(err.mv, g.string_of_move(&mv));
            assert!(err.reason.contains(reason), "{mv:?}: {}", err.reason);
        }
        let s = play(&game(&["piles=2", "max_take=none"]), &["1"]);
        let err = game(&["piles=2", "max_take=none"])
            .next_state(&s, &take(1, 2))
            .unwrap_err();
        assert_eq!(err.reason, "pile 1 has only 1 stone");
    }

    #[test]
    fn no_move_is_accepted_once_every_pile_is_empty() {
        let g = game(&["piles=1,1"]);
        let s = play(&g, &["1:1", "2:1"]);
        assert!(g.legal_moves(&s).is_empty());
        let err = g.next_state(&s, &take(1, 1)).unwrap_err();
        assert!(err.reason.contains("the game is over"), "{}", err.reason);
    }

    #[test]
    fn the_last_taker_loses_under_misere_and_wins_under_normal_play() {
        let misere = game(&["piles=2", "rule=misere"]);
        let s = play(&misere, &["1", "1"]);
        assert_eq!(misere.game_status(&s), Status::Win(Player::P1));
        let normal = game(&["piles=2", "rule=normal"]);
        let s = play(&normal, &["1", "1"]);
        assert_eq!(normal.game_status(&s), Status::Win(Player::P2));
        assert_eq!(
            normal.game_status(&play(&normal, &["1"])),
            Status::Ongoing(Player::P2)
        );
    }

    #[test]
    fn legal_moves_take_one_to_the_limit_from_every_nonempty_pile() {
        let g = game(&["piles=1,5,2", "max_take=3"]);
        let moves: Vec<String> = g
            .legal_moves(&g.initial_state())
            .iter()
            .map(|m| g.string_of_move(m))
            .collect();
        assert_eq!(moves, ["1:1", "2:1", "2:2", "2:3", "3:1", "3:2"]);
        let unlimited = game(&["piles=4", "max_take=none"]);
        assert_eq!(unlimited.legal_moves(&unlimited.initial_state()).len(), 4);
    }

    #[test]
    fn max_game_length_is_the_total_number_of_stones() {
        assert_eq!(Nim::default().max_game_length(), 7);
        assert_eq!(game(&["piles=3,4,5"]).max_game_length(), 12);
        let huge = vec![MAX_PILE_SIZE; MAX_PILES];
        let g = Nim::new(&huge, 0, Rule::Normal).unwrap();
        assert_eq!(g.max_game_length(), 16_000_000);
    }

    #[test]
    fn the_spec_defaults_build_the_default_game() {
        let spelled_out: Vec<String> = Nim::option_specs()
            .iter()
            .map(|s| format!("{}={}", s.name, s.default))
            .collect();
        assert_eq!(
            game(&spelled_out.iter().map(String::as_str).collect::<Vec<_>>()),
            Nim::default()
        );
        assert_eq!(game(&[]), Nim::default());
    }

    #[test]
    fn options_rebuild_the_same_game() {
        for args in [
            &[][..],
            &["piles=3,4,5", "max_take=none", "rule=normal"],
            &["piles= 1, 2 ,3", "max_take=0"],
            &["max_take=NONE", "rule=Misère"],
            &["piles=1000000", "max_take=4294967295"],
        ] {
            let g = game(args);
            assert_eq!(Nim::from_options(&g.options()), Ok(g.clone()), "{args:?}");
        }
        assert_eq!(game(&["max_take=0"]), game(&["max_take=none"]));
        assert_eq!(
            Nim::default().options().to_string(),
            "max_take=2 piles=7 rule=misere"
        );
    }

    #[test]
    fn bad_options_are_refused_naming_the_option_and_the_problem() {
        let cases: [(&[&str], &str); 12] = [
            (
                &["pile=3"],
                "unknown option `pile` (known: piles, max_take, rule)",
            ),
            (
                &["piles="],
                "option `piles`: `` is not valid: pile 1: `` is not a whole number",
            ),
            (&["piles=3,,4"], "pile 2: `` is not a whole number"),
            (&["piles=3,x"], "pile 2: `x` is not a whole number"),
            (&["piles=3,-4"], "pile 2: `-4` is not a whole number"),
            (&["piles=0"], "pile 1 is empty"),
            (
                &["piles=5,1000001"],
                "pile 2 has 1000001 stones, at most 1000000",
            ),
            (&["piles=99999999999"], "pile 1: `99999999999` is too large"),
            (
                &["piles=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"],
                "17 piles given, at most 16",
            ),
            (&["max_take=-1"], "option `max_take`: `-1` is not valid"),
            (&["max_take=lots"], "0 or none for no limit"),
            (
                &["rule=sudden"],
                "option `rule`: `sudden` is not valid: expected misere",
            ),
        ];
        for (args, message) in cases {
            let err = Nim::from_options(&Options::parse_args(args).unwrap()).unwrap_err();
            assert!(err.to_string().contains(message), "{args:?}: {err}");
        }
    }

    #[test]
    fn the_state_shows_each_pile_the_rule_and_whose_turn_it_is() {
        insta::assert_snapshot!(Nim::default().string_of_state(&Nim::default().initial_state()), @r"
        Nim (whoever takes the last stone loses; take 1 to 2 stones from one pile)
        pile 1: 7  |||||||
        Player 1 to move
        ");
        let g = game(&["piles=3,12,1", "max_take=none", "rule=normal"]);
        insta::assert_snapshot!(g.string_of_state(&play(&g, &["3:1", "2:2"])), @r"
        Nim (whoever takes the last stone wins; take any number of stones from one pile)
        pile 1:  3  |||
        pile 2: 10  ||||||||||
        pile 3:  0  (empty)
        Player 1 to move
        ");
    }

    #[test]
    fn the_state_names_the_winner_and_keeps_huge_piles_to_a_number() {
        let g = game(&["piles=1,100", "max_take=1"]);
        insta::assert_snapshot!(g.string_of_state(&g.initial_state()), @r"
        Nim (whoever takes the last stone loses; take 1 stone from one pile)
        pile 1:   1  |
        pile 2: 100
        Player 1 to move
        ");
        let g = game(&["piles=1"]);
        insta::assert_snapshot!(g.string_of_state(&play(&g, &["1"])), @r"
        Nim (whoever takes the last stone loses; take 1 to 2 stones from one pile)
        pile 1: 0  (empty)
        No stones left: Player 2 wins
        ");
    }
}
