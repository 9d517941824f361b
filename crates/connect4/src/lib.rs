//! # Connect-4, on bitboards
//!
//! The reference Connect-4 of the course: [`Connect4`] implements
//! [`game_api::Game`] for any board that fits in 64 bits (6 rows by 7 columns
//! by default) and any line length, with every optional speed hook of the
//! trait, so the generic engine of the `players` crate can solve the
//! standard board as fast as a specialised solver.
//!
//! Payoffs reward fast wins exactly like Pascal Pons' benchmark scores: the
//! exact negamax value of a position, for the side to move, *is* his score
//! (see [`Game::payoff`] and [`Game::max_payoff`]): a win with the winner's
//! `s`-th stone is worth `ceil(rows * cols / 2) + 1 - s`.
//!
//! Positions are Pons' bitboards: a `u64` of the mover's stones and one of
//! all stones, column-major with a spare bit on top of each column, plus
//! both players' winning spots, updated by each move. Every hook is then a
//! handful of bit operations and allocates nothing:
//!
//! | hook | what it does here |
//! |------|-------------------|
//! | [`Game::legal_moves_into`] | the open columns, centre first |
//! | [`Game::state_key`] | a bijective mix of `stones + mask + bottom row`: distinct positions never share a key |
//! | [`Game::winning_move`] | a playable cell among the mover's winning spots |
//! | [`Game::non_losing_moves_into`] | Pons' `possibleNonLosingMoves` (block a single threat, never play under one), plus any winning move |
//! | [`Game::move_order_hint`] | Pons' move score: the mover's winning spots after the move, then centrality |
//! | [`Game::child_order_hint`] | the same score, read from the position after the move, which holds those spots |
//! | [`Game::value_bounds`] | exact for a win now or a forced loss, otherwise Pons' bounds from the stone count |
//!
//! `cargo run --release -p connect4 --example bench` prints what each costs.
//!
//! ```
//! use connect4::Connect4;
//! use game_api::{Game, Player, Status};
//!
//! let game = Connect4::default();
//! let s = game.state_from_digits("4455").unwrap();
//! assert_eq!(game.game_status(&s), Status::Ongoing(Player::P1));
//! let s = game.next_state(&s, &game.move_of_string("3").unwrap()).unwrap();
//! println!("{}", game.string_of_state(&s));
//! ```

#![warn(missing_docs)]

mod board;
mod book;

use board::Geometry;
use game_api::text;
use game_api::{
    Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError, ParseMoveError, Player,
    Status, Value,
};
use std::fmt;
use std::sync::Arc;
use thiserror::Error;

/// A move: the column a stone is dropped into.
///
/// Written and read as the column's number counted from 1 (`"4"` is the
/// centre column of the standard board).
///
/// ```
/// use connect4::Column;
/// let c = Column::from_number(4).unwrap();
/// assert_eq!(c.index(), 3);
/// assert_eq!(c.to_string(), "4");
/// assert_eq!(Column::from_number(0), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(u8);

impl Column {
    /// The column at `index`, counted from 0 (leftmost).
    ///
    /// ```
    /// assert_eq!(connect4::Column::from_index(0).number(), 1);
    /// ```
    #[must_use]
    pub const fn from_index(index: u8) -> Self {
        Column(index)
    }

    /// The column with `number`, counted from 1 (leftmost); `None` for 0 or
    /// a number no board can have (above 255).
    #[must_use]
    pub fn from_number(number: u32) -> Option<Self> {
        u8::try_from(number.checked_sub(1)?).ok().map(Column)
    }

    /// Its index, counted from 0.
    ///
    /// ```
    /// assert_eq!(connect4::Column::from_number(7).unwrap().index(), 6);
    /// ```
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Its number, counted from 1.
    ///
    /// ```
    /// assert_eq!(connect4::Column::from_index(6).number(), 7);
    /// ```
    #[must_use]
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A position: the stones on the board and who is to move.
///
/// `Copy` and 40 bytes: two bitboards of stones, the two players' winning
/// spots (kept up to date by each move, so the search hooks cost a few bit
/// operations) and the move count. Built by the game
/// ([`Game::initial_state`], [`Game::next_state`],
/// [`Connect4::state_from_digits`]), so it is always a position reachable on
/// that game's board; the cached fields are functions of the stones, so
/// equality and hashing mean "same stones".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The stones of the player to move.
    current: u64,
    /// Every stone.
    mask: u64,
    /// Empty cells where the player to move would complete a line (playable
    /// now or not). Zero once the game is won.
    threats: u64,
    /// Empty cells where the opponent would complete a line. Zero once the
    /// game is won.
    opponent_threats: u64,
    /// Stones on the board.
    moves: u8,
    /// Whether the last move completed a line (the game is won).
    won: bool,
}

