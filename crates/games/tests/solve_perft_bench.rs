//! `games solve`, `games perft` and `games bench` through the real binary.
//!
//! The Connect-4 scores come from Pascal Pons' published benchmark sets:
//! the easy sets are checked in full, the medium ones by a sample (the
//! full check is `games solve connect4 --check`, see the notes).

use assert_cmd::Command;
use predicates::prelude::*;

const SETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/connect4");

fn games() -> Command {
    Command::cargo_bin("games").unwrap()
}

/// The first `lines` lines of a benchmark set.
fn set_lines(name: &str, lines: usize) -> String {
    let text = std::fs::read_to_string(format!("{SETS}/{name}")).unwrap();
    text.lines().take(lines).map(|l| format!("{l}\n")).collect()
}

/// Runs `games solve connect4 --check` on `input`; checks every line passes
/// and each position is printed back with its (expected) score.
fn assert_check_passes(input: &str) {
    let out = games()
        .args(["solve", "connect4", "--check"])
        .write_stdin(input)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let n = input.lines().count();
    assert_eq!(lines.len(), n + 2, "{stdout}");
    for (got, expected) in lines.iter().zip(input.lines()) {
        assert_eq!(*got, expected);
    }
    assert_eq!(lines[n], format!("{n} passed, 0 failed"));
    assert!(
        lines[n + 1].starts_with("mean time ") && lines[n + 1].contains(" mean nodes "),
        "{}",
        lines[n + 1]
    );
}

#[test]
fn solve_reproduces_every_score_of_the_end_easy_set() {
    assert_check_passes(&set_lines("Test_L3_R1", 1000));
}

#[test]
fn solve_reproduces_every_score_of_the_middle_easy_set() {
    assert_check_passes(&set_lines("Test_L2_R1", 1000));
}

#[test]
fn solve_reproduces_every_score_of_the_begin_easy_set() {
    assert_check_passes(&set_lines("Test_L1_R1", 1000));
}

#[test]
fn solve_reproduces_a_sample_of_the_medium_sets() {
    assert_check_passes(&(set_lines("Test_L2_R2", 30) + &set_lines("Test_L1_R2", 8)));
}

#[test]
fn solve_reads_moves_in_the_games_notation_and_values_them_for_the_player_to_move() {
    // Pons' examples, spaced; an empty line is the start position.
    games()
        .args(["solve", "connect4"])
        .write_stdin("4 4 5 5\n4 4 4 5 5 5 5 4 2 2 1\n4455\n")
        .assert()
        .success()
        .stdout("4 4 5 5 18\n4 4 4 5 5 5 5 4 2 2 1 -15\n4455 18\n");
    // Misère Nim, take 1 or 2: 7 stones lose (7 = 3*2+1), 6 win, 4 lose.
    games()
        .args(["solve", "nim"])
        .write_stdin("\n1\n1 2\n")
        .assert()
        .success()
        .stdout(" -1\n1 1\n1 2 -1\n");
    // Normal play with several piles: Bouton's nim-sum (1^2^3 = 0 loses).
    games()
        .args([
            "solve",
            "nim",
            "piles=1,2,3",
            "max_take=none",
            "rule=normal",
        ])
        .write_stdin("\n3:1\n")
        .assert()
        .success()
        .stdout(" -1\n3:1 1\n");
    // A notation with a space inside a move; a square bar loses.
    games()
        .args(["solve", "yucky-chocolate", "rows=3", "cols=4"])
        .write_stdin("\nC 1\nc 1 R 1\n")
        .assert()
        .success()
        .stdout(" 1\nC 1 -1\nc 1 R 1 1\n");
}

#[test]
fn a_finished_position_is_worth_the_result_to_the_player_who_would_move() {
    // X completes a column with its 4th stone: O, "to move", lost (22 - 4).
    games()
        .args(["solve", "connect4"])
        .write_stdin("1212121\n")
        .assert()
        .success()
        .stdout("1212121 -18\n");
}

