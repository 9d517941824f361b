//! # Tic-tac-toe, and every m,n,k-game: a reference game
//!
//! Two players take turns putting their mark, `X` (player 1, first) and `O`
//! (player 2), on an empty square of a board of `rows` by `cols` squares.
//! Whoever first has `k` marks in a line (a row, a column or a diagonal)
//! wins; a full board without such a line is a draw. Tic-tac-toe is the
//! 3,3,3-game, the default; `rows=4 cols=4 k=3` or `rows=15 cols=15 k=5`
//! (Gomoku) are others.
//!
//! ## Notation
//!
//! A square is its column letter and its row number, as on a chess board:
//! columns `a`, `b`, `c`, ... from the left, rows `1`, `2`, `3`, ... from the
//! bottom, so `b2` is the centre of the 3 by 3 board and `a1` its bottom-left
//! corner. Reading is forgiving: capitals, spaces around and between the two
//! parts are accepted (`B2`, ` b2 `, `b 2`); leading zeros are not (`b02`).
//!
//! ```
//! use game_api::{Configurable, Game, Options, Player, Status};
//! use tictactoe::TicTacToe;
//!
//! let game = TicTacToe::default();
//! let mut s = game.initial_state();
//! for text in ["b2", "a1", "A3", " c1 ", "c2", "a2", "b 1", "b3", "c3"] {
//!     let mv = game.move_of_string(text).unwrap();
//!     s = game.next_state(&s, &mv).unwrap();
//! }
//! assert_eq!(game.game_status(&s), Status::Draw);
//!
//! let big = TicTacToe::from_options(&Options::parse_args(["rows=4", "cols=4", "k=3"]).unwrap()).unwrap();
//! assert_eq!(big.legal_moves(&big.initial_state()).len(), 16);
//! assert!(game.move_of_string("banana").is_err());
//! ```
//!
//! No speed hook is overridden: the 3 by 3 game is solved from the start by
//! the engine in a fraction of a second with the trait's defaults.

#![warn(missing_docs)]

use game_api::{
    Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError, ParseMoveError, Player,
    Status, Value,
};

/// The largest number of rows or columns (columns are letters `a` to `z`).
pub const MAX_SIDE: usize = 26;

/// An m,n,k-game: a board of `rows` by `cols` squares, `k` in a line wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    rows: usize,
    cols: usize,
    k: usize,
}

impl Default for TicTacToe {
    /// Tic-tac-toe: 3 by 3, three in a line.
    fn default() -> Self {
        TicTacToe {
            rows: 3,
            cols: 3,
            k: 3,
        }
    }
}

impl TicTacToe {
    /// The game on a `rows` by `cols` board where `k` in a line wins.
    ///
    /// ```
    /// use tictactoe::TicTacToe;
    /// assert!(TicTacToe::new(4, 4, 3).is_ok());
    /// assert!(TicTacToe::new(3, 3, 4).is_err()); // no line is that long
    /// assert!(TicTacToe::new(0, 3, 1).is_err());
    /// ```
    ///
    /// # Errors
    /// [`OptionsError::Invalid`] for a side of 0 or above [`MAX_SIDE`] or a
    /// `k` of 0; [`OptionsError::Unsupported`] for a `k` longer than both
    /// sides (nobody could ever win).
    pub fn new(rows: usize, cols: usize, k: usize) -> Result<TicTacToe, OptionsError> {
        for (name, n) in [("rows", rows), ("cols", cols)] {
            if n == 0 || n > MAX_SIDE {
                return Err(OptionsError::Invalid {
                    name: name.to_owned(),
                    value: n.to_string(),
                    reason: format!("expected 1 to {MAX_SIDE}"),
                });
            }
        }
        if k == 0 {
            return Err(OptionsError::Invalid {
                name: "k".to_owned(),
                value: "0".to_owned(),
                reason: "expected at least 1 mark in a line".to_owned(),
            });
        }
        if k > rows.max(cols) {
            return Err(OptionsError::Unsupported(format!(
                "k={k}: no line of {k} fits on a {rows}x{cols} board, so nobody could win: choose k of at most {}",
                rows.max(cols)
            )));
        }
        Ok(TicTacToe { rows, cols, k })
    }

    /// The number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// How many marks in a line win.
    #[must_use]
    pub fn k(&self) -> usize {
        self.k
    }

