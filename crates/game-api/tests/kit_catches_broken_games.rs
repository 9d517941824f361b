//! The conformance kit must be able to fail: a kit that passes everything
//! proves nothing. Each test here plants one flaw in a tiny correct game and
//! checks that `check_laws` flags exactly the law that flaw breaks, and that
//! the flawless game passes every law.

use game_api::conformance::{check_law, check_laws, KitConfig, LAWS};
use game_api::{Game, IllegalMove, ParseMoveError, Player, Status, Value};
use std::sync::atomic::{AtomicU64, Ordering};

/// One deliberate mistake, the kind a student makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flaw {
    None,
    /// `legal_moves` keeps offering moves once the target is reached.
    MovesAfterTheEnd,
    /// `next_state` forgets to pass the turn.
    SamePlayerMovesTwice,
    /// `next_state` accepts moves once the game is over.
    PlaysOnAfterTheEnd,
    /// `string_of_move` writes numbers from 0, `move_of_string` reads them from 1.
    MoveStringsOffByOne,
    /// `move_of_string` unwraps the parse.
    ParsePanicsOnNonsense,
    /// `max_game_length` is one less than the longest game.
    BoundOneTooSmall,
    /// `payoff` pays every win to player 1.
    EveryWinPaysPlayer1,
    /// `estimate_value` returns a winning payoff.
    EstimateClaimsAWin,
    /// `state_key` hands out a fresh number on every call.
    StateKeyFromACounter,
    /// `winning_move` always proposes adding 1.
    WinningMoveThatDoesNotWin,
    /// `legal_moves_into` forgets to clear the buffer.
    LegalMovesIntoKeepsOldMoves,
    /// `non_losing_moves_into` drops every move.
    NonLosingMovesDropsEverything,
    /// `child_order_hint` disagrees with `move_order_hint`.
    ChildHintDisagrees,
}

/// Race to a target: players take turns adding 1 to `max_step` to a counter
/// starting at 0; whoever brings it to `target` or beyond wins.
struct Race {
    target: u32,
    max_step: u32,
    flaw: Flaw,
}

impl Race {
    fn flawed(flaw: Flaw) -> Self {
        Race {
            target: 5,
            max_step: 2,
            flaw,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RaceState {
    total: u32,
    to_move: Player,
}

static KEYS_HANDED_OUT: AtomicU64 = AtomicU64::new(0);

impl Game for Race {
    type State = RaceState;
    type Move = u32;

    fn initial_state(&self) -> RaceState {
        RaceState {
            total: 0,
            to_move: Player::P1,
        }
    }

    fn legal_moves(&self, s: &RaceState) -> Vec<u32> {
        if s.total >= self.target && self.flaw != Flaw::MovesAfterTheEnd {
            vec![]
        } else {
            (1..=self.max_step).collect()
        }
    }

    fn next_state(&self, s: &RaceState, m: &u32) -> Result<RaceState, IllegalMove> {
        if s.total >= self.target && self.flaw != Flaw::PlaysOnAfterTheEnd {
            return Err(IllegalMove::new(m.to_string(), "the race is over"));
        }
        if !(1..=self.max_step).contains(m) {
            return Err(IllegalMove::new(m.to_string(), "add 1 to the maximum step"));
        }
        let to_move = if self.flaw == Flaw::SamePlayerMovesTwice {
            s.to_move
        } else {
            s.to_move.other()
        };
        Ok(RaceState {
            total: s.total + m,
            to_move,
        })
    }

    fn game_status(&self, s: &RaceState) -> Status {
        if s.total >= self.target {
            Status::Win(s.to_move.other())
        } else {
            Status::Ongoing(s.to_move)
        }
    }

    fn estimate_value(&self, _s: &RaceState) -> Value {
        if self.flaw == Flaw::EstimateClaimsAWin {
            1
        } else {
            0
        }
    }

    fn string_of_state(&self, s: &RaceState) -> String {
        format!("total {}, {} to move", s.total, s.to_move)
    }

    fn string_of_move(&self, m: &u32) -> String {
        let shown = if self.flaw == Flaw::MoveStringsOffByOne {
            m - 1
        } else {
            *m
        };
        shown.to_string()
    }

    fn move_of_string(&self, text: &str) -> Result<u32, ParseMoveError> {
        if self.flaw == Flaw::ParsePanicsOnNonsense {
            return Ok(text.trim().parse().expect("a number"));
        }
        text.trim()
            .parse()
            .map_err(|_| ParseMoveError::new(text, "expected a whole number"))
    }

    fn max_game_length(&self) -> usize {
        let longest = self.target as usize;
        if self.flaw == Flaw::BoundOneTooSmall {
            longest - 1
        } else {
            longest
        }
    }

    fn payoff(&self, state: &RaceState, status: Status) -> Value {
        match status {
            Status::Win(_) if self.flaw == Flaw::EveryWinPaysPlayer1 => 1,
            Status::Win(p) => p.sign(),
            Status::Draw => 0,
            Status::Ongoing(_) => self.estimate_value(state),
        }
    }

    fn legal_moves_into(&self, s: &RaceState, out: &mut Vec<u32>) {
        if self.flaw != Flaw::LegalMovesIntoKeepsOldMoves {
            out.clear();
        }
        out.extend(self.legal_moves(s));
    }

    fn state_key(&self, s: &RaceState) -> u64 {
        if self.flaw == Flaw::StateKeyFromACounter {
            KEYS_HANDED_OUT.fetch_add(1, Ordering::Relaxed)
        } else {
            (u64::from(s.total) << 1) | u64::from(s.to_move == Player::P2)
        }
    }

    fn winning_move(&self, _s: &RaceState) -> Option<u32> {
        (self.flaw == Flaw::WinningMoveThatDoesNotWin).then_some(1)
    }

    fn move_order_hint(&self, _s: &RaceState, m: &u32) -> i32 {
        // Bigger steps first.
        *m as i32
    }

    fn child_order_hint(&self, s: &RaceState, _m: &u32, child: &RaceState) -> i32 {
        if self.flaw == Flaw::ChildHintDisagrees {
            // The total after the move instead of the step.
            child.total as i32
        } else {
            (child.total - s.total) as i32
        }
    }

    fn non_losing_moves_into(&self, s: &RaceState, out: &mut Vec<u32>) {
        self.legal_moves_into(s, out);
        if self.flaw == Flaw::NonLosingMovesDropsEverything {
            out.clear();
        }
    }
}

/// The laws the kit says `game` breaks.
fn failed_laws(game: &Race) -> Vec<&'static str> {
    check_laws(game, &KitConfig::default())
        .into_iter()
        .filter(|v| !v.passed())
        .map(|v| v.law)
        .collect()
}

/// Asserts the kit flags exactly `law` for `game`, with a failure message
/// containing `evidence`.
fn assert_flags_only(game: &Race, law: &str, evidence: &str) {
    assert_eq!(failed_laws(game), [law], "for {:?}", game.flaw);
    let verdict = check_law(
        game,
        LAWS.iter().find(|l| **l == law).expect("a known law"),
        &KitConfig::default(),
    );
    let message = verdict.failure.expect("the law fails");
    assert!(
        message.contains(evidence),
        "for {:?}, the message `{message}` lacks `{evidence}`",
        game.flaw
    );
}

#[test]
fn a_correct_game_passes_every_law_in_several_setups() {
    for (target, max_step) in [(5, 2), (1, 1), (9, 3), (4, 1)] {
        let game = Race {
            target,
            max_step,
            flaw: Flaw::None,
        };
        assert_eq!(
            failed_laws(&game),
            Vec::<&str>::new(),
            "target {target}, max step {max_step}"
        );
    }
}

#[test]
fn a_game_over_before_it_starts_is_flagged() {
    assert_flags_only(
        &Race {
            target: 0,
            max_step: 2,
            flaw: Flaw::None,
        },
        "initial_state_is_ongoing",
        "Win(P2)",
    );
}

#[test]
fn moves_offered_after_the_end_are_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::MovesAfterTheEnd),
        "legal_moves_nonempty_iff_ongoing",
        "2 legal moves",
    );
}