#[test]
fn check_reports_wrong_scores_and_fails() {
    games()
        .args(["solve", "connect4", "--check"])
        .write_stdin("4455 18\n4455 17\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "4455 18\n4455 18\n1 passed, 1 failed\nmean time ",
        ))
        .stderr(predicate::str::contains(
            "<stdin>:2: `4455` is worth 18, expected 17",
        ));
}

#[test]
fn malformed_lines_are_reported_with_their_number_and_the_others_still_solved() {
    games()
        .args(["solve", "connect4", "--check"])
        .write_stdin(
            "4455 18\n44x5 3\n4444444 0\n4455\n4455 18 7\n4 4 5 5 eighteen\n44455554221 -15\n",
        )
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "4455 18\n44455554221 -15\n2 passed, 5 failed\n",
        ))
        .stderr(
            predicate::str::contains("<stdin>:2: move 1: `44x5` is not a move")
                .and(predicate::str::contains(
                    "<stdin>:3: move 7: illegal move 4: column 4 is full",
                ))
                .and(predicate::str::contains("<stdin>:4: no expected value"))
                .and(predicate::str::contains(
                    "<stdin>:5: only an expected score may follow",
                ))
                .and(predicate::str::contains(
                    "<stdin>:6: `eighteen` is not an expected value",
                )),
        );
    // Without --check a bad line also makes the exit code non-zero.
    games()
        .args(["solve", "nim"])
        .write_stdin("3\n1\n")
        .assert()
        .code(1)
        .stdout("1 1\n")
        .stderr(predicate::str::contains("<stdin>:1: move 1:"));
}

