//! `games tournament`: a round robin between the engine's levels (and,
//! as a reference, the course's minimax at some depths), with the win rates
//! of every pair and Elo ratings, to show that each level is stronger than
//! the one below. Every player below the top level is limited by depth
//! only, so a tournament is the same for the same seed on any machine.

use crate::elo::{self, Results};
use crate::play::program;
use crate::registry::{run_game, GameCommand, Games};
use crate::spec::PlayerSpec;
use anyhow::{bail, Context, Result};
use game_api::{Configurable, Game, Status};
use players::{Decision, Level};
use std::io::Write;
use std::process::ExitCode;

/// Play every pair of players against each other and rate them (Elo).
#[derive(Clone, Debug, clap::Args)]
#[command(after_help = crate::spec::levels_help())]
pub struct Args {
    /// The game (see `games list`).
    game: String,
    /// Game options, as name=value.
    options: Vec<String>,
    /// The engine's levels taking part: a range (1-6) or a list (1,3,5).
    #[arg(long, default_value = "1-6", value_parser = levels, value_name = "LEVELS")]
    levels: Levels,
    /// The course's minimax at these depths takes part too: a range (1-4)
    /// or a list (2,4) [default: none].
    #[arg(long, value_parser = depths, value_name = "DEPTHS")]
    minimax: Option<Depths>,
    /// Any other programs taking part, as for `games play` (e.g.
    /// ai:depth=8,random); a time-limited one makes the tournament depend on
    /// the machine.
    #[arg(long, value_delimiter = ',', value_name = "PLAYER")]
    with: Vec<PlayerSpec>,
    /// Games per pair, half with each side moving first (an odd count gives
    /// the first player of the pair one more start).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of the players' random choices and of the openings (0 to
    /// 2^64-1): the same seed gives the same tournament.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Each pair of games starts from its own opening of this many random
    /// moves, played once with each side moving first, so that players who
    /// do not choose at random still play different games.
    #[arg(long, default_value_t = 2, value_name = "MOVES")]
    opening: u32,
}

/// Reads `A-B` or `A,B,...` as whole numbers from 1, in increasing order.
fn numbers(text: &str) -> Result<Vec<u64>, String> {
    let number = |t: &str| {
        game_api::whole_number::<u64>(t.trim())
            .map_err(|e| format!("{e}: write a range such as 1-6 or a list such as 1,3,5"))
    };
    let list: Vec<u64> = match text.split_once('-') {
        Some((a, b)) => (number(a)?..=number(b)?).collect(),
        None => text.split(',').map(number).collect::<Result<_, _>>()?,
    };
    if list.is_empty() {
        return Err(format!(
            "`{}` is an empty range: write the lower end first",
            game_api::echo(text)
        ));
    }
    Ok(list)
}

/// The levels of `--levels`.
#[derive(Clone, Debug)]
struct Levels(Vec<Level>);

/// The depths of `--minimax`.
#[derive(Clone, Debug)]
struct Depths(Vec<u32>);

