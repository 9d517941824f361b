//! A law for the whole program: whatever bytes come on standard input and
//! whatever short argument list is given, `games solve`, `games play` and
//! `games replay` never panic (exit code 101, `panicked at` on stderr),
//! never die of a signal (an abort), and end within a bound.
//!
//! The arguments are drawn from a vocabulary of valid and broken pieces
//! (games, options with bad numbers and repeats, player specs, flags with
//! bad values, files that are devices, folders or random bytes), chosen so
//! that a correct program answers each run in well under a second: boards
//! are small and programs play fast (no time-limited engine), because the
//! bound must catch hangs, not legitimately long searches. The test bounds
//! its own run time: a few dozen cases per command, each with a generous
//! timeout that only detects a hang.

use assert_cmd::Command;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Far above any correct run (well under a second each): only a hang
/// reaches it, even on a machine whose cores are all busy.
const HANG: Duration = Duration::from_secs(60);

/// Cases per command: enough variety, a few seconds in all.
const CASES: u32 = 32;

fn config() -> Config {
    Config {
        cases: CASES,
        max_shrink_iters: 64,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("games-no-panic");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `games` and checks the law; returns the exit code.
fn check(args: &[String], stdin: &[u8]) -> Result<i32, TestCaseError> {
    let start = Instant::now();
    let out = Command::cargo_bin("games")
        .unwrap()
        .args(args)
        .env("NO_COLOR", "1")
        .write_stdin(stdin.to_vec())
        .timeout(HANG)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let took = start.elapsed();
    prop_assert!(took < HANG, "{args:?} ran for {took:?}: a hang");
    let Some(code) = out.status.code() else {
        return Err(TestCaseError::fail(format!(
            "{args:?} died of a signal ({:?}): {stderr}",
            out.status
        )));
    };
    prop_assert!(code != 101, "{args:?} exited 101:\n{stderr}");
    prop_assert!(!stderr.contains("panicked at"), "{args:?}:\n{stderr}");
    if std::env::var_os("NO_PANIC_STATS").is_some() {
        eprintln!("exit {code} after {took:?}: {args:?}");
    }
    Ok(code)
}

/// Lines that mean something to some command, and lines that are broken.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let words = prop::sample::select(vec![
        "",
        " ",
        "   ",
        "\t",
        "1",
        "4",
        "7",
        "9",
        "0",
        "-1",
        "+4",
        "99999999999999999999",
        "1:1",
        "2:3",
        "R 1",
        "C 2",
        "r9",
        "4455",
        "4455 18",
        "4 4 5 5 18",
        "start",
        "start 0",
        "8",
        "quit",
        "undo",
        "help",
        "?",
        "q",
        "\u{feff}4",
        "4\u{0}5",
        "\u{1b}[2J",
        "é",
        "banana",
    ]);
    prop_oneof![
        3 => words.prop_map(|w| w.as_bytes().to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..40),
    ]
}

/// Standard input: a few lines, or any bytes at all.
fn stdin() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(line(), 0..8).prop_map(|lines| lines.join(&b'\n')),
        prop::collection::vec(any::<u8>(), 0..300),
    ]
}

/// A game with small options, sometimes broken.
fn game() -> impl Strategy<Value = Vec<String>> {
    let good = prop::sample::select(vec![
        "connect4 rows=4 cols=4",
        "connect4 rows=4 cols=5 connect=3",
        "connect4 rows=3 cols=3 connect=3",
        "nim piles=5",
        "nim piles=2,3 max_take=none rule=normal",
        "yucky-chocolate rows=3 cols=4",
        "yucky-chocolate rows=1 cols=2",
        "tictactoe",
        "tictactoe rows=4 cols=4 k=3",
    ]);
    let bad = prop::sample::select(vec![
        "connect4 rows=+4 cols=4",
        "connect4 rows=4 rows=4",
        "connect4 rows=4 cols=64",
        "nim piles=0",
        "nim piles=",
        "nim rule=sideways",
        "yucky-chocolate rows=1 cols=1",
        "tictactoe k=4",
        "tictactoe rows=0 cols=27",
        "chess",
        "",
        "connect4 =4",
        "nim piles=1,,2",
    ]);
    prop_oneof![4 => good, 1 => bad].prop_map(|g| {
        g.split(' ')
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect()
    })
}