impl Position {
    /// How many stones have been played.
    ///
    /// ```
    /// # use connect4::Connect4;
    /// let game = Connect4::default();
    /// assert_eq!(game.state_from_digits("4453").unwrap().moves_played(), 4);
    /// ```
    #[must_use]
    pub fn moves_played(&self) -> u32 {
        u32::from(self.moves)
    }

    /// The player whose turn it is (or would be, if the game is over).
    ///
    /// ```
    /// # use connect4::Connect4;
    /// # use game_api::Player;
    /// let game = Connect4::default();
    /// assert_eq!(game.state_from_digits("4").unwrap().player_to_move(), Player::P2);
    /// ```
    #[must_use]
    pub fn player_to_move(&self) -> Player {
        if self.moves % 2 == 0 {
            Player::P1
        } else {
            Player::P2
        }
    }

    /// The stones of player 1 and of player 2, as bitboards.
    fn stones_by_player(&self) -> (u64, u64) {
        let other = self.current ^ self.mask;
        match self.player_to_move() {
            Player::P1 => (self.current, other),
            Player::P2 => (other, self.current),
        }
    }
}

/// A digit string (like the benchmark's `4453`) that is not a game.
///
/// ```
/// use connect4::{Connect4, DigitsError};
/// let err = Connect4::default().state_from_digits("449").unwrap_err();
/// assert_eq!(err, DigitsError::NotAColumn { position: 3, found: '9', cols: 7 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DigitsError {
    /// The character at `position` (from 1) is not a column digit.
    #[error(
        "character {position} (`{}`) is not a column: expected a digit from 1 to {cols}",
        game_api::echo(&found.to_string())
    )]
    NotAColumn {
        /// Where, counted from 1.
        position: usize,
        /// The character found.
        found: char,
        /// How many columns the board has.
        cols: u32,
    },
    /// The move at `position` (from 1) may not be played there (why is
    /// its `source`).
    #[error("character {position}")]
    Illegal {
        /// Where, counted from 1.
        position: usize,
        /// Why the move is illegal.
        source: IllegalMove,
    },
}

/// Connect-4 on a board of `rows` x `cols` (6 x 7 by default), where
/// `connect` stones in a row (4 by default) win.
///
/// Players drop stones into columns in turn, player 1 first; a stone falls
/// to the lowest empty cell. A line of `connect` stones horizontally,
/// vertically or diagonally wins; a full board without one is a draw.
///
/// ```
/// use connect4::Connect4;
/// use game_api::{Configurable, Game, Options, Player, Status};
///
/// let game = Connect4::from_options(&Options::parse_args(["rows=5", "connect=3"]).unwrap()).unwrap();
/// let s = game.state_from_digits("11223").unwrap();
/// assert_eq!(game.game_status(&s), Status::Win(Player::P1));
/// // C = ceil(5 * 7 / 2) + 1 = 19, and X won with its 3rd stone.
/// assert_eq!(game.payoff(&s, Status::Win(Player::P1)), 19 - 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connect4 {
    geo: Geometry,
    /// Columns with their cells, centre first: the natural move order.
    order: Vec<(u64, Column)>,
    /// `ceil(rows * cols / 2) + 1`: a win with the winner's `s`-th stone is
    /// worth `win_base - s` to the winner.
    win_base: Value,
}

impl Default for Connect4 {
    /// The standard game: 6 rows, 7 columns, 4 in a row.
    fn default() -> Self {
        Connect4::new(6, 7, 4).expect("the standard board is supported")
    }
}