fn levels(text: &str) -> Result<Levels, String> {
    numbers(text)?
        .into_iter()
        .map(|n| Level::new(n).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()
        .map(Levels)
}

fn depths(text: &str) -> Result<Depths, String> {
    let list = numbers(text)?
        .into_iter()
        .map(|n| {
            u32::try_from(n)
                .ok()
                .filter(|d| *d > 0)
                .ok_or_else(|| format!("there is no depth {n}: depths are whole numbers from 1"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Depths(list))
}

/// Runs `games tournament`.
///
/// # Errors
/// Bad game options, fewer than two players, or output that fails.
pub fn run(args: &Args, games: impl Games) -> Result<ExitCode> {
    let mut players: Vec<PlayerSpec> = args
        .levels
        .0
        .iter()
        .map(|&l| PlayerSpec::Level(l))
        .collect();
    for &depth in args.minimax.iter().flat_map(|d| &d.0) {
        players.push(PlayerSpec::Minimax { depth });
    }
    players.extend(args.with.iter().cloned());
    players.dedup();
    if players.len() < 2 {
        bail!("a tournament needs at least two players: give more --levels or --minimax depths");
    }
    run_game(
        games,
        &args.game,
        &args.options,
        Tournament { args, players },
    )
}

struct Tournament<'a> {
    args: &'a Args,
    players: Vec<PlayerSpec>,
}

impl GameCommand for Tournament<'_> {
    type Output = ExitCode;
    fn run<G: Game + Configurable>(self, game: G) -> Result<ExitCode> {
        let mut out = anstream::stdout();
        let args = self.args;
        writeln!(
            out,
            "Round robin: {} ({}), {} games a pair from openings of {} random moves, seed {}",
            G::NAME,
            game.options(),
            args.games,
            args.opening,
            args.seed
        )?;
        let schedule = Schedule {
            games: args.games,
            opening: args.opening,
            seed: args.seed,
        };
        let results = round_robin(&game, &self.players, schedule, |line| {
            writeln!(out, "{line}").context("cannot write the results")
        })?;
        write!(out, "{}", summary(&self.players, &results))?;
        Ok(ExitCode::SUCCESS)
    }
}

/// The seed of game `k` between players `i` and `j`, from the tournament's.
fn game_seed(seed: u64, i: usize, j: usize, k: u32) -> u64 {
    let mut x = seed ^ ((i as u64) << 48 ^ (j as u64) << 32 ^ u64::from(k));
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// How many games each pair plays, from which openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Games per pair.
    pub games: u32,
    /// Random moves before the players take over (games `2k` and `2k + 1`
    /// of a pair share their opening).
    pub opening: u32,
    /// The seed of everything random.
    pub seed: u64,
}

/// The position after `plies` random legal moves, reproducibly from `seed`
/// (fewer if the game ends; an opening that ends the game is not used:
/// the start is returned instead).
fn opening<G: Game>(game: &G, plies: u32, seed: u64) -> G::State {
    let mut state = game.initial_state();
    for ply in 0..plies {
        let moves = game.legal_moves(&state);
        if moves.is_empty() {
            break;
        }
        // A well-mixed number per ply; the modulo bias is negligible.
        let pick = game_seed(seed, 0, 0, ply) % moves.len() as u64;
        let next = game
            .next_state(&state, &moves[usize::try_from(pick).unwrap_or(0)])
            .ok();
        match next {
            Some(next) if !game.game_status(&next).is_over() => state = next,
            _ => break,
        }
    }
    state
}

/// Plays `schedule.games` games between every pair of `players` (each side
/// moving first in turn from the same opening); `report` gets one line per
/// pair as it finishes.
///
/// # Errors
/// A player that cannot be built or that plays an illegal move, or what
/// `report` returns.
pub fn round_robin<G: Game>(
    game: &G,
    players: &[PlayerSpec],
    schedule: Schedule,
    mut report: impl FnMut(String) -> Result<()>,
) -> Result<Results> {
    let Schedule {
        games,
        opening: plies,
        seed,
    } = schedule;
    let mut results = Results::new(players.len());
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for k in 0..games {
                let s = game_seed(seed, i, j, k);
                let start = opening(game, plies, game_seed(seed, i, j, k / 2 + (1 << 31)));
                // Even games: i moves first from the opening.
                let (first, second) = if k % 2 == 0 { (i, j) } else { (j, i) };
                let points = match play_one(game, start, &players[first], &players[second], s)? {
                    Some(first_won) if first_won == (first == i) => 1.0,
                    None => 0.5,
                    Some(_) => 0.0,
                };
                match points {
                    1.0 => wins += 1,
                    0.5 => draws += 1,
                    _ => losses += 1,
                }
                results.record(i, j, points);
            }
            let rate = results.rate(i, j).unwrap_or(0.5);
            report(format!(
                "{} vs {}: {wins} wins, {draws} draws, {losses} losses: {:.0}% for {}",
                players[i],
                players[j],
                100.0 * rate,
                players[i]
            ))?;
        }
    }
    Ok(results)
}

