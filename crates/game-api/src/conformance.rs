//! The conformance kit: laws every [`Game`] must obey, checked with
//! proptest on random playouts and random text.
//!
//! It exists so that a game (ours or a student's) can prove in one line that
//! it honours the interface, and so the grader can run the same laws on
//! submissions. Runs are seeded: the same game and [`KitConfig`] always give
//! the same verdicts.
//!
//! ```
//! # use game_api::{Game, conformance};
//! # fn demo<G: Game>(my_game: &G) {
//! // in a test of your game crate:
//! conformance::assert_conforms(my_game);
//! // or, to inspect each law:
//! for verdict in conformance::check_laws(my_game, &conformance::KitConfig::default()) {
//!     println!("{}: {}", verdict.law, if verdict.passed() { "ok" } else { "FAILED" });
//! }
//! # }
//! ```

use crate::{Game, Status};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// How many random cases each law tries, and the seed that makes a run
/// reproducible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KitConfig {
    /// Random cases per law (playouts or strings).
    pub cases: u32,
    /// Seed of the random generator.
    pub seed: u64,
}

impl Default for KitConfig {
    fn default() -> Self {
        KitConfig {
            cases: 64,
            seed: 0x5eed_2026,
        }
    }
}

/// The names of the laws, in the order [`check_laws`] reports them.
pub const LAWS: [&str; 11] = [
    "initial_state_is_ongoing",
    "legal_moves_nonempty_iff_ongoing",
    "legal_moves_are_accepted_and_pass_the_turn",
    "illegal_moves_are_refused",
    "move_strings_round_trip",
    "move_of_string_never_panics",
    "playouts_end_within_declared_bound",
    "payoffs_agree_with_status",
    "estimates_stay_between_payoffs",
    "hash_and_state_key_agree_with_equality",
    "speed_hooks_agree_with_the_rules",
];

/// The verdict on one law.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LawVerdict {
    /// The law's name (one of [`LAWS`]).
    pub law: &'static str,
    /// `None` when the law held; otherwise what went wrong, with the moves
    /// that lead there.
    pub failure: Option<String>,
}