impl Connect4 {
    /// The game on a `rows` x `cols` board where `connect` in a row wins.
    ///
    /// ```
    /// use connect4::Connect4;
    /// assert!(Connect4::new(6, 7, 4).is_ok());
    /// assert!(Connect4::new(8, 8, 4).is_err()); // 8 x 9 bits do not fit in 64
    /// assert!(Connect4::new(6, 7, 8).is_err()); // no line of 8 fits
    /// ```
    ///
    /// # Errors
    /// [`OptionsError::Unsupported`] when the board does not fit in a `u64`
    /// (`cols * (rows + 1) > 64`), is empty, when `connect` is below 2 or
    /// longer than the board, or when the board is too small for the first
    /// player to ever hold `connect` stones.
    pub fn new(rows: u32, cols: u32, connect: u32) -> Result<Self, OptionsError> {
        let unsupported = |why: String| Err(OptionsError::Unsupported(why));
        if rows == 0 || cols == 0 {
            return unsupported(format!(
                "a {rows} x {cols} board has no cells: rows and cols must be at least 1"
            ));
        }
        if u64::from(cols) * (u64::from(rows) + 1) > 64 {
            return unsupported(format!(
                "a board of {} and {} is too large: cols * (rows + 1) must be at most 64 \
                 (it is {})",
                text::count(rows, "row"),
                text::count(cols, "column"),
                u64::from(cols) * (u64::from(rows) + 1)
            ));
        }
        if connect < 2 {
            return unsupported(format!(
                "connect={connect} is meaningless: lines must be at least 2 long"
            ));
        }
        if connect > rows.max(cols) {
            return unsupported(format!(
                "connect={connect} cannot be reached on {} and {}: no line is that long",
                text::count(rows, "row"),
                text::count(cols, "column")
            ));
        }
        let first_player_stones = (rows * cols).div_ceil(2);
        if first_player_stones < connect {
            return unsupported(format!(
                "a {rows} x {cols} board is too small for connect={connect}: the first player only ever has \
                 {}",
                text::count(first_player_stones, "stone")
            ));
        }
        let geo = Geometry::new(rows, cols, connect);
        // Pons' order: the centre, then alternately left and right of it.
        let order = (0..cols)
            .map(|i| {
                let offset = i.div_ceil(2);
                let col = if i % 2 == 1 {
                    cols / 2 - offset
                } else {
                    cols / 2 + offset
                };
                let index = u8::try_from(col).expect("at most 32 columns");
                (geo.column_mask(col), Column(index))
            })
            .collect();
        Ok(Connect4 {
            geo,
            order,
            win_base: Value::try_from(first_player_stones + 1).expect("at most 64 cells"),
        })
    }

    /// Rows of the board.
    ///
    /// ```
    /// assert_eq!(connect4::Connect4::new(5, 8, 4).unwrap().rows(), 5);
    /// ```
    #[must_use]
    pub fn rows(&self) -> u32 {
        self.geo.rows
    }

    /// Columns of the board.
    ///
    /// ```
    /// assert_eq!(connect4::Connect4::new(5, 8, 4).unwrap().cols(), 8);
    /// ```
    #[must_use]
    pub fn cols(&self) -> u32 {
        self.geo.cols
    }

    /// The line length that wins.
    ///
    /// ```
    /// assert_eq!(connect4::Connect4::new(5, 8, 4).unwrap().connect(), 4);
    /// ```
    #[must_use]
    pub fn connect(&self) -> u32 {
        self.geo.connect
    }

