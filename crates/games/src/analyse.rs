//! `games analyse`: the course's argmax table for one position. Every legal
//! move with the value of the position it leads to (exact where the search
//! reaches the end of the game, estimated otherwise), best first for the
//! player to move, and the move the AI would choose: the first row, from
//! the same search, so the two never disagree.

use crate::moves::{reach, read_moves};
use crate::play::signed;
use crate::registry::{run_game, GameCommand, Games};
use crate::render::{self, frame, paint, DIM, STRONG};
use crate::spec::AiLimits;
use anyhow::Context;
use game_api::{Configurable, Game, Player, Status, Value};
use players::{Engine, EngineConfig, TableSizeError};
use std::fmt::Write;
use std::process::ExitCode;
use std::time::Duration;

/// The time `games analyse` takes when given neither --depth nor --time.
const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// Value every legal move of a position, best first (the argmax table).
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The game (see `games list`).
    game: String,
    /// Game options, as name=value.
    options: Vec<String>,
    /// The position: the moves from the start, in the game's notation
    /// (e.g. --moves "4 4 3"); none for the start.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search every move this many plies deep (counting the move itself).
    #[arg(long, conflicts_with = "time", value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Time for the whole table, one search for every move (e.g. 500ms, 5s) [default: 2s].
    #[arg(long, value_parser = humantime::parse_duration)]
    time: Option<Duration>,
}

/// Runs `games analyse`.
///
/// # Errors
/// Bad game options or moves, named.
pub fn run(args: &Args, games: impl Games) -> anyhow::Result<ExitCode> {
    run_game(games, &args.game, &args.options, Command(args))
}

struct Command<'a>(&'a Args);

impl GameCommand for Command<'_> {
    type Output = ExitCode;
    fn run<G: Game + Configurable>(self, game: G) -> anyhow::Result<ExitCode> {
        let args = self.0;
        let moves = read_moves(&game, &args.moves.join(" "));
        let start = reach(&game, &moves).context("--moves")?;
        let limits = match (args.depth, args.time) {
            (None, None) => AiLimits {
                depth: None,
                time: Some(DEFAULT_TIME),
            },
            (depth, time) => AiLimits { depth, time },
        };
        let heading = render::position_title(&game, &moves);
        let mut out = anstream::stdout();
        std::io::Write::write_all(
            &mut out,
            report(&game, &start.state, &heading, limits)?.as_bytes(),
        )?;
        Ok(ExitCode::SUCCESS)
    }
}

/// One row of the table: a move and what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The move, in the game's notation.
    pub mv: String,
    /// The value to player 1 of the position after it.
    pub value: Value,
    /// Whether the value is exact (found without any estimate).
    pub exact: bool,
    /// Whether the move is proven to win or lose (its value ranks beyond
    /// every estimate), even if the margin was estimated.
    pub proven: bool,
    /// How many plies below the move were searched.
    pub depth: u32,
}

/// The table for `state` (an ongoing position), best move first for the
/// player to move, and the move the AI would play, which is the first row:
/// both come from one search of the engine ([`Engine::analyse`]) within
/// `limits`. Moves the engine does not consider because they let the
/// opponent win at once come last, valued by that win.
///
/// # Errors
/// [`TableSizeError`] when the engine's table cannot be allocated.
pub fn table<G: Game>(
    game: &G,
    state: &G::State,
    limits: AiLimits,
) -> Result<(Vec<Row>, Option<String>), TableSizeError> {
    let mut engine = Engine::new(EngineConfig {
        max_depth: limits.depth,
        time_limit: limits.time,
        ..EngineConfig::default()
    })?;
    let Some(analysis) = engine.analyse(game, state) else {
        return Ok((Vec::new(), None));
    };
    let mut rows: Vec<Row> = analysis
        .moves
        .iter()
        .map(|m| Row {
            mv: game.string_of_move(&m.mv),
            value: m.value,
            exact: m.exact,
            proven: m.proven,
            depth: m.depth.saturating_sub(1),
        })
        .collect();
    // The moves left out lose at once: the opponent's win is their value.
    let mut losing = Vec::new();
    for mv in game.legal_moves(state) {
        if analysis.moves.iter().any(|m| m.mv == mv) {
            continue;
        }
        let Ok(next) = game.next_state(state, &mv) else {
            continue;
        };
        let reply = game
            .winning_move(&next)
            .and_then(|w| game.next_state(&next, &w).ok());
        let (value, exact) = match reply {
            Some(end) => (game.payoff(&end, game.game_status(&end)), true),
            None => (game.estimate_value(&next), false),
        };
        losing.push(Row {
            mv: game.string_of_move(&mv),
            value,
            exact,
            proven: exact,
            depth: 1,
        });
    }
    rows.extend(losing);
    // The engine's order, with the moves that lose at once in their place
    // (the sort is stable: the engine's order is kept among equals).
    let mover = game.game_status(state).to_move().unwrap_or(Player::P1);
    rows.sort_by_key(|r| std::cmp::Reverse(rank_key(r, mover)));
    let choice = Some(game.string_of_move(&analysis.chosen));
    Ok((rows, choice))
}