    fn index(&self, sq: Square) -> usize {
        usize::from(sq.row) * self.cols + usize::from(sq.col)
    }

    fn on_board(&self, sq: Square) -> bool {
        usize::from(sq.row) < self.rows && usize::from(sq.col) < self.cols
    }

    /// Whether the mark just put on `sq` makes a line of `k`.
    fn makes_line(&self, cells: &[Option<Player>], sq: Square, p: Player) -> bool {
        let (r0, c0) = (sq.row as isize, sq.col as isize);
        let mark_at = |r: isize, c: isize| {
            r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && cells[r as usize * self.cols + c as usize] == Some(p)
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let run = |sign: isize| {
                (1..)
                    .take_while(|&i| mark_at(r0 + sign * i * dr, c0 + sign * i * dc))
                    .count()
            };
            1 + run(1) + run(-1) >= self.k
        })
    }
}

/// A square: column and row, from 0 (`a` and `1`: the bottom-left corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The column, 0 = `a` (leftmost).
    pub col: u8,
    /// The row, 0 = `1` (bottom).
    pub row: u8,
}

/// A position: the marks on the board, whose turn it is, and the winner.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The squares, row by row from the bottom, `None` when empty.
    cells: Vec<Option<Player>>,
    /// Whose turn it is (after the end: who would have moved next).
    to_move: Player,
    /// Who made a line of `k`, if anyone did.
    winner: Option<Player>,
    /// How many marks are on the board.
    filled: usize,
}

impl Board {
    /// How many marks are on the board.
    #[must_use]
    pub fn filled(&self) -> usize {
        self.filled
    }
}

fn mark(p: Option<Player>) -> char {
    match p {
        Some(Player::P1) => 'X',
        Some(Player::P2) => 'O',
        None => '.',
    }
}

impl Game for TicTacToe {
    type State = Board;
    type Move = Square;

    /// The empty board, `X` (player 1) to move.
    fn initial_state(&self) -> Board {
        // BEGIN SOLUTION: an empty board of the game's size, X to move
        Board {
            cells: vec![None; self.rows * self.cols],
            to_move: Player::P1,
            winner: None,
            filled: 0,
        }
        // END SOLUTION
    }

    /// The empty squares, row by row from the bottom (`a1`, `b1`, ...); none
    /// once someone has a line or the board is full.
    fn legal_moves(&self, state: &Board) -> Vec<Square> {
        // BEGIN SOLUTION: every empty square while the game goes on, none once it is over
        if state.winner.is_some() {
            return Vec::new();
        }
        (0..self.rows)
            .flat_map(|row| (0..self.cols).map(move |col| (row, col)))
            .filter(|&(row, col)| state.cells[row * self.cols + col].is_none())
            .map(|(row, col)| Square {
                col: col as u8,
                row: row as u8,
            })
            .collect()
        // END SOLUTION
    }

    fn next_state(&self, state: &Board, mv: &Square) -> Result<Board, IllegalMove> {
        // BEGIN SOLUTION: refuse a square off the board or taken, or any move once the game is over; else mark it and pass the turn
        let illegal = |reason: String| Err(IllegalMove::new(self.string_of_move(mv), reason));
        if state.winner.is_some() || state.filled == state.cells.len() {
            return illegal("the game is over".to_owned());
        }
        if !self.on_board(*mv) {
            return illegal(format!(
                "no such square on a {}x{} board (columns a to {}, rows 1 to {})",
                self.rows,
                self.cols,
                char::from(b'a' + self.cols as u8 - 1),
                self.rows
            ));
        }
        let i = self.index(*mv);
        if let Some(p) = state.cells[i] {
            return illegal(format!("the square is taken (by {})", mark(Some(p))));
        }
        let mut next = state.clone();
        next.cells[i] = Some(state.to_move);
        next.filled += 1;
        if self.makes_line(&next.cells, *mv, state.to_move) {
            next.winner = Some(state.to_move);
        }
        next.to_move = state.to_move.other();
        Ok(next)
        // END SOLUTION
    }

    fn game_status(&self, state: &Board) -> Status {
        // BEGIN SOLUTION: a win for whoever has k in a row (across, down or diagonally), a draw on a full board
        match state.winner {
            Some(p) => Status::Win(p),
            None if state.filled == state.cells.len() => Status::Draw,
            None => Status::Ongoing(state.to_move),
        }
        // END SOLUTION
    }

