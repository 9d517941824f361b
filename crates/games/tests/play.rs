//! `games play` and `games replay` through the real binary: scripted people
//! on standard input, programs made reproducible with depth limits and
//! seeds (never time limits), and recordings read back.

mod common;

use common::{games, scratch};
use game_api::transcript::Transcript;
use predicates::prelude::*;
use std::io::{Read, Write};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The "Move N: ... played M" lines of an output, which say what was played.
fn move_lines(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|l| l.starts_with("Move "))
        .map(str::to_owned)
        .collect()
}

/// A person at the keyboard, scripted: plays `games` interactively, reading
/// what it prints and answering each prompt with `reply(moves so far)`.
struct Person {
    child: Child,
    chunks: mpsc::Receiver<String>,
    seen: String,
}

impl Person {
    fn start(args: &[&str]) -> Person {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("games"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0
                    || tx
                        .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                        .is_err()
                {
                    break;
                }
            }
        });
        Person {
            child,
            chunks,
            seen: String::new(),
        }
    }

    /// Waits for the next prompt; `None` once the program has ended.
    fn next_prompt(&mut self) -> Option<()> {
        let from = self.seen.len();
        loop {
            if self.seen[from..].contains("your move: ") {
                return Some(());
            }
            match self.chunks.recv_timeout(Duration::from_secs(60)) {
                Ok(chunk) => self.seen.push_str(&chunk),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("no prompt within 60 s:\n{}", self.seen)
                }
            }
        }
    }

    /// Waits for the program to exit, keeping its stdin open until then:
    /// `Child::wait` would close it first, and the program could then see
    /// the end of its input before whatever the test is waiting for.
    fn wait(&mut self) -> std::process::ExitStatus {
        let stdin = self.child.stdin.take();
        let status = self.child.wait().unwrap();
        drop(stdin);
        status
    }

    fn say(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
}

/// Misère Nim, one pile, take 1 or 2: leaving a multiple of 3 plus 1 wins
/// (the player facing `3k + 1` stones loses). A person who knows this beats
/// a weak program from 11 stones whatever it plays.
#[test]
fn a_person_who_knows_the_theory_beats_a_weak_ai_at_nim() {
    let mut person = Person::start(&[
        "play",
        "nim",
        "piles=11",
        "--p1",
        "human",
        "--p2",
        "minimax:depth=1",
    ]);
    let mut stones = 11u32;
    let mut turns = 0;
    while person.next_prompt().is_some() {
        let taken: u32 = move_lines(&person.seen)
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u32>().unwrap())
            .sum();
        stones = 11 - taken;
        let take = (stones + 2) % 3; // leaves 3k + 1
        assert!(
            take > 0,
            "the person should never face a losing position: {stones} stones"
        );
        person.say(&take.to_string());
        turns += 1;
        assert!(turns < 20, "the game should end:\n{}", person.seen);
    }
    let status = person.wait();
    assert!(status.success(), "{}", person.seen);
    assert!(person.seen.contains("Player 1 wins"), "{}", person.seen);
    assert!(stones <= 4, "{stones}");
}

