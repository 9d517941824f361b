//! `games analyse`: the course's argmax table for one position. Every legal
//! move with the value of the position it leads to (exact where the search
//! reaches the end of the game, estimated otherwise), best first for the
//! player to move, and the move the AI would choose with the same limits.

use crate::moves::{reach, read_moves};
use crate::play::signed;
use crate::registry::{run_game, GameCommand};
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
    /// Time for the whole table, split evenly between the moves (e.g. 500ms, 5s) [default: 2s].
    #[arg(long, value_parser = humantime::parse_duration)]
    time: Option<Duration>,
}

/// Runs `games analyse`.
///
/// # Errors
/// Bad game options or moves, named.
pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    run_game(&args.game, &args.options, Command(args))
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
    /// Whether the value is exact (the search reached the end of the game).
    pub exact: bool,
    /// How many plies below the move were searched.
    pub depth: u32,
}

/// The table for `state` (an ongoing position), best move first for the
/// player to move, and the move the AI would play. Each move's search and
/// the AI's own search get `limits` (a time limit is split evenly between
/// them all).
///
/// # Errors
/// [`TableSizeError`] when the engine's table cannot be allocated.
pub fn table<G: Game>(
    game: &G,
    state: &G::State,
    limits: AiLimits,
) -> Result<(Vec<Row>, Option<String>), TableSizeError> {
    let Status::Ongoing(player) = game.game_status(state) else {
        return Ok((Vec::new(), None));
    };
    let moves = game.legal_moves(state);
    let searches = u32::try_from(moves.len() + 1).unwrap_or(u32::MAX);
    let time = limits
        .time
        .map(|t| (t / searches).max(Duration::from_millis(1)));
    let engine = |depth: Option<u32>| {
        Engine::new(EngineConfig {
            max_depth: depth,
            time_limit: time,
            ..EngineConfig::default()
        })
    };
    // One engine for every move's position: what it learns about one
    // position (its table) helps with the next.
    let mut below = engine(limits.depth.map(|d| d - 1))?;
    let mut rows: Vec<Row> = moves
        .iter()
        .filter_map(|mv| {
            let next = game.next_state(state, mv).ok()?;
            let (value, exact, depth) = match game.game_status(&next) {
                over @ (Status::Win(_) | Status::Draw) => (game.payoff(&next, over), true, 0),
                Status::Ongoing(_) if limits.depth == Some(1) => {
                    (game.estimate_value(&next), false, 0)
                }
                Status::Ongoing(_) => {
                    let (_, info) = below.search(game, &next)?;
                    (info.value, info.exact, info.depth)
                }
            };
            Some(Row {
                mv: game.string_of_move(mv),
                value,
                exact,
                depth,
            })
        })
        .collect();
    // Best first for the player to move; a stable sort keeps the game's
    // order among equals.
    rows.sort_by_key(|r| -player.sign() * r.value);
    let choice = engine(limits.depth)?
        .search(game, state)
        .map(|(mv, _)| game.string_of_move(&mv));
    Ok((rows, choice))
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
        let how = if row.exact {
            match row.value.signum() {
                1 => format!("exact: {} wins", game.string_of_player(Player::P1)),
                -1 => format!("exact: {} wins", game.string_of_player(Player::P2)),
                _ => "exact: draw".to_owned(),
            }
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
    use game_api::{Configurable, Options};

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