/// Usually nothing, sometimes one or two stray arguments.
fn extra() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        3 => Just(Vec::new()),
        1 => prop::collection::vec(junk(), 1..3),
    ]
}

/// A player, usually a fast valid one (never a time-limited engine).
fn player() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        4 => prop::sample::select(vec!["human", "random", "minimax:depth=2", "ai:depth=3"]),
        1 => prop::sample::select(vec![
            "ai:depth=0",
            "alphazero",
            "human:depth=2",
            "ai:depth=2:depth=3",
            "ai:time=soon",
        ]),
    ]
}

fn junk() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "--check",
        "--all",
        "--seed",
        "-1",
        "--table-mb",
        "x=1",
        "--p1",
        "--help",
        "\u{7}", // NUL cannot be passed in an argument at all
        "--",
        "ai:depth=0",
        "--record",
    ])
    .prop_map(String::from)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn solve_never_panics_nor_hangs(
        game in game(),
        check_flag in any::<bool>(),
        table in prop::option::of(prop_oneof![
            3 => Just("1"),
            1 => prop::sample::select(vec!["0", "2", "99999999999999", "x"]),
        ]),
        extra in extra(),
        input in stdin(),
    ) {
        let mut args = vec!["solve".to_owned()];
        args.extend(game);
        if check_flag {
            args.push("--check".into());
        }
        if let Some(t) = table {
            args.extend(["--table-mb".into(), t.into()]);
        }
        args.extend(extra);
        check(&args, &input)?;
    }

    #[test]
    fn play_never_panics_nor_hangs(
        game in game(),
        p1 in player(),
        p2 in player(),
        seed in prop::option::of(prop_oneof![
            3 => prop::sample::select(vec!["0", "7", "18446744073709551615"]),
            1 => prop::sample::select(vec!["18446744073709551616", "-3", "x"]),
        ]),
        record in any::<bool>(),
        extra in extra(),
        input in stdin(),
    ) {
        let mut args = vec!["play".to_owned()];
        args.extend(game);
        args.extend(["--p1".into(), p1.into(), "--p2".into(), p2.into()]);
        if let Some(s) = seed {
            args.extend(["--seed".into(), s.into()]);
        }
        if record {
            let file = scratch().join("record.toml");
            args.extend(["--record".into(), file.to_string_lossy().into_owned()]);
        }
        args.extend(extra);
        check(&args, &input)?;
    }

    #[test]
    fn replay_never_panics_nor_hangs(
        file_kind in 0..5u8,
        content in prop_oneof![
            stdin(),
            // A transcript with broken parts: a known game, random moves.
            (game(), prop::collection::vec(line(), 0..6)).prop_map(|(g, moves)| {
                let name = g.first().cloned().unwrap_or_default();
                let moves: Vec<String> = moves
                    .iter()
                    .map(|m| format!("{:?}", String::from_utf8_lossy(m)))
                    .collect();
                format!("game = {name:?}\nmoves = [{}]\n", moves.join(", ")).into_bytes()
            }),
        ],
        all in any::<bool>(),
        extra in extra(),
        input in stdin(),
    ) {
        let dir = scratch();
        let file = match file_kind {
            0 => "/dev/zero".into(),
            1 => dir.to_string_lossy().into_owned(),
            2 => dir.join("missing.toml").to_string_lossy().into_owned(),
            _ => {
                let path = dir.join("replay.toml");
                std::fs::write(&path, &content).unwrap();
                path.to_string_lossy().into_owned()
            }
        };
        let mut args = vec!["replay".to_owned(), file];
        if all {
            args.push("--all".into());
        }
        args.extend(extra);
        check(&args, &input)?;
    }
}