    /// The position after the moves in `digits`, one digit per move giving
    /// the column counted from 1, as in Pascal Pons' benchmark files
    /// (`"4453"`). Spaces around the digits are ignored. Only boards of at
    /// most 9 columns can be written this way.
    ///
    /// ```
    /// use connect4::Connect4;
    /// let game = Connect4::default();
    /// assert_eq!(game.state_from_digits("4453").unwrap().moves_played(), 4);
    /// let err = game.state_from_digits("44x3").unwrap_err();
    /// assert_eq!(err.to_string(), "character 3 (`x`) is not a column: expected a digit from 1 to 7");
    /// let err = game.state_from_digits("4444444").unwrap_err();
    /// assert_eq!(err.to_string(), "character 7"); // why: its source
    /// let why = std::error::Error::source(&err).unwrap();
    /// assert_eq!(why.to_string(), "illegal move 4: column 4 is full");
    /// ```
    ///
    /// # Errors
    /// [`DigitsError`] naming the position (from 1) of the first character
    /// that is not a column of this board, or of the first illegal move (a
    /// full column, or a move after the game was won).
    pub fn state_from_digits(&self, digits: &str) -> Result<Position, DigitsError> {
        let trimmed = digits.trim_start();
        let skipped = digits.chars().count() - trimmed.chars().count();
        let mut state = self.initial_state();
        for (i, ch) in trimmed.trim_end().chars().enumerate() {
            let position = skipped + i + 1;
            let column = ch
                .to_digit(10)
                .and_then(Column::from_number)
                .filter(|c| u32::from(c.index()) < self.geo.cols)
                .ok_or(DigitsError::NotAColumn {
                    position,
                    found: ch,
                    cols: self.geo.cols,
                })?;
            state = self
                .next_state(&state, &column)
                .map_err(|source| DigitsError::Illegal { position, source })?;
        }
        Ok(state)
    }

    /// The column's cells, or `None` if the board has no such column.
    fn column_mask(&self, mv: Column) -> Option<u64> {
        (u32::from(mv.index()) < self.geo.cols).then(|| self.geo.column_mask(u32::from(mv.index())))
    }

    /// The cells where the side to move may drop a stone (none if the game is over).
    #[inline]
    fn playable(&self, s: &Position) -> u64 {
        if s.won {
            0
        } else {
            self.geo.playable(s.mask)
        }
    }

    /// Why `mv` cannot be played in `state`; kept out of line so the hot
    /// path of [`Game::next_state`] stays small.
    #[cold]
    #[inline(never)]
    fn why_illegal(&self, state: &Position, mv: Column) -> IllegalMove {
        let reason = if self.column_mask(mv).is_none() {
            format!(
                "there is no column {mv}: columns are 1 to {}",
                self.geo.cols
            )
        } else if state.won {
            "the game is over".to_owned()
        } else {
            format!("column {mv} is full")
        };
        IllegalMove::new(mv.to_string(), reason)
    }

    /// Pushes the columns of the cells in `cells`, centre first.
    #[inline]
    fn push_columns(&self, cells: u64, out: &mut Vec<Column>) {
        out.clear();
        if cells != 0 {
            for &(column, mv) in &self.order {
                if cells & column != 0 {
                    out.push(mv);
                }
            }
        }
    }

    /// Pons' `possibleNonLosingMoves`, plus the moves that win at once: the
    /// playable cells whose move does not let the opponent win next.
    #[inline]
    fn non_losing_cells(&self, s: &Position) -> u64 {
        let playable = self.playable(s);
        let threats = s.opponent_threats;
        let forced = playable & threats;
        let candidates = if forced == 0 {
            playable
        } else if forced & (forced - 1) != 0 {
            // Two spots to block at once: every move but a win loses.
            0
        } else {
            forced
        };
        // Never play right under an opponent's winning spot.
        let safe = candidates & !(threats >> 1);
        if safe == playable {
            safe
        } else {
            // Some move was dropped: a move that wins at once never loses.
            safe | (s.threats & playable)
        }
    }

    /// Whether the player to move, with no win at once and `safe` the cells
    /// of its moves that do not lose at once, wins with its stone after next
    /// whatever the opponent does: a safe move right under two of its
    /// winning spots stacked in the column. The opponent must block the
    /// first (it cannot win there: a move right under one of its spots is
    /// never safe), and the mover plays on it.
    #[inline]
    fn wins_with_stone_after_next(s: &Position, safe: u64) -> bool {
        safe & (s.threats >> 1) & (s.threats >> 2) != 0
    }

    /// Pons' move score of a move to `column` leaving the mover the winning
    /// spots `threats`: their number times 64, plus how central the column is.
    #[inline]
    fn order_score(&self, threats: u64, column: Column) -> i32 {
        let cols = self.geo.cols as i32;
        let centrality = cols - (2 * i32::from(column.index()) + 1 - cols).abs();
        (threats.count_ones() as i32) * 64 + centrality
    }

