//! A student's Connect-4, written the plain way: a grid of cells.
//! The zoo's correct Connect-4; its buggy and hostile variants are patches
//! of this file (see `grader/zoo/zoo.toml`).

use game_api::{Configurable, Game, IllegalMove, OptionSpec, Options, OptionsError, ParseMoveError, Player, Status, Value};

/// The grader builds this type.
pub type Submission = Connect4;

/// Connect-4 on a board of any size.
pub struct Connect4 {
    rows: usize,
    cols: usize,
    connect: usize,
}

/// A position: `grid[row][col]`, row 0 at the bottom; 0 empty, 1 or 2 a stone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    grid: Vec<Vec<u8>>,
    to_move: Player,
    moves: usize,
}

fn stone(p: Player) -> u8 {
    p.number()
}

impl Connect4 {
    fn height(&self, s: &State, col: usize) -> usize {
        (0..self.rows).take_while(|&r| s.grid[r][col] != 0).count()
    }

    fn line(&self, s: &State, row: usize, col: usize, dr: isize, dc: isize) -> usize {
        let who = s.grid[row][col];
        let mut n = 0;
        let (mut r, mut c) = (row as isize, col as isize);
        while r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols && s.grid[r as usize][c as usize] == who {
            n += 1;
            r += dr;
            c += dc;
        }
        n
    }

    fn winner(&self, s: &State) -> Option<Player> {
        let directions: &[(isize, isize)] = &[(0, 1), (1, 0), (1, 1), (1, -1)];
        for row in 0..self.rows {
            for col in 0..self.cols {
                if s.grid[row][col] == 0 {
                    continue;
                }
                for &(dr, dc) in directions {
                    if self.line(s, row, col, dr, dc) >= self.connect {
                        return Some(if s.grid[row][col] == 1 { Player::P1 } else { Player::P2 });
                    }
                }
            }
        }
        None
    }
}

impl Game for Connect4 {
    type State = State;
    type Move = usize;

    fn initial_state(&self) -> State {
        State { grid: vec![vec![0; self.cols]; self.rows], to_move: Player::P1, moves: 0 }
    }

    fn legal_moves(&self, s: &State) -> Vec<usize> {
        if self.game_status(s).is_over() {
            return vec![];
        }
        (1..=self.cols).filter(|&c| self.height(s, c - 1) < self.rows).collect()
    }

    fn next_state(&self, s: &State, mv: &usize) -> Result<State, IllegalMove> {
        if self.game_status(s).is_over() {
            return Err(IllegalMove::new(mv.to_string(), "the game is over"));
        }
        if *mv < 1 || *mv > self.cols {
            return Err(IllegalMove::new(mv.to_string(), "no such column"));
        }
        let col = mv - 1;
        let row = self.height(s, col);
        if row >= self.rows {
            return Err(IllegalMove::new(mv.to_string(), "the column is full"));
        }
        let mut next = s.clone();
        next.grid[row][col] = stone(s.to_move);
        next.to_move = s.to_move.other();
        next.moves += 1;
        Ok(next)
    }

    fn game_status(&self, s: &State) -> Status {
        if let Some(p) = self.winner(s) {
            Status::Win(p)
        } else if s.moves == self.rows * self.cols {
            Status::Draw
        } else {
            Status::Ongoing(s.to_move)
        }
    }

    fn estimate_value(&self, _s: &State) -> Value {
        0
    }

    fn max_payoff(&self) -> Value {
        1
    }

    fn string_of_state(&self, s: &State) -> String {
        let mut text = String::new();
        for row in (0..self.rows).rev() {
            for col in 0..self.cols {
                text.push(match s.grid[row][col] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn string_of_move(&self, mv: &usize) -> String {
        mv.to_string()
    }

    fn move_of_string(&self, text: &str) -> Result<usize, ParseMoveError> {
        text.trim().parse().map_err(|_| ParseMoveError::new(text, "expected a column number"))
    }

    fn max_game_length(&self) -> usize {
        self.rows * self.cols
    }
}

impl Configurable for Connect4 {
    const NAME: &'static str = "connect4";

    fn option_specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::new("rows", "6", "rows"),
            OptionSpec::new("cols", "7", "columns"),
            OptionSpec::new("connect", "4", "stones in a row to win"),
        ]
    }

    fn from_options(options: &Options) -> Result<Self, OptionsError> {
        options.check_known(&Self::option_specs())?;
        Ok(Connect4 {
            rows: options.get_or("rows", 6)?,
            cols: options.get_or("cols", 7)?,
            connect: options.get_or("connect", 4)?,
        })
    }

    fn options(&self) -> Options {
        Options::new().with("rows", self.rows).with("cols", self.cols).with("connect", self.connect)
    }

    fn notation() -> &'static str {
        "a column number, 1 = leftmost"
    }

    fn rules() -> &'static str {
        "four in a row wins"
    }
}
