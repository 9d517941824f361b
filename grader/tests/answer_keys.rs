//! The answer keys: every fixture replayed against our reference game, kept
//! as an insta snapshot (`tests/snapshots/answer_keys__<game>__<fixture>.snap`).
//!
//! When a game or a fixture changes, this test fails with the difference;
//! review it with `cargo insta review` (or `INSTA_UPDATE=always` then read
//! the diff). The grader reads these snapshot files as its keys, and
//! refuses a key whose fixture has changed since it was recorded.

use game_api::Configurable;
use grader::class::Prepared;
use grader::fixture::{load_dir, Fixture};
use grader::key::AnswerKey;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("grader is in the workspace")
        .to_owned()
}

fn fixtures<G: Configurable>() -> Vec<Fixture> {
    let dir = workspace().join("fixtures").join(G::NAME);
    load_dir(&dir, G::NAME).unwrap_or_else(|e| panic!("{e}"))
}

/// Records every fixture's key against the reference `G` and compares it
/// with the snapshot.
fn keys_match_snapshots<G: game_api::Game + Configurable>() {
    let fixtures = fixtures::<G>();
    for f in &fixtures {
        let key = AnswerKey::record::<G>(f).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(key.steps.len(), f.moves.len() + 1);
        insta::assert_json_snapshot!(AnswerKey::snapshot_name(f), key);
    }
}

#[test]
fn connect4_keys_match_their_snapshots() {
    keys_match_snapshots::<connect4::Connect4>();
}

#[test]
fn nim_keys_match_their_snapshots() {
    keys_match_snapshots::<nim::Nim>();
}

#[test]
fn yucky_chocolate_keys_match_their_snapshots() {
    keys_match_snapshots::<yucky_chocolate::YuckyChocolate>();
}

#[test]
fn every_game_has_fixtures_and_loads_with_its_keys() {
    let ws = workspace();
    for game in [
        connect4::Connect4::NAME,
        nim::Nim::NAME,
        yucky_chocolate::YuckyChocolate::NAME,
    ] {
        let prepared = Prepared::load(
            &ws.join("fixtures/grading.toml"),
            game,
            &ws.join("fixtures").join(game),
            &ws.join("grader/tests/snapshots"),
            None,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            prepared.fixtures.len() >= 6,
            "{game} has only {} fixtures",
            prepared.fixtures.len()
        );
        assert!(prepared.laws);
        let only_ai = Prepared::load(
            &ws.join("fixtures/grading.toml"),
            game,
            &ws.join("fixtures").join(game),
            &ws.join("grader/tests/snapshots"),
            Some("ai"),
        )
        .unwrap();
        assert!(
            !only_ai.laws
                && only_ai
                    .fixtures
                    .iter()
                    .all(|(f, _)| f.tags.iter().any(|t| t == "ai"))
        );
        assert!(!only_ai.fixtures.is_empty());
    }
}

/// The Connect-4 fixtures cover what the issue lists: every direction of
/// win, both edges, a draw by a full board, the smallest and largest
/// boards, the end of the game. Checked on the keys, i.e. on the reference.
#[test]
fn connect4_fixtures_cover_every_way_to_win_and_to_end() {
    let fixtures = fixtures::<connect4::Connect4>();
    for tag in [
        "vertical",
        "horizontal",
        "diagonal",
        "edge",
        "draws",
        "small",
        "large",
        "end",
        "ai",
        "input",
    ] {
        assert!(
            fixtures.iter().any(|f| f.tags.iter().any(|t| t == tag)),
            "no fixture tagged {tag}"
        );
    }
    let mut ended = [false; 3];
    for f in &fixtures {
        let key = AnswerKey::record::<connect4::Connect4>(f).unwrap();
        match key.steps.last().unwrap().status {
            game_api::Status::Win(game_api::Player::P1) => ended[0] = true,
            game_api::Status::Win(game_api::Player::P2) => ended[1] = true,
            game_api::Status::Draw => ended[2] = true,
            game_api::Status::Ongoing(_) => {}
        }
    }
    assert_eq!(ended, [true; 3], "wins for each player and a draw");
}

#[test]
fn a_fixture_the_reference_disagrees_with_is_reported() {
    let f = Fixture::from_toml(
        "game = \"connect4\"\nmoves = [\"4\"]\n[[illegal]]\nmove = \"5\"\n",
        "bad.toml",
    )
    .unwrap();
    let e = AnswerKey::record::<connect4::Connect4>(&f)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(
            "bad.toml: the reference game disagrees with this fixture: after the moves [4]:"
        ),
        "{e}"
    );
    let f =
        Fixture::from_toml("game = \"connect4\"\nmoves = [\"4\", \"9\"]\n", "bad.toml").unwrap();
    let e = AnswerKey::record::<connect4::Connect4>(&f)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("after the moves [4]: expected: the move 9 is accepted"),
        "{e}"
    );
}
