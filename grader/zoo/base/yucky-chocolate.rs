//! A student's Yucky Chocolate. The zoo's correct one; its buggy variants
//! are patches of this file (see `grader/zoo/zoo.toml`).

use game_api::{Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError, ParseMoveError, Player, Status, Value};

/// The grader builds this type.
pub type Submission = Yucky;

/// A bar of `rows` x `cols`; the bottom-left square is yucky.
pub struct Yucky {
    rows: u32,
    cols: u32,
}

/// What is left of the bar, and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    rows: u32,
    cols: u32,
    to_move: Player,
}

/// Break off rows from the top or columns from the right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Break {
    /// Rows.
    R(u32),
    /// Columns.
    C(u32),
}

impl Game for Yucky {
    type State = State;
    type Move = Break;

    fn initial_state(&self) -> State {
        State { rows: self.rows, cols: self.cols, to_move: Player::P1 }
    }

    fn legal_moves(&self, s: &State) -> Vec<Break> {
        let rows = (1..s.rows).map(Break::R);
        let cols = (1..s.cols).map(Break::C);
        rows.chain(cols).collect()
    }

    fn next_state(&self, s: &State, mv: &Break) -> Result<State, IllegalMove> {
        let mut next = s.clone();
        match *mv {
            Break::R(n) if n >= 1 && n < s.rows => next.rows -= n,
            Break::C(n) if n >= 1 && n < s.cols => next.cols -= n,
            _ => return Err(IllegalMove::new(self.string_of_move(mv), "that would take the yucky square")),
        }
        next.to_move = s.to_move.other();
        Ok(next)
    }

    fn game_status(&self, s: &State) -> Status {
        if s.rows == 1 && s.cols == 1 {
            // Left with the yucky square: the player to move loses.
            Status::Win(s.to_move.other())
        } else {
            Status::Ongoing(s.to_move)
        }
    }

    fn estimate_value(&self, _s: &State) -> Value {
        0
    }

    fn string_of_state(&self, s: &State) -> String {
        format!("{} x {} bar, {} to move", s.rows, s.cols, s.to_move)
    }

    fn string_of_move(&self, mv: &Break) -> String {
        match mv {
            Break::R(n) => format!("R {n}"),
            Break::C(n) => format!("C {n}"),
        }
    }

    fn move_of_string(&self, text: &str) -> Result<Break, ParseMoveError> {
        let bad = || ParseMoveError::new(text, "expected R n or C n");
        let t = text.trim();
        let (kind, n) = t.split_at(t.chars().next().map_or(0, char::len_utf8));
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        match kind {
            "R" | "r" => Ok(Break::R(n)),
            "C" | "c" => Ok(Break::C(n)),
            _ => Err(bad()),
        }
    }

    fn max_game_length(&self) -> usize {
        (self.rows + self.cols) as usize
    }
}

impl Configurable for Yucky {
    const NAME: &'static str = "yucky-chocolate";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::new("rows", "4", "rows"), OptionSpec::new("cols", "7", "columns")]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        Ok(Yucky { rows: options.get_or("rows", 4)?, cols: options.get_or("cols", 7)? })
    }

    fn options(&self) -> Options {
        Options::new().with("rows", self.rows).with("cols", self.cols)
    }

    fn notation() -> &'static str {
        "R n or C n"
    }

    fn rules() -> &'static str {
        "do not eat the yucky square"
    }
}