#[test]
fn nonsense_and_illegal_input_get_a_reason_then_a_correct_move_is_played() {
    let dir = scratch("nonsense");
    let record = dir.join("game.toml");
    let output = games()
        .args([
            "play", "connect4", "--p1", "human", "--p2", "human", "--record",
        ])
        .arg(&record)
        .write_stdin("banana\n9\n0\n4\nquit\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    assert!(text.contains("`banana` is not a move"), "{text}");
    assert_eq!(
        text.matches("Player 1 (X), your move: ").count(),
        4,
        "a new prompt after each bad input:\n{text}"
    );
    assert_eq!(move_lines(&text), ["Move 1: Player 1 (X) played 4"]);
    assert!(
        text.contains("Player 2 (O) resigns. Player 1 (X) wins."),
        "{text}"
    );
    assert_eq!(Transcript::load(&record).unwrap().moves, ["4"]);
}

#[test]
fn undo_takes_back_the_human_move_and_the_ai_reply() {
    let dir = scratch("undo");
    let record = dir.join("game.toml");
    let output = games()
        .args([
            "play",
            "connect4",
            "--p1",
            "human",
            "--p2",
            "ai:depth=2",
            "--seed",
            "1",
            "--record",
        ])
        .arg(&record)
        .write_stdin("1\nundo\n7\nquit\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    let moves = Transcript::load(&record).unwrap().moves;
    assert_eq!(
        moves.len(),
        2,
        "after undo, one move each: {moves:?}\n{text}"
    );
    assert_eq!(moves[0], "7", "the first move was taken back:\n{text}");
    assert!(text.contains("Took back 1, "), "{text}");
}

#[test]
fn undo_before_moving_says_there_is_nothing_to_undo() {
    games()
        .args(["play", "nim", "--p1", "human", "--p2", "human"])
        .write_stdin("undo\nquit\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Nothing to undo"));
}

#[test]
fn help_shows_the_rules_and_the_legal_moves_and_hint_suggests_a_move() {
    let output = games()
        .args([
            "play",
            "nim",
            "piles=5",
            "--p1",
            "human",
            "--p2",
            "ai:depth=6",
        ])
        .write_stdin("help\nhint\nquit\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(output).unwrap();
    assert!(text.to_lowercase().contains("legal moves: 1, 2"), "{text}");
    assert!(
        text.contains(
            <nim::Nim as game_api::Configurable>::rules()
                .lines()
                .next()
                .unwrap()
        ),
        "{text}"
    );
    // Five stones, misère, take 1 or 2: taking 1 leaves 4 = 3 + 1, the only winning move.
    assert!(text.contains("Hint: the engine would play 1"), "{text}");
}

#[test]
fn end_of_input_mid_game_ends_cleanly_with_a_non_zero_code() {
    games()
        .args(["play", "connect4", "--p1", "human", "--p2", "ai:depth=2"])
        .write_stdin("4\n")
        .assert()
        .code(3)
        .stdout(predicate::str::contains("End of input"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn an_ai_vs_ai_connect4_game_is_reproducible_from_its_seed() {
    let dir = scratch("seeded");
    let play = |name: &str| {
        let record = dir.join(name);
        let out = games()
            .args([
                "play",
                "connect4",
                "--p1",
                "random",
                "--p2",
                "ai:depth=3",
                "--seed",
                "42",
                "--record",
            ])
            .arg(&record)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        (
            String::from_utf8(out).unwrap(),
            Transcript::load(&record).unwrap(),
        )
    };
    let (first_text, first) = play("a.toml");
    let (second_text, second) = play("b.toml");
    assert_eq!(first.moves, second.moves);
    assert_eq!(move_lines(&first_text), move_lines(&second_text));
    assert!(
        first.moves.len() >= 7,
        "a Connect-4 game lasts at least 7 moves"
    );
    assert!(
        first_text.contains(" wins.") || first_text.contains("Draw."),
        "the game is played to its end:\n{first_text}"
    );
    assert_eq!(first.seed, Some(42));
    let players = first.players.unwrap();
    assert_eq!(
        (players.p1.as_str(), players.p2.as_str()),
        ("random", "ai:depth=3")
    );
}

#[test]
fn a_recorded_game_replays_with_the_same_moves() {
    let dir = scratch("replay");
    let record = dir.join("game.toml");
    let played = games()
        .args([
            "play",
            "yucky-chocolate",
            "--p1",
            "minimax:depth=3",
            "--p2",
            "random",
            "--seed",
            "9",
            "--record",
        ])
        .arg(&record)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let replayed = games()
        .arg("replay")
        .arg(&record)
        .arg("--all")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let (played, replayed) = (
        String::from_utf8(played).unwrap(),
        String::from_utf8(replayed).unwrap(),
    );
    assert!(!move_lines(&played).is_empty());
    assert_eq!(move_lines(&played), move_lines(&replayed));
    let end = |t: &str| t.lines().last().unwrap().to_owned();
    assert_eq!(end(&played), end(&replayed), "the same result");
}

#[test]
fn replay_steps_one_move_per_enter() {
    let dir = scratch("step");
    let record = dir.join("game.toml");
    Transcript::new(
        "nim",
        game_api::Options::new().with("piles", 5),
        vec!["2".into(), "1".into(), "1".into()],
    )
    .save(&record)
    .unwrap();
    let out = games()
        .arg("replay")
        .arg(&record)
        .write_stdin("\nq\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        move_lines(&text).len(),
        1,
        "one Enter, one move, then q stops:\n{text}"
    );
}

#[test]
fn replaying_a_bad_file_names_the_file_and_the_move() {
    let dir = scratch("bad");
    let record = dir.join("bad.toml");
    std::fs::write(&record, "game = \"connect4\"\nmoves = [\"4\", \"9\"]\n").unwrap();
    games()
        .arg("replay")
        .arg(&record)
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.toml").and(predicate::str::contains("move 2")));
    std::fs::write(&record, "game = \"connect4\"\nmoves = [\"4\",\n").unwrap();
    games()
        .arg("replay")
        .arg(&record)
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.toml:"));
    std::fs::write(&record, "game = \"chess\"\nmoves = []\n").unwrap();
    games()
        .arg("replay")
        .arg(&record)
        .assert()
        .failure()
        .stderr(predicate::str::contains("chess"));
}

#[test]
fn bad_player_specs_and_options_are_refused_with_a_message() {
    games()
        .args(["play", "connect4", "--p1", "alphazero"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("alphazero"));
    games()
        .args([
            "play", "connect4", "rows=99", "--p1", "random", "--p2", "random",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("rows").or(predicate::str::contains("board")));
    games()
        .args(["play", "go"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("go"));
}

#[test]
fn pieces_are_coloured_only_for_terminals() {
    let game = ["replay", "--all"];
    let dir = scratch("colour");
    let record = dir.join("game.toml");
    Transcript::new(
        "connect4",
        game_api::Options::new(),
        vec!["4".into(), "3".into()],
    )
    .save(&record)
    .unwrap();
    let piped = games()
        .args(game)
        .arg(&record)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(!piped.contains(&0x1b), "plain text in a pipe");
    let forced = games()
        .args(game)
        .arg(&record)
        .env("CLICOLOR_FORCE", "1")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let forced = String::from_utf8(forced).unwrap();
    assert!(
        forced.contains("\u{1b}[1m\u{1b}[31mX"),
        "player 1's pieces in red: {forced:?}"
    );
    assert!(
        forced.contains("\u{1b}[1m\u{1b}[33mO"),
        "player 2's pieces in yellow: {forced:?}"
    );
}

#[test]
fn ctrl_c_ends_the_game_with_code_130_and_keeps_the_record() {
    let dir = scratch("ctrl-c");
    let record = dir.join("game.toml");
    let record_arg = record.to_str().unwrap();
    let mut person = Person::start(&[
        "play", "connect4", "--p1", "human", "--p2", "human", "--record", record_arg,
    ]);
    person.next_prompt().unwrap();
    person.say("4");
    person.next_prompt().unwrap();
    let pid = person.child.id().to_string();
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = person.wait();
    assert_eq!(status.code(), Some(130), "{}", person.seen);
    assert_eq!(Transcript::load(&record).unwrap().moves, ["4"]);
}
