//! Does the engine, at its default settings, play standard Connect-4
//! perfectly? A benchmark, not a test: it plays the engine against a
//! perfect player (the solver with the opening book, choosing at random
//! among its best moves) from the empty board on both sides and from random
//! openings, and checks every move of the engine against the exact values
//! of all the moves it had.
//!
//! ```sh
//! cargo run --release -p players --example perfect_play -- --openings 20 --seed 1
//! cargo run --release -p players --example perfect_play -- --openings 50 --random-ties
//! ```
//!
//! Prints one line a game, then how many of the engine's moves lowered its
//! game-theoretic value (the target is 0: a win stays a win, a draw is not
//! lost, and the fastest win is taken) and the median and maximum time it
//! took per move. Exits with failure if any move lowered the value.

use connect4::Connect4;
use game_api::{Game, Player, Status, Value};
use players::{Engine, EngineConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What the command line asked for.
struct Args {
    /// Random openings played from (each once with the engine on each side).
    openings: usize,
    /// Seed of the openings and of the perfect player's choices.
    seed: u64,
    /// Longest random opening, in plies (each opening has 1 to this many).
    max_opening: usize,
    /// Whether the engine chooses at random among equally good moves (as
    /// `games play`'s AI does).
    random_ties: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        openings: 20,
        seed: 1,
        max_opening: 10,
        random_ties: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--random-ties" {
            args.random_ties = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: `{value}` is not a whole number"))
        };
        match flag.as_str() {
            "--openings" => {
                args.openings = usize::try_from(number()?).map_err(|e| e.to_string())?
            }
            "--seed" => args.seed = number()?,
            "--max-opening" => {
                args.max_opening = usize::try_from(number()?).map_err(|e| e.to_string())?;
            }
            _ => {
                return Err(format!(
                    "unknown option `{flag}` (options: --openings N, --seed S, --max-opening PLIES, --random-ties)"
                ))
            }
        }
    }
    Ok(args)
}

/// The perfect player and judge: exact values with the book.
struct Judge {
    solver: Engine<Connect4>,
}

impl Judge {
    /// Each legal move of `state` with the exact value after it, to player 1.
    fn values(
        &mut self,
        game: &Connect4,
        state: &connect4::Position,
    ) -> Vec<(connect4::Column, Value)> {
        game.legal_moves(state)
            .into_iter()
            .map(|mv| {
                let next = game.next_state(state, &mv).expect("a legal move");
                let value = match game.game_status(&next) {
                    Status::Ongoing(_) => self.solver.solve(game, &next).value,
                    over => game.payoff(&next, over),
                };
                (mv, value)
            })
            .collect()
    }
}

/// What one game showed.
#[derive(Default)]
struct Tally {
    moves: usize,
    drops: usize,
    times: Vec<Duration>,
}

/// Plays one game from `state` with the engine as `side`; prints a line.
fn play(
    game: &Connect4,
    (opening, mut state): (&str, connect4::Position),
    side: Player,
    random_ties: bool,
    judge: &mut Judge,
    rng: &mut ChaCha8Rng,
    tally: &mut Tally,
) {
    let mut engine = Engine::new(EngineConfig {
        random_ties,
        seed: rng.gen(),
        ..EngineConfig::default()
    })
    .expect("the default table fits");
    let mut line = opening.to_owned();
    let mut drops = 0;
    let mut slowest = Duration::ZERO;
    while let Status::Ongoing(mover) = game.game_status(&state) {
        let values = judge.values(game, &state);
        let best = values
            .iter()
            .map(|&(_, v)| v * mover.sign())
            .max()
            .expect("an ongoing game has moves");
        let mv = if mover == side {
            let start = Instant::now();
            let (mv, _) = engine.search(game, &state).expect("the game is not over");
            let took = start.elapsed();
            tally.times.push(took);
            slowest = slowest.max(took);
            tally.moves += 1;
            let got = values
                .iter()
                .find(|(m, _)| *m == mv)
                .map(|&(_, v)| v * mover.sign())
                .expect("the engine plays legal moves");
            if got < best {
                drops += 1;
                println!(
                    "  drop: after `{line}` the engine played {mv} worth {got}, the best was worth {best}"
                );
            }
            mv
        } else {
            let best_moves: Vec<_> = values
                .iter()
                .filter(|&&(_, v)| v * mover.sign() == best)
                .map(|&(m, _)| m)
                .collect();
            best_moves[rng.gen_range(0..best_moves.len())]
        };
        line.push_str(&mv.to_string());
        state = game.next_state(&state, &mv).expect("a legal move");
    }
    tally.drops += drops;
    let result = match game.game_status(&state) {
        Status::Win(p) if p == side => "engine won",
        Status::Win(_) => "engine lost",
        _ => "draw",
    };
    println!(
        "{line:<42} opening {:>2} plies, engine {}: {result}, {drops} drops, slowest move {:.2} s",
        opening.len(),
        if side == Player::P1 { "X" } else { "O" },
        slowest.as_secs_f64()
    );
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let game = Connect4::default();
    let mut judge = Judge {
        solver: Engine::new(EngineConfig {
            time_limit: None,
            ..EngineConfig::default()
        })
        .expect("the default table fits"),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut tally = Tally::default();
    let mut starts = vec![(String::new(), game.initial_state())];
    while starts.len() < args.openings + 1 {
        let plies = rng.gen_range(1..=args.max_opening.max(1));
        let (mut digits, mut state) = (String::new(), game.initial_state());
        for _ in 0..plies {
            let moves = game.legal_moves(&state);
            let mv = moves[rng.gen_range(0..moves.len())];
            digits.push_str(&mv.to_string());
            state = game.next_state(&state, &mv).expect("a legal move");
        }
        if !game.game_status(&state).is_over() {
            starts.push((digits, state));
        }
    }
    for (digits, start) in &starts {
        for side in [Player::P1, Player::P2] {
            play(
                &game,
                (digits, *start),
                side,
                args.random_ties,
                &mut judge,
                &mut rng,
                &mut tally,
            );
        }
    }
    tally.times.sort();
    let at = |q: f64| {
        let i = ((tally.times.len() as f64 * q) as usize).min(tally.times.len().saturating_sub(1));
        tally
            .times
            .get(i)
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
    };
    let total: Duration = tally.times.iter().sum();
    println!(
        "engine moves: {}, lowering its value: {}; time per move: median {:.1} ms, 90th percentile {:.3} s, \
         max {:.3} s, mean {:.3} s; {} moves over 1 s",
        tally.moves,
        tally.drops,
        at(0.5) * 1e3,
        at(0.9),
        at(1.0),
        total.as_secs_f64() / tally.times.len().max(1) as f64,
        tally.times.iter().filter(|t| t.as_secs_f64() > 1.0).count()
    );
    if tally.drops == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