#[test]
fn the_same_player_moving_twice_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::SamePlayerMovesTwice),
        "legal_moves_are_accepted_and_pass_the_turn",
        "Player 1 is still to move",
    );
}

#[test]
fn a_move_accepted_after_the_end_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::PlaysOnAfterTheEnd),
        "illegal_moves_are_refused",
        "was accepted",
    );
}

#[test]
fn a_move_string_that_reads_back_differently_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::MoveStringsOffByOne),
        "move_strings_round_trip",
        "reads back as",
    );
}

#[test]
fn a_parser_that_panics_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::ParsePanicsOnNonsense),
        "move_of_string_never_panics",
        "panicked",
    );
}

#[test]
fn a_bound_one_move_too_small_is_flagged() {
    // Only steps of 1: every game lasts exactly 5 moves, but 4 are declared.
    let game = Race {
        target: 5,
        max_step: 1,
        flaw: Flaw::BoundOneTooSmall,
    };
    assert_flags_only(
        &game,
        "playouts_end_within_declared_bound",
        "max_game_length() is 4",
    );
}

#[test]
fn a_win_of_player_2_paid_to_player_1_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::EveryWinPaysPlayer1),
        "payoffs_agree_with_status",
        "Win(P2) has payoff 1",
    );
}

#[test]
fn an_estimate_as_large_as_a_win_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::EstimateClaimsAWin),
        "estimates_stay_between_payoffs",
        "estimate_value is 1",
    );
}

#[test]
fn state_keys_that_differ_for_equal_states_are_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::StateKeyFromACounter),
        "hash_and_state_key_agree_with_equality",
        "different state keys",
    );
}

#[test]
fn a_winning_move_that_does_not_win_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::WinningMoveThatDoesNotWin),
        "speed_hooks_agree_with_the_rules",
        "does not win at once",
    );
}

#[test]
fn legal_moves_into_that_does_not_clear_its_buffer_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::LegalMovesIntoKeepsOldMoves),
        "speed_hooks_agree_with_the_rules",
        "legal_moves_into disagrees",
    );
}

#[test]
fn non_losing_moves_that_drop_a_safe_move_are_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::NonLosingMovesDropsEverything),
        "speed_hooks_agree_with_the_rules",
        "dropped",
    );
}

#[test]
fn a_child_order_hint_that_disagrees_with_the_move_hint_is_flagged() {
    assert_flags_only(
        &Race::flawed(Flaw::ChildHintDisagrees),
        "speed_hooks_agree_with_the_rules",
        "child_order_hint gives",
    );
}

#[test]
#[should_panic(expected = "unknown law `no_such_law`")]
fn check_law_refuses_an_unknown_law_name() {
    check_law(
        &Race::flawed(Flaw::None),
        "no_such_law",
        &KitConfig::default(),
    );
}
