//! The answer keys: every fixture replayed against our reference game, kept
//! as an insta snapshot (`tests/snapshots/answer_keys__<game>__<fixture>.snap`).
//!
//! The games are those of `fixtures/grading.toml` (no list here): each
//! section's reference crate is checked to be a workspace member and the
//! game registered under that name (`crates/registry`), then every fixture
//! of its folder is replayed against it. `ANSWER_KEYS_GAME=<game>` limits
//! the run to one game.
//!
//! When a game or a fixture changes, this test fails with the difference;
//! record and review the keys with `cargo xtask keys [--game G] [--review]`.
//! The grader reads these snapshot files as its keys, and refuses a key
//! whose fixture has changed since it was recorded.

mod common;

use common::workspace;
use game_api::{Configurable, Game};
use grader::class::Prepared;
use grader::fixture::{load_dir, Fixture};
use grader::key::{AnswerKey, KeyError};
use grader::reference::{discover, ReferenceGame};

/// The games of `grading.toml`, each checked against the registry.
fn games() -> Vec<ReferenceGame> {
    let games = discover(&workspace()).unwrap_or_else(|e| panic!("{e}"));
    for g in &games {
        let registered = registry::entry(&g.name).map(|e| (e.krate, e.type_name));
        g.check_registered(registered)
            .unwrap_or_else(|e| panic!("fixtures/grading.toml: {e}"));
    }
    games
}

fn fixtures_of(game: &str) -> Vec<Fixture> {
    let dir = workspace().join("fixtures").join(game);
    load_dir(&dir, game).unwrap_or_else(|e| panic!("{e}"))
}

fn fixtures<G: Configurable>() -> Vec<Fixture> {
    fixtures_of(G::NAME)
}

/// The key of `fixture`, recorded against the reference `G`.
fn record<G: Game + Configurable>(fixture: &Fixture) -> Result<AnswerKey, KeyError> {
    AnswerKey::record::<G>(fixture)
}

/// Records the keys of some fixtures against the game it visits.
struct Record<'a>(&'a [Fixture]);

impl registry::Visitor for Record<'_> {
    type Output = Vec<Result<AnswerKey, KeyError>>;
    fn visit<G: Game + Configurable>(self) -> Self::Output {
        self.0.iter().map(record::<G>).collect()
    }
}

/// The one answer-key test: every game of `grading.toml` (or only
/// `ANSWER_KEYS_GAME`), every fixture, compared with its snapshot. A fixture
/// the reference disagrees with is reported by name, after the others.
#[test]
fn every_fixture_of_every_game_in_grading_toml_matches_its_answer_key() {
    let only = std::env::var("ANSWER_KEYS_GAME").ok();
    let games = games();
    if let Some(only) = &only {
        assert!(
            games.iter().any(|g| &g.name == only),
            "ANSWER_KEYS_GAME={only}: no [games.{only}] in fixtures/grading.toml"
        );
    }
    let mut errors = Vec::new();
    for g in games
        .iter()
        .filter(|g| only.is_none() || only.as_deref() == Some(g.name.as_str()))
    {
        let fixtures = fixtures_of(&g.name);
        let keys = registry::visit(&g.name, Record(&fixtures)).unwrap();
        for (f, key) in fixtures.iter().zip(keys) {
            match key {
                Ok(key) => {
                    assert_eq!(key.steps.len(), f.moves.len() + 1);
                    insta::assert_json_snapshot!(AnswerKey::snapshot_name(f), key);
                }
                Err(e) => errors.push(e.to_string()),
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn grading_toml_names_registered_workspace_crates_and_every_registered_game_is_graded() {
    let games = games();
    let graded: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
    for name in registry::names() {
        assert!(
            graded.contains(&name),
            "{name} is registered but has no [games.{name}] in fixtures/grading.toml"
        );
    }
}

#[test]
fn every_game_has_fixtures_and_loads_with_its_keys() {
    let ws = workspace();
    for g in games() {
        let game = g.name.as_str();
        let prepared = Prepared::of_course(&ws, game).unwrap_or_else(|e| panic!("{e}"));
        let fixtures = prepared.fixtures.iter().map(|(f, _)| f);
        let warnings = prepared
            .config
            .points_policy_warnings(&ws.join("fixtures/grading.toml"), fixtures);
        assert!(
            warnings.is_empty(),
            "the course breaks its points policy: {warnings:?}"
        );
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
        let key = record::<connect4::Connect4>(f).unwrap();
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
    let e = record::<connect4::Connect4>(&f).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "bad.toml: the reference game disagrees with this fixture: after the moves [4]:"
        ),
        "{e}"
    );
    let f =
        Fixture::from_toml("game = \"connect4\"\nmoves = [\"4\", \"9\"]\n", "bad.toml").unwrap();
    let e = record::<connect4::Connect4>(&f).unwrap_err().to_string();
    assert!(
        e.contains("after the moves [4]: expected: the move 9 is accepted"),
        "{e}"
    );
}