    /// Whether this is the standard board (6 x 7, four in a row), the one
    /// the opening book is for.
    fn is_standard(&self) -> bool {
        (self.geo.rows, self.geo.cols, self.geo.connect) == (6, 7, 4)
    }

    /// The value, to the winner, of a win with move number `m` (counting
    /// from 1); 0 when the board has no move `m`.
    #[inline]
    fn win_value_at_move(&self, m: u32) -> Value {
        if m > self.geo.rows * self.geo.cols {
            return 0;
        }
        // The winner's stone count after move m is ceil(m / 2).
        self.win_base - Value::try_from(m.div_ceil(2)).expect("at most 64 moves")
    }
}

impl Game for Connect4 {
    type State = Position;
    type Move = Column;

    fn initial_state(&self) -> Position {
        Position {
            current: 0,
            mask: 0,
            threats: 0,
            opponent_threats: 0,
            moves: 0,
            won: false,
        }
    }

    fn legal_moves(&self, state: &Position) -> Vec<Column> {
        let mut out = Vec::with_capacity(self.order.len());
        self.legal_moves_into(state, &mut out);
        out
    }

    #[inline]
    fn next_state(&self, state: &Position, mv: &Column) -> Result<Position, IllegalMove> {
        let cell = self
            .column_mask(*mv)
            .map_or(0, |column| self.playable(state) & column);
        if cell == 0 {
            return Err(self.why_illegal(state, *mv));
        }
        let mask = state.mask | cell;
        let moves = state.moves + 1;
        let opponent = state.current ^ state.mask;
        Ok(if state.threats & cell != 0 {
            Position {
                current: opponent,
                mask,
                threats: 0,
                opponent_threats: 0,
                moves,
                won: true,
            }
        } else {
            Position {
                current: opponent,
                mask,
                threats: state.opponent_threats & !cell,
                opponent_threats: self.geo.winning_spots(state.current | cell, mask),
                moves,
                won: false,
            }
        })
    }

    #[inline]
    fn game_status(&self, state: &Position) -> Status {
        if state.won {
            Status::Win(state.player_to_move().other())
        } else if u32::from(state.moves) == self.geo.rows * self.geo.cols {
            Status::Draw
        } else {
            Status::Ongoing(state.player_to_move())
        }
    }

    /// Open lines and threats: half of (the difference in lines of
    /// `connect` cells still open to each player, plus four times the
    /// difference in their winning spots), kept strictly inside the payoffs.
    /// 0 on the empty board; positive when player 1 has more chances.
    fn estimate_value(&self, state: &Position) -> Value {
        let open = |blocked: u64| {
            Value::try_from(self.geo.open_lines(blocked)).expect("at most 64 * 4 lines")
        };
        let count = |cells: u64| Value::try_from(cells.count_ones()).expect("at most 64");
        // For the player to move, then turned to player 1's side.
        let lines = open(state.current ^ state.mask) - open(state.current);
        let threats = count(state.threats) - count(state.opponent_threats);
        let raw = state.player_to_move().sign() * ((lines + 4 * threats) / 2);
        let limit = self.max_payoff() - 1;
        raw.clamp(-limit, limit)
    }

    fn string_of_player(&self, player: Player) -> String {
        match player {
            Player::P1 => "Player 1 (X)".to_owned(),
            Player::P2 => "Player 2 (O)".to_owned(),
        }
    }

