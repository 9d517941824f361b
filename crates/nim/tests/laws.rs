//! Laws of Nim's rules and notation, checked on random positions and text.

use game_api::Configurable;
use game_api::{Game, Options};
use nim::{Nim, NimMove, NimState, Rule};
use proptest::prelude::*;

/// A random game: 1 to 4 piles of 1 to 8 stones, a limit of 0 (none) to 4.
fn any_game() -> impl Strategy<Value = Nim> {
    (
        prop::collection::vec(1u32..=8, 1..=4),
        0u32..=4,
        prop_oneof![Just(Rule::Misere), Just(Rule::Normal)],
    )
        .prop_map(|(piles, k, rule)| Nim::new(&piles, k, rule).unwrap())
}

/// A position reached by playing the legal moves picked by `picks`.
fn position(game: &Nim, picks: &[usize]) -> NimState {
    let mut s = game.initial_state();
    for &pick in picks {
        let moves = game.legal_moves(&s);
        if moves.is_empty() {
            break;
        }
        s = game.next_state(&s, &moves[pick % moves.len()]).unwrap();
    }
    s
}

proptest! {
    #[test]
    fn next_state_accepts_exactly_the_legal_moves_and_takes_only_from_that_pile(
        game in any_game(),
        picks in prop::collection::vec(any::<usize>(), 0..12),
        pile in 1usize..=5,
        take in 1u32..=10,
    ) {
        let s = position(&game, &picks);
        let mv = NimMove::new(pile, take).unwrap();
        let legal = game.legal_moves(&s).contains(&mv);
        match game.next_state(&s, &mv) {
            Ok(next) => {
                prop_assert!(legal, "{mv:?} accepted in {s:?} but not listed");
                for (i, (&before, &after)) in s.piles().iter().zip(next.piles()).enumerate() {
                    let expected = if i + 1 == pile { before - take } else { before };
                    prop_assert_eq!(after, expected);
                }
                prop_assert_eq!(next.to_move(), s.to_move().other());
            }
            Err(e) => {
                prop_assert!(!legal, "legal {mv:?} refused in {s:?}: {e}");
                prop_assert!(!e.reason.is_empty());
            }
        }
    }

    #[test]
    fn every_move_reads_back_from_its_string(game in any_game(), pile in 1usize..=4, take in 1u32..=u32::MAX) {
        prop_assume!(pile <= game.initial_state().piles().len());
        let mv = NimMove::new(pile, take).unwrap();
        prop_assert_eq!(game.move_of_string(&game.string_of_move(&mv)), Ok(mv));
    }

    #[test]
    fn forgiving_notation_parses_to_a_move_that_writes_back_canonically(
        pile in 1usize..=3,
        take in 1u32..=99,
        left in " {0,3}",
        sep in prop_oneof![Just(":"), Just(" "), Just(" : "), Just("\t")],
        right in " {0,3}",
    ) {
        let game = Nim::from_options(&Options::new().with("piles", "9,9,9")).unwrap();
        let text = format!("{left}{pile}{sep}{take}{right}");
        let mv = game.move_of_string(&text).unwrap();
        prop_assert_eq!((mv.pile(), mv.take()), (pile, take));
        prop_assert_eq!(game.string_of_move(&mv), format!("{pile}:{take}"));
    }

    #[test]
    fn move_of_string_answers_any_text_without_panicking(game in any_game(), text in "\\PC{0,16}|[0-9: ]{0,30}") {
        if let Ok(mv) = game.move_of_string(&text) {
            prop_assert_eq!(game.move_of_string(&game.string_of_move(&mv)), Ok(mv));
        }
    }
}