/// How good `row` is for `mover`, larger is better: proven wins beyond
/// every estimate (by value), proven losses below, and exact before
/// estimated at equal value.
#[must_use]
pub fn rank_key(row: &Row, mover: Player) -> (i8, Value, bool) {
    let value = mover.sign() * row.value;
    let class = match (row.proven || row.exact, value.signum()) {
        (true, 1) => 2,
        (true, -1) => 0,
        _ => 1,
    };
    (class, value, row.exact)
}

/// The whole report: the position, the table and the AI's choice.
///
/// # Errors
/// [`TableSizeError`] when the engine's table cannot be allocated.
pub fn report<G: Game>(
    game: &G,
    state: &G::State,
    heading: &str,
    limits: AiLimits,
) -> Result<String, TableSizeError> {
    let mut out = String::new();
    let _ = writeln!(out, "{}", paint(STRONG, heading));
    out.push_str(&frame(game, state, None));
    let Status::Ongoing(player) = game.game_status(state) else {
        let _ = writeln!(out, "The game is over: there is nothing to choose.");
        return Ok(out);
    };
    let (rows, choice) = table(game, state, limits)?;
    let goal = if player == Player::P1 {
        "largest"
    } else {
        "smallest"
    };
    let _ = writeln!(
        out,
        "\n{} to move takes the {goal} value (values are to {}; search limits: {limits}).",
        render::name(game, player),
        game.string_of_player(Player::P1)
    );
    let width = rows
        .iter()
        .map(|r| r.mv.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "{}",
        paint(
            DIM,
            &format!("{:<width$}  {:>6}  {}", "move", "value", "how sure")
        )
    );
    for row in &rows {
        let winner = match row.value.signum() {
            1 => Some(game.string_of_player(Player::P1)),
            -1 => Some(game.string_of_player(Player::P2)),
            _ => None,
        };
        let how = if row.exact {
            match winner {
                Some(w) => format!("exact: {w} wins"),
                None => "exact: draw".to_owned(),
            }
        } else if let (true, Some(w)) = (row.proven, &winner) {
            format!("proven: {w} wins, by an estimated margin")
        } else {
            match row.depth + 1 {
                1 => "estimated, 1 ply deep".to_owned(),
                plies => format!("estimated, {plies} plies deep"),
            }
        };
        let _ = writeln!(out, "{:<width$}  {:>6}  {how}", row.mv, signed(row.value));
    }
    match choice {
        Some(mv) => {
            let _ = writeln!(out, "\nThe AI would play {}.", paint(STRONG, &mv));
        }
        None => {
            let _ = writeln!(out, "\nThe AI finds no move.");
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_api::{Configurable, IllegalMove, Options, ParseMoveError};

    /// Two moves for player 1: `win` wins at once, but by only 1 (of up to
    /// 100); `bait` leads to a position that looks worth +50 and is in fact
    /// a draw.
    struct Bait;

    impl Game for Bait {
        /// 0: the start; 1: after bait; 2: won; 3: drawn.
        type State = u8;
        /// 0: bait (then the only reply), 1: win.
        type Move = u8;
        fn initial_state(&self) -> u8 {
            0
        }
        fn legal_moves(&self, s: &u8) -> Vec<u8> {
            match s {
                0 => vec![0, 1],
                1 => vec![0],
                _ => vec![],
            }
        }
        fn next_state(&self, s: &u8, m: &u8) -> Result<u8, IllegalMove> {
            match (s, m) {
                (0, 0) => Ok(1),
                (0, 1) => Ok(2),
                (1, 0) => Ok(3),
                _ => Err(IllegalMove::new(m.to_string(), "not here")),
            }
        }
        fn game_status(&self, s: &u8) -> Status {
            match s {
                0 => Status::Ongoing(Player::P1),
                1 => Status::Ongoing(Player::P2),
                2 => Status::Win(Player::P1),
                _ => Status::Draw,
            }
        }
        fn estimate_value(&self, s: &u8) -> Value {
            if *s == 1 {
                50
            } else {
                0
            }
        }
        fn max_payoff(&self) -> Value {
            100
        }
        fn string_of_state(&self, s: &u8) -> String {
            s.to_string()
        }
        fn string_of_move(&self, m: &u8) -> String {
            ["bait", "win"][usize::from(*m)].to_owned()
        }
        fn move_of_string(&self, text: &str) -> Result<u8, ParseMoveError> {
            match text {
                "bait" => Ok(0),
                "win" => Ok(1),
                _ => Err(ParseMoveError::new(text, "bait or win")),
            }
        }
        fn max_game_length(&self) -> usize {
            2
        }
    }

    #[test]
    fn a_proven_win_one_ply_down_outranks_a_larger_estimate() {
        let depth_one = AiLimits {
            depth: Some(1),
            time: None,
        };
        let (rows, choice) = table(&Bait, &0, depth_one).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].mv.as_str(), rows[0].value), ("win", 1));
        assert!(rows[0].exact && rows[0].proven, "{rows:?}");
        assert_eq!((rows[1].mv.as_str(), rows[1].value), ("bait", 50));
        assert!(!rows[1].exact, "{rows:?}");
        assert_eq!(choice.as_deref(), Some("win"));
        // The engine plays it too, at any depth.
        for depth in [1, 2, 5] {
            let mut engine = Engine::<Bait>::new(EngineConfig {
                max_depth: Some(depth),
                time_limit: None,
                table_megabytes: 1,
                ..EngineConfig::default()
            })
            .unwrap();
            let (mv, info) = engine.search(&Bait, &0).unwrap();
            assert_eq!((mv, info.value), (1, 1), "depth {depth}");
        }
    }

    /// Positions of the standard board, each side to move, quiet and sharp.
    const CONNECT4_POSITIONS: [&str; 5] = ["", "4", "4 4 3", "4 4 3 3 5", "1 2 3 4 5 6 7 7 6"];

    fn connect4_at(moves: &str) -> (connect4::Connect4, connect4::Position) {
        let game = connect4::Connect4::default();
        let state = reach(&game, &read_moves(&game, moves)).unwrap().state;
        (game, state)
    }

    #[test]
    fn the_list_is_best_first_for_the_player_to_move_and_its_top_is_the_ais_choice() {
        for moves in CONNECT4_POSITIONS {
            let (game, state) = connect4_at(moves);
            let mover = game.game_status(&state).to_move().unwrap();
            let (rows, choice) = table(
                &game,
                &state,
                AiLimits {
                    depth: Some(5),
                    time: None,
                },
            )
            .unwrap();
            assert_eq!(rows.len(), game.legal_moves(&state).len(), "{moves}");
            assert!(
                rows.windows(2)
                    .all(|w| rank_key(&w[0], mover) >= rank_key(&w[1], mover)),
                "{moves}: {rows:?}"
            );
            assert_eq!(choice.as_deref(), Some(rows[0].mv.as_str()), "{moves}");
            // The same as the engine playing with the same limits.
            let mut engine = Engine::new(EngineConfig {
                max_depth: Some(5),
                time_limit: None,
                ..EngineConfig::default()
            })
            .unwrap();
            let (mv, info) = engine.search(&game, &state).unwrap();
            assert_eq!(game.string_of_move(&mv), rows[0].mv, "{moves}");
            assert_eq!(info.value, rows[0].value, "{moves}");
        }
    }

    #[test]
    fn exact_before_estimated_at_equal_value() {
        let row = |value, exact| Row {
            mv: String::new(),
            value,
            exact,
            proven: false,
            depth: 1,
        };
        let mut rows = [row(0, false), row(2, false), row(0, true), row(-3, true)];
        rows.sort_by_key(|r| std::cmp::Reverse(rank_key(r, Player::P1)));
        let got: Vec<_> = rows.iter().map(|r| (r.value, r.exact)).collect();
        assert_eq!(got, [(2, false), (0, true), (0, false), (-3, true)]);
        // For player 2, smaller is better: the proven loss of player 1 first.
        rows.sort_by_key(|r| std::cmp::Reverse(rank_key(r, Player::P2)));
        assert_eq!(rows[0].value, -3);
    }

    #[test]
    fn solved_values_are_marked_exact_and_match_the_solver() {
        let game =
            connect4::Connect4::from_options(&Options::new().with("rows", 4).with("cols", 5))
                .unwrap();
        let state = reach(&game, &read_moves(&game, "3 3 2")).unwrap().state;
        let no_limit = AiLimits {
            depth: None,
            time: None,
        };
        let (rows, choice) = table(&game, &state, no_limit).unwrap();
        let mut solver = Engine::new(EngineConfig {
            table_megabytes: 1,
            ..EngineConfig::default()
        })
        .unwrap();
        for row in &rows {
            assert!(row.exact, "{rows:?}");
            let mv = game.move_of_string(&row.mv).unwrap();
            let next = game.next_state(&state, &mv).unwrap();
            assert_eq!(row.value, solver.solve(&game, &next).value, "{}", row.mv);
        }
        assert_eq!(choice.as_deref(), Some(rows[0].mv.as_str()));
    }

    fn nim(piles: &str, rule: &str) -> nim::Nim {
        nim::Nim::from_options(&Options::new().with("piles", piles).with("rule", rule)).unwrap()
    }

    #[test]
    fn misere_nim_table_puts_the_theorys_winning_move_first() {
        // One pile, take 1 or 2, misère: leave 3k + 1 stones. From 9, take 2.
        let game = nim("9", "misere");
        let (rows, choice) = table(
            &game,
            &game.initial_state(),
            // No limit: exact values must not depend on how busy the machine is.
            AiLimits {
                depth: None,
                time: None,
            },
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].mv, "2");
        assert!(rows.iter().all(|r| r.exact), "{rows:?}");
        assert!(rows[0].value > 0 && rows[1].value < 0, "{rows:?}");
        assert_eq!(choice.as_deref(), Some("2"));
    }

    #[test]
    fn bouton_several_piles_normal_play_best_move_zeroes_the_nim_sum() {
        // Piles 3, 4, 5 (nim-sum 2): the winning moves leave nim-sum 0;
        // taking 2 from pile 1 (3 -> 1, and 1 ^ 4 ^ 5 = 0) is one.
        let game = nim::Nim::from_options(
            &Options::new()
                .with("piles", "3,4,5")
                .with("rule", "normal")
                .with("max_take", "none"),
        )
        .unwrap();
        let (rows, _) = table(
            &game,
            &game.initial_state(),
            // No limit: exact values must not depend on how busy the machine is.
            AiLimits {
                depth: None,
                time: None,
            },
        )
        .unwrap();
        let winning: Vec<&str> = rows
            .iter()
            .filter(|r| r.value > 0)
            .map(|r| r.mv.as_str())
            .collect();
        assert!(rows.iter().all(|r| r.exact), "{rows:?}");
        assert_eq!(winning, ["1:2"], "{rows:?}");
        assert_eq!(rows[0].mv, "1:2");
    }

    #[test]
    fn the_empty_standard_board_ranks_column_4_first_with_exact_values() {
        // The opening book makes the first move's values exact: only the
        // centre wins.
        let game = connect4::Connect4::default();
        let no_limit = AiLimits {
            depth: None,
            time: None,
        };
        let (rows, choice) = table(&game, &game.initial_state(), no_limit).unwrap();
        assert_eq!(rows[0].mv, "4");
        assert_eq!(rows[0].value, 1);
        assert!(rows.iter().all(|r| r.exact), "{rows:?}");
        assert!(rows[1..].iter().all(|r| r.value <= 0), "{rows:?}");
        assert_eq!(choice.as_deref(), Some("4"));
    }

    #[test]
    fn depth_one_tables_are_estimates_except_at_the_end() {
        let game = connect4::Connect4::default();
        let (rows, _) = table(
            &game,
            &game.initial_state(),
            AiLimits {
                depth: Some(1),
                time: None,
            },
        )
        .unwrap();
        assert_eq!(rows.len(), 7);
        assert!(rows.iter().all(|r| !r.exact));
        // Player 1 to move: sorted from largest value down.
        assert!(
            rows.windows(2).all(|w| w[0].value >= w[1].value),
            "{rows:?}"
        );
    }
}