    /// The board, top row first, `X` for player 1, `O` for player 2 and `.`
    /// for empty cells, the column numbers beneath, then whose turn it is or
    /// the result.
    fn string_of_state(&self, state: &Position) -> String {
        let (p1, p2) = state.stones_by_player();
        let width = self.geo.cols.to_string().len();
        let h1 = self.geo.rows + 1;
        let mut out = String::new();
        for row in (0..self.geo.rows).rev() {
            let cells: Vec<String> = (0..self.geo.cols)
                .map(|col| {
                    let bit = 1u64 << (col * h1 + row);
                    let mark = if p1 & bit != 0 {
                        'X'
                    } else if p2 & bit != 0 {
                        'O'
                    } else {
                        '.'
                    };
                    format!("{mark:>width$}")
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        let numbers: Vec<String> = (1..=self.geo.cols)
            .map(|c| format!("{c:>width$}"))
            .collect();
        out.push_str(&numbers.join(" "));
        out.push('\n');
        out.push_str(&match self.game_status(state) {
            Status::Win(p) => format!("{} wins", self.string_of_player(p)),
            Status::Draw => "Draw: the board is full".to_owned(),
            Status::Ongoing(p) => format!("{} to move", self.string_of_player(p)),
        });
        out
    }

    fn string_of_move(&self, mv: &Column) -> String {
        mv.to_string()
    }

    fn move_of_string(&self, text: &str) -> Result<Column, ParseMoveError> {
        let trimmed = text.trim();
        let expected = || format!("expected a column number from 1 to {}", self.geo.cols);
        if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseMoveError::new(text, expected()));
        }
        trimmed
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=self.geo.cols).contains(n))
            .and_then(Column::from_number)
            .ok_or_else(|| {
                ParseMoveError::new(
                    text,
                    format!(
                        "there is no column {}: {}",
                        game_api::echo(trimmed),
                        expected()
                    ),
                )
            })
    }

    fn max_game_length(&self) -> usize {
        (self.geo.rows * self.geo.cols) as usize
    }

    /// A win with the winner's `s`-th stone is worth `C - s` to the winner
    /// (so `-(C - s)` to player 1 when player 2 wins), where
    /// `C = ceil(rows * cols / 2) + 1` (22 on the standard board); a draw is
    /// worth 0. Faster wins are worth more, as in Pons' scores.
    ///
    /// ```
    /// # use connect4::Connect4;
    /// # use game_api::{Game, Player, Status};
    /// let game = Connect4::default();
    /// let s = game.state_from_digits("1212121").unwrap(); // X wins with its 4th stone
    /// assert_eq!(game.payoff(&s, game.game_status(&s)), 22 - 4);
    /// ```
    fn payoff(&self, state: &Position, status: Status) -> Value {
        match status {
            Status::Win(p) => p.sign() * self.win_value_at_move(state.moves_played()),
            Status::Draw => 0,
            Status::Ongoing(_) => self.estimate_value(state),
        }
    }

    /// `C - connect`: a win with the earliest possible stone (18 on the
    /// standard board).
    fn max_payoff(&self) -> Value {
        self.win_base - Value::try_from(self.geo.connect).expect("at most 64")
    }

    #[inline]
    fn legal_moves_into(&self, state: &Position, out: &mut Vec<Column>) {
        self.push_columns(self.playable(state), out);
    }

    /// A unique key: `current + mask + bottom` encodes each column as its
    /// height marker above its stones, then a bijective mix spreads the bits
    /// so any bits of the key index a table well. Distinct positions always
    /// have distinct keys.
    #[inline]
    fn state_key(&self, state: &Position) -> u64 {
        let mut x = state
            .current
            .wrapping_add(state.mask)
            .wrapping_add(self.geo.bottom);
        x ^= x >> 32;
        x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
        x ^= x >> 32;
        x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
        x ^ (x >> 32)
    }

    /// Pons' move score: how many winning spots the mover has after the
    /// move, times 64, plus how central the column is.
    #[inline]
    fn move_order_hint(&self, state: &Position, mv: &Column) -> i32 {
        let Some(column) = self.column_mask(*mv) else {
            return 0;
        };
        let cell = self.geo.playable(state.mask) & column;
        let threats = self
            .geo
            .winning_spots(state.current | cell, state.mask | cell);
        self.order_score(threats, *mv)
    }

    /// The same score read from the position after the move, which holds
    /// the mover's winning spots already.
    #[inline]
    fn child_order_hint(&self, state: &Position, mv: &Column, child: &Position) -> i32 {
        if child.won || child.moves != state.moves + 1 {
            return self.move_order_hint(state, mv);
        }
        self.order_score(child.opponent_threats, *mv)
    }

    #[inline]
    fn winning_move(&self, state: &Position) -> Option<Column> {
        // No threats once the game is won.
        let wins = state.threats & self.geo.playable(state.mask);
        (wins != 0).then(|| Column(self.geo.column_of(wins & wins.wrapping_neg()) as u8))
    }

    #[inline]
    fn non_losing_moves_into(&self, state: &Position, out: &mut Vec<Column>) {
        self.push_columns(self.non_losing_cells(state), out);
    }

    /// On the standard board, positions with 12 stones: the smaller of the
    /// keys of the position and of its mirror image (they have the same
    /// value).
    #[inline]
    fn book_key(&self, state: &Position) -> Option<u64> {
        if state.moves_played() != book::BOOK_PLIES || !self.is_standard() {
            return None;
        }
        let (p1, _) = state.stones_by_player();
        Some(book::mirror_key(&self.geo, p1, state.mask))
    }

    /// On the standard board, the exact values of 4.2 million positions
    /// with 12 stones (up to mirror images; the positions nobody has won
    /// and where the player to move cannot win at once): Markus Thill's
    /// `bitbully-databases` (MIT licence, see `book/README.md`), decoded
    /// once per process.
    ///
    /// ```
    /// use connect4::Connect4;
    /// use game_api::Game;
    /// let game = Connect4::default();
    /// let book = game.opening_book().unwrap();
    /// // The package's own example: player 1 wins with move 41, its 21st
    /// // stone (worth 22 - 21).
    /// let s = game.state_from_digits("422442244666").unwrap();
    /// let key = game.book_key(&s).unwrap();
    /// let i = book.binary_search_by_key(&key, |e| e.0).unwrap();
    /// assert_eq!(book[i].1, 1);
    /// ```
    fn opening_book(&self) -> Option<Arc<[(u64, Value)]>> {
        self.is_standard()
            .then(|| book::entries(&self.geo, |m| self.win_value_at_move(m)))
    }

    /// Bounds from the number of stones `n`, for the side to move: a win now
    /// is exact; otherwise the earliest win is with the mover's stone after
    /// next (at most `C - floor((n + 4) / 2)`), exact when two of its
    /// winning spots are stacked right above a move that does not lose. If
    /// every move lets the opponent win at once, the loss is exact;
    /// otherwise the opponent wins at the earliest with its second move
    /// from now (at least `-(C - floor((n + 5) / 2))`). Pons' `(W*H-1-n)/2`
    /// and `-(W*H-2-n)/2` on the standard board. Turned into player 1's
    /// terms.
    #[inline]
    fn value_bounds(&self, state: &Position) -> (Value, Value) {
        let n = state.moves_played();
        let (low, high) = match self.game_status(state) {
            Status::Ongoing(_) => {
                let safe = self.non_losing_cells(state);
                if state.threats & self.geo.playable(state.mask) != 0 {
                    let v = self.win_value_at_move(n + 1);
                    (v, v)
                } else if safe == 0 {
                    let v = -self.win_value_at_move(n + 2);
                    (v, v)
                } else if Self::wins_with_stone_after_next(state, safe) {
                    let v = self.win_value_at_move(n + 3);
                    (v, v)
                } else {
                    (
                        -self.win_value_at_move(n + 4),
                        self.win_value_at_move(n + 3),
                    )
                }
            }
            over => {
                let v = self.payoff(state, over) * state.player_to_move().sign();
                (v, v)
            }
        };
        match state.player_to_move() {
            Player::P1 => (low, high),
            Player::P2 => (-high, -low),
        }
    }
}

impl Configurable for Connect4 {
    const NAME: &'static str = "connect4";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::new("rows", "6", "rows of the board"),
            OptionSpec::new(
                "cols",
                "7",
                "columns of the board (cols * (rows + 1) <= 64)",
            ),
            OptionSpec::new("connect", "4", "how many stones in a row win"),
        ]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        Connect4::new(
            options.get_number("rows", 6)?,
            options.get_number("cols", 7)?,
            options.get_number("connect", 4)?,
        )
    }

    fn options(&self) -> Options {
        Options::new()
            .with("rows", self.geo.rows)
            .with("cols", self.geo.cols)
            .with("connect", self.geo.connect)
    }

    fn notation() -> &'static str {
        "a column number, 1 = leftmost (e.g. 4)"
    }

    fn rules() -> &'static str {
        "Players take turns dropping a stone into a column; it falls to the lowest empty cell. \
         Player 1 (X) moves first. The first to line up `connect` stones (4 by default) \
         horizontally, vertically or diagonally wins; a full board is a draw. \
         Faster wins score more."
    }
}