impl LawVerdict {
    /// Whether the law held on every case tried.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Checks every law and returns one verdict per law, in the order of [`LAWS`].
/// A panic inside the game counts as a failure of the law being checked.
pub fn check_laws<G: Game + ?Sized>(game: &G, config: &KitConfig) -> Vec<LawVerdict> {
    LAWS.iter()
        .map(|law| check_law(game, law, config))
        .collect()
}

/// Checks one law by name.
///
/// # Panics
/// If `law` is not one of [`LAWS`].
pub fn check_law<G: Game + ?Sized>(game: &G, law: &'static str, config: &KitConfig) -> LawVerdict {
    assert!(LAWS.contains(&law), "unknown law `{law}`");
    let failure = match catch_unwind(AssertUnwindSafe(|| run_law(game, law, config))) {
        Ok(result) => result.err(),
        Err(payload) => Some(format!("the game panicked: {}", panic_message(&*payload))),
    };
    LawVerdict { law, failure }
}

/// Panics with a readable report if any law fails. Call it from a test.
///
/// # Panics
/// When a law fails, listing every failed law.
pub fn assert_conforms<G: Game + ?Sized>(game: &G) {
    let failures: Vec<String> = check_laws(game, &KitConfig::default())
        .into_iter()
        .filter_map(|v| v.failure.map(|f| format!("law `{}` failed: {f}", v.law)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

fn runner(config: &KitConfig) -> TestRunner {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&config.seed.to_le_bytes());
    TestRunner::new_with_rng(
        Config {
            cases: config.cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    )
}

fn outcome<T: std::fmt::Debug>(result: Result<(), TestError<T>>) -> Result<(), String> {
    match result {
        Ok(()) => Ok(()),
        Err(TestError::Fail(reason, _)) => Err(reason.message().to_owned()),
        Err(TestError::Abort(reason)) => Err(reason.message().to_owned()),
    }
}

/// A deterministic random walk from the initial state: the states and the
/// moves (as text) that lead to each.
struct Playout<G: Game + ?Sized> {
    states: Vec<G::State>,
    moves: Vec<G::Move>,
    /// Whether the walk stopped because it exceeded the declared bound.
    overran: bool,
}

/// SplitMix64: a tiny generator so a playout is a function of one `u64`.
fn next_random(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn playout<G: Game + ?Sized>(game: &G, seed: u64) -> Result<Playout<G>, String> {
    let mut rng = seed;
    let bound = game.max_game_length();
    let mut states = vec![game.initial_state()];
    let mut moves = Vec::new();
    loop {
        let state = states.last().expect("never empty");
        if game.game_status(state).is_over() {
            return Ok(Playout {
                states,
                moves,
                overran: false,
            });
        }
        // Still going after `bound` moves: the game is longer than declared.
        if moves.len() >= bound {
            return Ok(Playout {
                states,
                moves,
                overran: true,
            });
        }
        let legal = game.legal_moves(state);
        if legal.is_empty() {
            // Reported by the nonempty-iff-ongoing law; stop the walk here.
            return Ok(Playout {
                states,
                moves,
                overran: false,
            });
        }
        let mv = legal[(next_random(&mut rng) % legal.len() as u64) as usize].clone();
        let next = game.next_state(state, &mv).map_err(|e| {
            format!(
                "after {}: legal move {:?} was refused: {e}",
                path(game, &moves),
                mv
            )
        })?;
        states.push(next);
        moves.push(mv);
    }
}

/// The moves so far, in the game's notation, for messages.
fn path<G: Game + ?Sized>(game: &G, moves: &[G::Move]) -> String {
    if moves.is_empty() {
        "no moves (the initial state)".to_owned()
    } else {
        let text: Vec<String> = moves.iter().map(|m| game.string_of_move(m)).collect();
        format!("moves [{}]", text.join(", "))
    }
}

fn ensure(ok: bool, message: impl FnOnce() -> String) -> Result<(), TestCaseError> {
    if ok {
        Ok(())
    } else {
        Err(TestCaseError::fail(message()))
    }
}

fn std_hash<T: Hash + ?Sized>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// Runs `check` on every state of many random playouts; `check` gets the
/// playout and the index of the state.
fn for_each_state<G, F>(game: &G, config: &KitConfig, check: F) -> Result<(), String>
where
    G: Game + ?Sized,
    F: Fn(&Playout<G>, usize) -> Result<(), TestCaseError>,
{
    let result = runner(config).run(&any::<u64>(), |seed| {
        let p = playout(game, seed).map_err(TestCaseError::fail)?;
        (0..p.states.len()).try_for_each(|i| check(&p, i))
    });
    outcome(result)
}

fn run_law<G: Game + ?Sized>(game: &G, law: &str, config: &KitConfig) -> Result<(), String> {
    match law {
        "initial_state_is_ongoing" => {
            let status = game.game_status(&game.initial_state());
            if status.is_over() {
                Err(format!("the initial state has status {status:?}"))
            } else {
                Ok(())
            }
        }
        "legal_moves_nonempty_iff_ongoing" => for_each_state(game, config, |p, i| {
            let s = &p.states[i];
            let status = game.game_status(s);
            let n = game.legal_moves(s).len();
            ensure(status.is_over() == (n == 0), || {
                format!(
                    "after {}: status is {status:?} but there are {n} legal moves",
                    path(game, &p.moves[..i])
                )
            })
        }),
        "legal_moves_are_accepted_and_pass_the_turn" => for_each_state(game, config, |p, i| {
            let s = &p.states[i];
            let Status::Ongoing(mover) = game.game_status(s) else {
                return Ok(());
            };
            for mv in game.legal_moves(s) {
                let where_ = || {
                    format!(
                        "after {}, move {}",
                        path(game, &p.moves[..i]),
                        game.string_of_move(&mv)
                    )
                };
                let next = game.next_state(s, &mv).map_err(|e| {
                    TestCaseError::fail(format!("{}: a legal move was refused: {e}", where_()))
                })?;
                let status = game.game_status(&next);
                ensure(status != Status::Ongoing(mover), || {
                    format!("{}: {mover} is still to move", where_())
                })?;
            }
            Ok(())
        }),
        "illegal_moves_are_refused" => for_each_state(game, config, |p, i| {
            let s = &p.states[i];
            let legal = game.legal_moves(s);
            // Candidates: moves legal somewhere in this game, and near misses
            // of this position's legal moves (each number in their notation
            // nudged), so a take of 3 under a limit of 2 is tried too.
            // Each distinct candidate is tried once.
            let mut candidates: Vec<G::Move> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            let mut add = |m: G::Move| {
                if seen.insert(m.clone()) {
                    candidates.push(m);
                }
            };
            p.states
                .iter()
                .flat_map(|t| game.legal_moves(t))
                .for_each(&mut add);
            for mv in &legal {
                for text in near_misses(&game.string_of_move(mv)) {
                    if let Ok(m) = game.move_of_string(&text) {
                        add(m);
                    }
                }
            }
            for mv in &candidates {
                if !legal.contains(mv) && game.next_state(s, mv).is_ok() {
                    return Err(TestCaseError::fail(format!(
                        "after {}: move {} is not among the legal moves but was accepted",
                        path(game, &p.moves[..i]),
                        game.string_of_move(mv)
                    )));
                }
            }
            Ok(())
        }),
        "move_strings_round_trip" => for_each_state(game, config, |p, i| {
            for mv in game.legal_moves(&p.states[i]) {
                let text = game.string_of_move(&mv);
                let back = game.move_of_string(&text);
                ensure(back.as_ref() == Ok(&mv), || {
                    format!(
                        "after {}: move {mv:?} is written `{text}` but reads back as {back:?}",
                        path(game, &p.moves[..i])
                    )
                })?;
            }
            Ok(())
        }),
        "move_of_string_never_panics" => {
            let text = prop_oneof![
                any::<String>(),
                "[ -~]{0,12}",
                "[-+]?[0-9]{1,25}",
                "[A-Za-z]{0,3} *[-+]?[0-9]{0,20}",
            ];
            outcome(runner(config).run(&text, |t| {
                match catch_unwind(AssertUnwindSafe(|| game.move_of_string(&t))) {
                    Ok(_) => Ok(()),
                    Err(e) => Err(TestCaseError::fail(format!(
                        "move_of_string({t:?}) panicked: {}",
                        panic_message(&*e)
                    ))),
                }
            }))
        }
        "playouts_end_within_declared_bound" => for_each_state(game, config, |p, i| {
            ensure(i + 1 < p.states.len() || !p.overran, || {
                format!(
                    "a random game was still going after {} moves, but max_game_length() is {}",
                    p.moves.len(),
                    game.max_game_length()
                )
            })
        }),
        "payoffs_agree_with_status" => for_each_state(game, config, |p, i| {
            let s = &p.states[i];
            let status = game.game_status(s);
            if !status.is_over() {
                return Ok(());
            }
            let v = game.payoff(s, status);
            let ok = match status {
                Status::Win(crate::Player::P1) => v > 0,
                Status::Win(crate::Player::P2) => v < 0,
                _ => v == 0,
            } && v.abs() <= game.max_payoff();
            ensure(ok, || {
                format!(
                    "after {}: status {status:?} has payoff {v} (max_payoff {})",
                    path(game, &p.moves[..i]),
                    game.max_payoff()
                )
            })
        }),
        "estimates_stay_between_payoffs" => for_each_state(game, config, |p, i| {
            let s = &p.states[i];
            if game.game_status(s).is_over() {
                return Ok(());
            }
            let v = game.estimate_value(s);
            ensure(v.abs() < game.max_payoff(), || {
                format!(
                    "after {}: estimate_value is {v}, not strictly between -{m} and {m} (the payoffs)",
                    path(game, &p.moves[..i]),
                    m = game.max_payoff()
                )
            })
        }),
        "hash_and_state_key_agree_with_equality" => for_each_state(game, config, |p, i| {
            let s = &p.states[i];
            // Replaying the same moves must give an equal state with equal hashes.
            let mut again = game.initial_state();
            for mv in &p.moves[..i] {
                again = game
                    .next_state(&again, mv)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            let where_ = || path(game, &p.moves[..i]);
            ensure(&again == s, || {
                format!(
                    "after {}: replaying the same moves gives a different state",
                    where_()
                )
            })?;
            ensure(
                std_hash(&again) == std_hash(s) && std_hash(&s.clone()) == std_hash(s),
                || format!("after {}: equal states have different hashes", where_()),
            )?;
            ensure(game.state_key(&again) == game.state_key(s), || {
                format!("after {}: equal states have different state keys", where_())
            })?;
            Ok(())
        }),
        "speed_hooks_agree_with_the_rules" => {
            for_each_state(game, config, |p, i| hooks_agree(game, p, i))
        }
        other => panic!("unknown law `{other}`"),
    }
}

/// Variants of a move's text with one of its numbers changed to 0, n - 1,
/// n + 1 or 10n: likely moves that are just outside the rules.
fn near_misses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        if !bytes[start].is_ascii_digit() {
            start += 1;
            continue;
        }
        let end = (start..bytes.len())
            .find(|&j| !bytes[j].is_ascii_digit())
            .unwrap_or(bytes.len());
        if let Ok(n) = text[start..end].parse::<u64>() {
            for m in [0, n.saturating_sub(1), n + 1, n.saturating_mul(10)] {
                let candidate = format!("{}{m}{}", &text[..start], &text[end..]);
                if m != n && !out.contains(&candidate) {
                    out.push(candidate);
                }
            }
        }
        start = end;
    }
    out
}

fn hooks_agree<G: Game + ?Sized>(game: &G, p: &Playout<G>, i: usize) -> Result<(), TestCaseError> {
    let s = &p.states[i];
    let where_ = || path(game, &p.moves[..i]);
    let legal = game.legal_moves(s);
    // A used buffer: legal_moves_into must clear it first.
    let mut buf = p.moves.clone();
    game.legal_moves_into(s, &mut buf);
    ensure(buf == legal, || {
        format!(
            "after {}: legal_moves_into disagrees with legal_moves",
            where_()
        )
    })?;
    let Status::Ongoing(mover) = game.game_status(s) else {
        return Ok(());
    };
    if let Some(w) = game.winning_move(s) {
        let next = game.next_state(s, &w).map_err(|e| {
            TestCaseError::fail(format!("after {}: winning_move is illegal: {e}", where_()))
        })?;
        ensure(game.game_status(&next) == Status::Win(mover), || {
            format!(
                "after {}: winning_move {} does not win at once",
                where_(),
                game.string_of_move(&w)
            )
        })?;
    }
    game.non_losing_moves_into(s, &mut buf);
    for mv in &legal {
        let next = game
            .next_state(s, mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (hint, child_hint) = (
            game.move_order_hint(s, mv),
            game.child_order_hint(s, mv, &next),
        );
        ensure(hint == child_hint, || {
            format!(
                "after {}: child_order_hint gives {child_hint} for {}, move_order_hint {hint}",
                where_(),
                game.string_of_move(mv)
            )
        })?;
        let loses_at_once = match game.game_status(&next) {
            Status::Win(w) => w != mover,
            Status::Draw => false,
            Status::Ongoing(_) => game.legal_moves(&next).iter().any(|reply| {
                game.next_state(&next, reply)
                    .is_ok_and(|after| game.game_status(&after) == Status::Win(mover.other()))
            }),
        };
        ensure(loses_at_once || buf.contains(mv), || {
            format!(
                "after {}: non_losing_moves_into dropped {}, which does not lose at once",
                where_(),
                game.string_of_move(mv)
            )
        })?;
    }
    ensure(buf.iter().all(|m| legal.contains(m)), || {
        format!(
            "after {}: non_losing_moves_into returned an illegal move",
            where_()
        )
    })?;
    let (lo, hi) = game.value_bounds(s);
    ensure(lo <= hi, || {
        format!("after {}: value_bounds ({lo}, {hi}) is empty", where_())
    })
}

#[cfg(test)]
mod tests {
    use super::near_misses;

    #[test]
    fn near_misses_nudge_each_number_in_turn() {
        assert_eq!(near_misses("2"), ["0", "1", "3", "20"]);
        assert_eq!(near_misses("R 1"), ["R 0", "R 2", "R 10"]);
        assert_eq!(near_misses("2:3").len(), 8);
        assert!(near_misses("pass").is_empty());
    }
}
