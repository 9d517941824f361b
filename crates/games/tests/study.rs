//! `games tree`, `games analyse` and `games list` through the real binary.

use assert_cmd::Command;
use predicates::prelude::*;

fn games() -> Command {
    Command::cargo_bin("games").unwrap()
}

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

/// Nodes in the full game tree of misère or normal Nim with one pile of `n`
/// stones, taking 1 or 2: the root plus the trees after taking 1 and 2.
fn nim_tree_size(n: u32) -> usize {
    match n {
        0 => 1,
        1 => 2,
        n => 1 + nim_tree_size(n - 1) + nim_tree_size(n - 2),
    }
}

#[test]
fn text_tree_of_a_small_nim_game_with_alpha_beta_cuts() {
    let text = stdout(&["tree", "nim", "piles=4", "--depth", "4", "--alpha-beta"]);
    assert!(
        !text.contains('\u{1b}'),
        "no colours when not writing to a terminal"
    );
    assert_eq!(text.matches("✂ cut:").count(), 1, "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn text_tree_of_the_end_of_a_yucky_chocolate_game() {
    // A 2 x 3 bar with player 1 to move: not square, so player 1 wins by
    // making it square (C 1).
    let text = stdout(&[
        "tree",
        "yucky-chocolate",
        "--moves",
        "R 2",
        "C 4",
        "--depth",
        "3",
    ]);
    assert!(text.contains("├─ C 1: ▼ min +1 *"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn svg_tree_is_well_formed_xml_with_one_shape_per_node() {
    let svg = stdout(&["tree", "nim", "piles=5", "--depth", "5", "--format", "svg"]);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let nodes = root.children().filter(|n| n.has_tag_name("g")).count();
    assert_eq!(nodes, nim_tree_size(5));
    let edges = root.children().filter(|n| n.has_tag_name("line")).count();
    assert_eq!(edges, nodes - 1);
}

#[test]
fn svg_marks_cut_branches_dashed() {
    let svg = stdout(&[
        "tree",
        "nim",
        "piles=4",
        "--depth",
        "4",
        "--format",
        "svg",
        "--alpha-beta",
    ]);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let dashed = doc
        .descendants()
        .filter(|n| n.attribute("stroke-dasharray").is_some())
        .count();
    assert_eq!(dashed, 1);
}

#[test]
fn dot_tree_has_every_node_and_edge_and_highlights_the_chosen_path() {
    let dot = stdout(&["tree", "nim", "piles=5", "--depth", "5", "--format", "dot"]);
    assert!(
        dot.starts_with("digraph tree {") && dot.trim_end().ends_with('}'),
        "{dot}"
    );
    let nodes = dot
        .lines()
        .filter(|l| l.trim_start().starts_with('n') && l.contains("[shape="))
        .count();
    let edges = dot.lines().filter(|l| l.contains(" -> ")).count();
    assert_eq!(nodes, nim_tree_size(5));
    assert_eq!(edges, nodes - 1);
    // Misère, 5 stones: the player to move wins by taking 1 (leaving 4);
    // the chosen path goes to the end of the game, 4 moves at least.
    let chosen = dot
        .lines()
        .filter(|l| l.contains(" -> ") && l.contains("penwidth=3"))
        .count();
    assert!(chosen >= 4, "{dot}");
}

#[test]
fn trees_too_large_to_draw_are_refused_with_a_message() {
    games()
        .args(["tree", "connect4", "--depth", "5"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("too many to draw").and(predicate::str::contains("--depth")),
        );
    games()
        .args(["tree", "nim", "--depth", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--depth"));
    games()
        .args(["tree", "connect4", "--moves", "4", "9", "--depth", "1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--moves").and(predicate::str::contains("move 2")));
}

#[test]
fn analyse_lists_every_move_best_first_and_the_ai_choice() {
    // Misère Nim from 9 stones, take 1 or 2: leave 3k + 1, so take 2.
    let text = stdout(&["analyse", "nim", "piles=9", "--depth", "20"]);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("1 ") || l.starts_with("2 "))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(
        rows[0].starts_with("2 ") && rows[0].contains("+1") && rows[0].contains("exact"),
        "{text}"
    );
    assert!(
        rows[1].starts_with("1 ") && rows[1].contains("-1"),
        "{text}"
    );
    assert!(text.contains("The AI would play 2."), "{text}");
}

#[test]
fn analyse_a_connect4_position_by_depth() {
    // Player 1 (X) has three in a row at the bottom and wins at once in
    // column 1 or 5: those moves are exact wins, listed first.
    let text = stdout(&[
        "analyse",
        "connect4",
        "--moves",
        "2 2 3 3 4 4",
        "--depth",
        "2",
    ]);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("exact") || l.contains("estimated"))
        .collect();
    assert_eq!(rows.len(), 7, "{text}");
    assert!(
        rows[0].contains("exact: Player 1 (X) wins")
            && rows[1].contains("exact: Player 1 (X) wins"),
        "{text}"
    );
    let mut best: Vec<&str> = rows[..2]
        .iter()
        .map(|r| r.split_whitespace().next().unwrap())
        .collect();
    best.sort_unstable();
    assert_eq!(best, ["1", "5"], "{text}");
    assert!(
        text.contains("The AI would play 1.") || text.contains("The AI would play 5."),
        "{text}"
    );
}

#[test]
fn list_names_every_game_with_options_and_notation() {
    let text = stdout(&["list"]);
    for needle in [
        "nim",
        "yucky-chocolate",
        "connect4",
        "tictactoe",
        "rows=6",
        "piles=7",
        "moves:",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
}

/// The rows of an analyse table: (move, value, how sure).
fn analyse_rows(text: &str) -> Vec<(String, i32, String)> {
    text.lines()
        .filter(|l| l.contains("exact") || l.contains("estimated") || l.contains("proven"))
        .filter(|l| !l.contains("takes the"))
        .map(|l| {
            let mut words = l.split_whitespace();
            let mv = words.next().unwrap().to_owned();
            let value = words.next().unwrap().parse().unwrap();
            (mv, value, words.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

#[test]
fn analyse_ranks_for_the_player_to_move_and_the_ai_plays_the_top_move() {
    // Player 2 (O) to move: smaller values first. Proven wins and losses
    // rank beyond every estimate, exact before estimated at equal value.
    for moves in ["4 4 3", "4 4 3 3", "1 7 1 7 1"] {
        let text = stdout(&["analyse", "connect4", "--moves", moves, "--depth", "6"]);
        let rows = analyse_rows(&text);
        assert_eq!(rows.len(), 7, "{text}");
        let sign = if moves.split_whitespace().count() % 2 == 0 {
            1
        } else {
            -1
        };
        let key = |(_, value, how): &(String, i32, String)| {
            let value = sign * value;
            let class = match (how.starts_with("estimated"), value.signum()) {
                (false, 1) => 2,
                (false, -1) => 0,
                _ => 1,
            };
            (class, value, how.starts_with("exact"))
        };
        assert!(
            rows.windows(2).all(|w| key(&w[0]) >= key(&w[1])),
            "{moves}:\n{text}"
        );
        assert!(
            text.contains(&format!("The AI would play {}.", rows[0].0)),
            "{moves}:\n{text}"
        );
    }
}
