//! `ai:level=N` and `games tournament` through the real binary. Every level
//! used here is limited by depth (never by time), so each run is the same
//! for the same seed, however busy the machine.

mod common;

use common::{games, scratch};
use game_api::transcript::Transcript;
use predicates::prelude::*;

fn stdout(args: &[&str]) -> String {
    let out = games()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn play_help_and_list_show_every_level() {
    for text in [stdout(&["play", "--help"]), stdout(&["list"])] {
        for needle in [
            "ai:level=N",
            "1: random among the moves that do not lose at once",
            "2: depth 2, one of the 3 best moves",
            "7: full strength",
        ] {
            assert!(text.contains(needle), "{needle} missing:\n{text}");
        }
    }
}

#[test]
fn a_game_between_levels_is_the_same_for_the_same_seed() {
    let dir = scratch("levels");
    let play = |name: &str, seed: &str| {
        let record = dir.join(name);
        games()
            .args([
                "play",
                "connect4",
                "--p1",
                "ai:level=2",
                "--p2",
                "ai:level=4",
                "--seed",
                seed,
                "--record",
            ])
            .arg(&record)
            .assert()
            .success();
        Transcript::load(&record).unwrap()
    };
    let first = play("a.toml", "11");
    assert_eq!(first.moves, play("b.toml", "11").moves);
    let players = first.players.unwrap();
    assert_eq!(
        (players.p1.as_str(), players.p2.as_str()),
        ("ai:level=2", "ai:level=4")
    );
    // Level 2 draws among the best moves: another seed, another game.
    let others: Vec<_> = ["1", "2", "3", "4"]
        .iter()
        .map(|seed| play(&format!("{seed}.toml"), seed).moves)
        .collect();
    assert!(others.iter().any(|m| *m != first.moves), "{others:?}");
}

#[test]
fn bad_levels_are_refused_with_the_levels_there_are() {
    games()
        .args(["play", "connect4", "--p2", "ai:level=0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no level 0").and(predicate::str::contains("1 (random")));
    games()
        .args(["play", "connect4", "--p2", "ai:level=3:depth=2"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be combined"));
    games()
        .args(["play", "connect4", "--p2", "ai:level=easy"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("level=easy"));
}

#[test]
fn a_short_tournament_prints_win_rates_and_elo_and_repeats_with_its_seed() {
    let args = [
        "tournament",
        "connect4",
        "--levels",
        "1-2",
        "--minimax",
        "1",
        "--games",
        "4",
        "--seed",
        "5",
    ];
    let text = stdout(&args);
    for needle in [
        "Round robin: connect4",
        "ai:level=1 vs ai:level=2: ",
        "ai:level=1 vs minimax:depth=1: ",
        "ai:level=2 vs minimax:depth=1: ",
        "Elo",
        "against ai:level=1",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    let games_played: u32 = text
        .lines()
        .filter(|l| l.contains(" vs "))
        .map(|l| {
            let counts: Vec<u32> = l
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse().ok())
                .collect();
            // "ai:level=A vs minimax:depth=B: W wins, D draws, L losses: P% for ...".
            counts[2..5].iter().sum::<u32>()
        })
        .sum();
    assert_eq!(games_played, 3 * 4, "{text}");
    assert_eq!(stdout(&args), text, "the same seed, the same tournament");
}

#[test]
fn a_tournament_needs_two_players_and_real_levels() {
    games()
        .args(["tournament", "connect4", "--levels", "3"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("at least two players"));
    games()
        .args(["tournament", "connect4", "--levels", "0-2"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no level 0"));
    games()
        .args(["tournament", "connect4", "--games", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--games"));
}