/// One game from `start`, `first` moving first: whether `first` won
/// (`None`: a draw).
fn play_one<G: Game>(
    game: &G,
    start: G::State,
    first: &PlayerSpec,
    second: &PlayerSpec,
    seed: u64,
) -> Result<Option<bool>> {
    let mut agents = [
        program::<G>(first, seed)?.context("a person cannot play in a tournament")?,
        program::<G>(second, seed.wrapping_add(1))?
            .context("a person cannot play in a tournament")?,
    ];
    let Status::Ongoing(first_side) = game.game_status(&start) else {
        bail!("the opening ended the game");
    };
    let mut state = start;
    loop {
        let player = match game.game_status(&state) {
            Status::Ongoing(p) => p,
            Status::Win(p) => return Ok(Some(p == first_side)),
            Status::Draw => return Ok(None),
        };
        let agent = &mut agents[usize::from(player != first_side)];
        match agent.decide(game, &state) {
            Decision::Play(mv, _) => {
                state = game
                    .next_state(&state, &mv)
                    .with_context(|| format!("{} chose a move the game refuses", agent.name()))?;
            }
            // A program that gives up (or asks what only people ask) loses.
            _ => return Ok(Some(player != first_side)),
        }
    }
}

/// The ratings, strongest last, and each player's score against the one
/// listed before it.
#[must_use]
pub fn summary(players: &[PlayerSpec], results: &Results) -> String {
    let elo = results.elo();
    let width = players
        .iter()
        .map(|p| p.to_string().len())
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "\nElo (fitted to every game, {} = 0; one virtual draw a pair keeps clean sweeps finite):\n",
        players[0]
    );
    for (k, player) in players.iter().enumerate() {
        let against = k
            .checked_sub(1)
            .and_then(|prev| results.rate(k, prev).map(|r| (prev, r)));
        let versus = against.map_or(String::new(), |(prev, rate)| {
            format!(
                "  {:5.1}% against {} (Elo difference {:+.0})",
                100.0 * rate,
                players[prev],
                elo::difference(rate)
            )
        });
        text.push_str(&format!(
            "  {:<width$}  {:+6.0}{versus}\n",
            player.to_string(),
            elo[k]
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists_of_levels_are_read_and_bad_ones_refused() {
        let n = |l: Levels| l.0.iter().map(|l| l.number()).collect::<Vec<_>>();
        assert_eq!(n(levels("1-3").unwrap()), [1, 2, 3]);
        assert_eq!(n(levels("2,5").unwrap()), [2, 5]);
        assert_eq!(n(levels("4").unwrap()), [4]);
        assert!(levels("0-3").unwrap_err().contains("no level 0"));
        assert!(levels("3-1").unwrap_err().contains("empty range"));
        assert!(levels("1-x").is_err());
        assert!(depths("0").unwrap_err().contains("no depth 0"));
    }

    #[test]
    fn a_short_round_robin_is_the_same_for_the_same_seed() {
        let game = connect4::Connect4::default();
        let players = [
            PlayerSpec::Level(Level::new(1).unwrap()),
            PlayerSpec::Level(Level::new(2).unwrap()),
            PlayerSpec::Minimax { depth: 1 },
        ];
        let run = |seed| {
            let mut lines = Vec::new();
            let schedule = Schedule {
                games: 4,
                opening: 2,
                seed,
            };
            let results = round_robin(&game, &players, schedule, |l| {
                lines.push(l);
                Ok(())
            })
            .unwrap();
            (lines, results)
        };
        let (lines, results) = run(3);
        assert_eq!(lines.len(), 3);
        assert_eq!(results.games[0][1], 4);
        assert_eq!(run(3), (lines, results));
    }
}
