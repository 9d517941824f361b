//! `games tournament`: a round robin between the engine's levels (and,
//! as a reference, the course's minimax at some depths), with the win rates
//! of every pair and Elo ratings, to show that each level is stronger than
//! the one below. Every player below the top level is limited by depth
//! only, so a tournament is the same for the same seed on any machine.

use crate::elo::{self, Results};
use crate::play::program;
use crate::registry::{run_game, GameCommand};
use crate::spec::PlayerSpec;
use anyhow::{bail, Context, Result};
use game_api::{Configurable, Game, Player, Status};
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
    /// Games per pair, half with each side moving first (an odd count gives
    /// the first player of the pair one more start).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of the players' random choices (0 to 2^64-1): the same seed
    /// gives the same tournament.
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
pub fn run(args: &Args) -> Result<ExitCode> {
    let mut players: Vec<PlayerSpec> = args
        .levels
        .0
        .iter()
        .map(|&l| PlayerSpec::Level(l))
        .collect();
    for &depth in args.minimax.iter().flat_map(|d| &d.0) {
        players.push(PlayerSpec::Minimax { depth });
    }
    players.dedup();
    if players.len() < 2 {
        bail!("a tournament needs at least two players: give more --levels or --minimax depths");
    }
    run_game(&args.game, &args.options, Tournament { args, players })
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
            "Round robin: {} ({}), {} games a pair, seed {}",
            G::NAME,
            game.options(),
            args.games,
            args.seed
        )?;
        let results = round_robin(&game, &self.players, args.games, args.seed, |line| {
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

/// Plays `games` games between every pair of `players` (each side moving
/// first in turn); `report` gets one line per pair as it finishes.
///
/// # Errors
/// A player that cannot be built or that plays an illegal move, or what
/// `report` returns.
pub fn round_robin<G: Game>(
    game: &G,
    players: &[PlayerSpec],
    games: u32,
    seed: u64,
    mut report: impl FnMut(String) -> Result<()>,
) -> Result<Results> {
    let mut results = Results::new(players.len());
    for i in 0..players.len() {
        for j in i + 1..players.len() {
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for k in 0..games {
                let s = game_seed(seed, i, j, k);
                // Even games: i moves first.
                let (first, second) = if k % 2 == 0 { (i, j) } else { (j, i) };
                let winner = play_one(game, &players[first], &players[second], s)?;
                let points = match winner {
                    Some(Player::P1) if first == i => 1.0,
                    Some(Player::P2) if second == i => 1.0,
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

/// One game from the start; the winner (`None`: a draw).
fn play_one<G: Game>(
    game: &G,
    p1: &PlayerSpec,
    p2: &PlayerSpec,
    seed: u64,
) -> Result<Option<Player>> {
    let mut agents = [
        program::<G>(p1, seed)?.context("a person cannot play in a tournament")?,
        program::<G>(p2, seed.wrapping_add(1))?.context("a person cannot play in a tournament")?,
    ];
    let mut state = game.initial_state();
    loop {
        let player = match game.game_status(&state) {
            Status::Ongoing(p) => p,
            Status::Win(p) => return Ok(Some(p)),
            Status::Draw => return Ok(None),
        };
        let agent = &mut agents[usize::from(player.number() - 1)];
        match agent.decide(game, &state) {
            Decision::Play(mv, _) => {
                state = game
                    .next_state(&state, &mv)
                    .with_context(|| format!("{} chose a move the game refuses", agent.name()))?;
            }
            // A program that gives up (or asks what only people ask) loses.
            _ => return Ok(Some(player.other())),
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
            let results = round_robin(&game, &players, 4, seed, |l| {
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