#[test]
fn solve_refuses_unknown_games_and_bad_options() {
    games()
        .args(["solve", "chess"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown game `chess`"));
    games()
        .args(["solve", "connect4", "rows=x"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("rows"));
    games()
        .args(["solve", "connect4", "size=3"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown option `size`"));
}

#[test]
fn perft_prints_hand_checked_counts() {
    // 7^d until a column overflows at depth 7 (7 sequences fill one column).
    games()
        .args(["perft", "connect4", "7"])
        .assert()
        .success()
        .stdout("1 7\n2 49\n3 343\n4 2401\n5 16807\n6 117649\n7 823536\n");
    // 2x2 bar: two moves and the game is over.
    games()
        .args(["perft", "yucky-chocolate", "3", "rows=2", "cols=2"])
        .assert()
        .success()
        .stdout("1 2\n2 2\n3 0\n");
    // 7 stones, take 1 or 2: see the players' perft tests for the counting.
    games()
        .args(["perft", "nim", "6"])
        .assert()
        .success()
        .stdout("1 2\n2 4\n3 8\n4 15\n5 16\n6 7\n");
}

#[test]
fn perft_starts_after_the_given_moves() {
    // Column 4 full after six stones: six columns left, two moves deep.
    games()
        .args([
            "perft", "connect4", "2", "--moves", "4", "4", "4", "4", "4", "4",
        ])
        .assert()
        .success()
        .stdout("1 6\n2 36\n");
    games()
        .args(["perft", "connect4", "1", "--moves", "444444"])
        .assert()
        .success()
        .stdout("1 6\n");
    games()
        .args(["perft", "nim", "2", "--moves", "2", "9"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--moves").and(predicate::str::contains("move 2")));
}

#[test]
fn bench_prints_a_row_per_set_beside_the_reference() {
    let out = games()
        .args([
            "bench",
            "--sets",
            "Test_L3_R1,Test_L2_R1",
            "--limit",
            "20",
            "--data",
            SETS,
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].contains("nodes/s") && lines[0].contains("ref time"),
        "{stdout}"
    );
    for (line, set) in lines[1..]
        .iter()
        .zip(["Test_L3_R1 (end-easy)", "Test_L2_R1 (middle-easy)"])
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(line.starts_with(set), "{line}");
        assert_eq!(fields[2], "20", "{line}");
        assert_eq!(fields.last(), Some(&"0"), "no wrong score: {line}");
    }
}

/// `games bench --sets <set> --limit <lines> --against <command>`.
fn bench_against(set: &str, lines: &str, command: &str) -> assert_cmd::assert::Assert {
    games()
        .args(["bench", "--sets", set, "--limit", lines, "--data", SETS])
        .args(["--against", command])
        .assert()
}

#[test]
fn bench_times_another_solver_on_the_same_lines_and_checks_its_scores() {
    // Our own `solve` stands in for another solver: it reads the sets'
    // notation and prints `<moves> <score>`.
    let other = format!("{} solve connect4 --no-book", env!("CARGO_BIN_EXE_games"));
    let out = bench_against("Test_L3_R1", "20", &other).success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].ends_with("other  other x  wrong"), "{stdout}");
    let fields: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(fields[2], "20", "{stdout}");
    assert_eq!(fields.last(), Some(&"0"), "its scores are right: {stdout}");
    // Our time over its time (any number: times depend on the machine's
    // load), or `-`, explained below the table, when its run was too short
    // to tell from its start-up.
    let ratio = fields[fields.len() - 2];
    assert!(
        ratio
            .parse::<f64>()
            .is_ok_and(|r| r.is_finite() && r >= 0.0)
            || (ratio == "-" && stdout.contains("too short to time")),
        "{stdout}"
    );
}

#[test]
fn bench_fails_on_another_solver_that_is_wrong_or_cannot_run() {
    // Says 0 for every position: the end-easy set has other scores too.
    let out = bench_against("Test_L3_R1", "20", "awk {print($0,0)}").failure();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let wrong: usize = stdout
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .parse()
        .unwrap();
    assert!(wrong > 0, "{stdout}");
    bench_against("Test_L3_R1", "5", "cat")
        .failure()
        .stderr(predicate::str::contains(
            "line 1 of `cat`'s output does not end with a score",
        ));
    bench_against("Test_L3_R1", "5", "/nonexistent/solver")
        .failure()
        .stderr(predicate::str::contains(
            "cannot start `/nonexistent/solver`",
        ));
    bench_against("Test_L3_R1", "5", "false")
        .failure()
        .stderr(predicate::str::contains("`false` failed"));
}

#[test]
fn weak_solve_tells_who_wins_every_published_line_it_is_given() {
    // The sign of Pons' scores: positive when the player to move wins.
    let input = set_lines("Test_L2_R1", 200) + &set_lines("Test_L1_R1", 100);
    let out = games()
        .args(["solve", "connect4", "--weak", "--check", "--no-book"])
        .write_stdin(input)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("300 passed, 0 failed"), "{stdout}");
    for line in stdout.lines().take(300) {
        let value = line.split_whitespace().last().unwrap();
        assert!(["-1", "0", "1"].contains(&value), "{line}");
    }
}

#[test]
fn bench_explains_bad_arguments() {
    games()
        .args(["bench", "--sets", "Test_L9"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown set `Test_L9`"));
    games()
        .args(["bench", "--data", "/nonexistent"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("/nonexistent/Test_L3_R1")
                .and(predicate::str::contains("--data")),
        );
}

/// The mean nodes `games solve connect4 --check` reports for `input`.
fn mean_nodes(extra: &[&str], input: &str) -> f64 {
    let out = games()
        .args(["solve", "connect4", "--check"])
        .args(extra)
        .write_stdin(input)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let summary = stdout.lines().last().unwrap();
    let nodes = summary.split("mean nodes ").nth(1).unwrap();
    nodes.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn no_book_solves_a_book_position_by_search() {
    // A 12-stone line of the begin-easy set: the book holds it, so the
    // search stops at once; without the book it searches, to the same score.
    let line = "243335424257 12\n";
    let with_book = mean_nodes(&[], line);
    let searched = mean_nodes(&["--no-book"], line);
    assert!(with_book <= 5.0, "{with_book}");
    assert!(searched > 10.0 * with_book, "{searched} vs {with_book}");
}