    /// 0: no guess (payoffs are +1 and -1, so an estimate must be 0).
    fn estimate_value(&self, _state: &Board) -> Value {
        // BEGIN SOLUTION: a constant strictly between a loss and a win is enough
        0
        // END SOLUTION
    }

    fn string_of_player(&self, player: Player) -> String {
        match player {
            Player::P1 => "Player 1 (X)".to_owned(),
            Player::P2 => "Player 2 (O)".to_owned(),
        }
    }

    /// The board, top row first, each row with its number, `X`, `O` and `.`
    /// for empty squares, the column letters beneath, then whose turn it is
    /// or the result.
    fn string_of_state(&self, state: &Board) -> String {
        // BEGIN SOLUTION: draw the board with row numbers and column letters, then whose turn it is or who won
        let width = self.rows.to_string().len();
        let mut out = String::new();
        for row in (0..self.rows).rev() {
            let cells: Vec<String> = (0..self.cols)
                .map(|col| mark(state.cells[row * self.cols + col]).to_string())
                .collect();
            out += &format!("{:>width$} {}\n", row + 1, cells.join(" "));
        }
        let letters: Vec<String> = (0..self.cols)
            .map(|c| char::from(b'a' + c as u8).to_string())
            .collect();
        out += &format!("{:>width$} {}\n", "", letters.join(" "));
        out += &match self.game_status(state) {
            Status::Win(p) => format!("{} wins", self.string_of_player(p)),
            Status::Draw => "Draw: the board is full".to_owned(),
            Status::Ongoing(p) => format!("{} to move", self.string_of_player(p)),
        };
        out
        // END SOLUTION
    }

    fn string_of_move(&self, mv: &Square) -> String {
        // BEGIN SOLUTION: the column letter, then the row number from 1 at the bottom (`b2`)
        format!("{}{}", char::from(b'a' + mv.col), u32::from(mv.row) + 1)
        // END SOLUTION
    }

    /// A column letter then a row number (`b2`); capitals and spaces around
    /// or between them are accepted. Any letter `a`-`z` and row `1`-`99`
    /// parses; a square off the board is refused by `next_state`.
    fn move_of_string(&self, text: &str) -> Result<Square, ParseMoveError> {
        // BEGIN SOLUTION: read a letter and a number (capitals and spaces allowed); anything else is a ParseMoveError naming the problem
        const EXPECTED: &str =
            "expected a square: a column letter then a row number, e.g. b2 (a1 is bottom-left)";
        let err = |why: &str| Err(ParseMoveError::new(text, why));
        let t = text.trim();
        let mut chars = t.chars();
        let Some(letter) = chars.next().filter(char::is_ascii_alphabetic) else {
            return err(EXPECTED);
        };
        let number = chars.as_str().trim_start();
        if number.is_empty()
            || number.len() > 2
            || !number.bytes().all(|b| b.is_ascii_digit())
            || number.starts_with('0')
        {
            return err(EXPECTED);
        }
        let row: u8 = number
            .parse()
            .map_err(|_| ParseMoveError::new(text, EXPECTED))?;
        Ok(Square {
            col: letter.to_ascii_lowercase() as u8 - b'a',
            row: row - 1,
        })
        // END SOLUTION
    }

    fn max_game_length(&self) -> usize {
        // BEGIN SOLUTION: every move fills one square
        self.rows * self.cols
        // END SOLUTION
    }
}

impl Configurable for TicTacToe {
    const NAME: &'static str = "tictactoe";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::new("rows", "3", "rows of the board (1 to 26)"),
            OptionSpec::new("cols", "3", "columns of the board (1 to 26)"),
            OptionSpec::new("k", "3", "how many marks in a line win"),
        ]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        TicTacToe::new(
            options.get_or("rows", 3)?,
            options.get_or("cols", 3)?,
            options.get_or("k", 3)?,
        )
    }

    fn options(&self) -> Options {
        Options::new()
            .with("rows", self.rows)
            .with("cols", self.cols)
            .with("k", self.k)
    }

    fn notation() -> &'static str {
        "a square: column letter then row number, e.g. b2 (a1 = bottom-left; B2, b 2 also work)"
    }

    fn rules() -> &'static str {
        "Players take turns putting their mark (X first, then O) on an empty square.\n\
         Whoever first has k marks in a row, a column or a diagonal wins (k=3: tic-tac-toe).\n\
         A full board without such a line is a draw."
    }
}
