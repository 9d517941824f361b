//! Laws of Yucky Chocolate's rules and notation, on random bars and text.

use game_api::Game;
use proptest::prelude::*;
use yucky_chocolate::{Bar, Break, YuckyChocolate};

/// A random bar of 1 to 12 rows and columns (not 1x1).
fn any_game() -> impl Strategy<Value = YuckyChocolate> {
    (1u32..=12, 1u32..=12)
        .prop_filter("a 1x1 bar is refused", |&(r, c)| (r, c) != (1, 1))
        .prop_map(|(r, c)| YuckyChocolate::new(r, c).unwrap())
}

fn any_break() -> impl Strategy<Value = Break> {
    prop_oneof![
        (1u32..=14).prop_map(|n| Break::rows(n).unwrap()),
        (1u32..=14).prop_map(|n| Break::cols(n).unwrap())
    ]
}

/// A position reached by playing the legal moves picked by `picks`.
fn position(game: &YuckyChocolate, picks: &[usize]) -> Bar {
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
    fn next_state_accepts_exactly_the_legal_moves_and_shrinks_the_bar_by_that_much(
        game in any_game(),
        picks in prop::collection::vec(any::<usize>(), 0..8),
        mv in any_break(),
    ) {
        let s = position(&game, &picks);
        let legal = game.legal_moves(&s).contains(&mv);
        match game.next_state(&s, &mv) {
            Ok(next) => {
                prop_assert!(legal, "{mv:?} accepted in {s:?} but not listed");
                let expected = match mv {
                    Break::Rows(n) => (s.rows() - n.get(), s.cols()),
                    Break::Cols(n) => (s.rows(), s.cols() - n.get()),
                };
                prop_assert_eq!((next.rows(), next.cols()), expected);
                prop_assert!(next.rows() >= 1 && next.cols() >= 1);
                prop_assert_eq!(next.to_move(), s.to_move().other());
            }
            Err(e) => {
                prop_assert!(!legal, "legal {mv:?} refused in {s:?}: {e}");
                prop_assert!(!e.reason.is_empty());
            }
        }
    }

    #[test]
    fn every_move_reads_back_from_its_string(n in 1u32..=u32::MAX, rows in any::<bool>()) {
        let game = YuckyChocolate::default();
        let mv = if rows { Break::rows(n) } else { Break::cols(n) }.unwrap();
        prop_assert_eq!(game.move_of_string(&game.string_of_move(&mv)), Ok(mv));
    }

    #[test]
    fn forgiving_notation_parses_to_a_move_that_writes_back_canonically(
        letter in "[rRcC]",
        n in 1u32..=999,
        left in "[ \t]{0,3}",
        middle in "[ \t]{0,3}",
        right in "[ \t]{0,3}",
    ) {
        let game = YuckyChocolate::default();
        let mv = game.move_of_string(&format!("{left}{letter}{middle}{n}{right}")).unwrap();
        prop_assert_eq!(game.string_of_move(&mv), format!("{} {n}", letter.to_uppercase()));
    }

    #[test]
    fn move_of_string_answers_any_text_without_panicking(text in "\\PC{0,16}|[rRcC0-9 ]{0,30}") {
        let game = YuckyChocolate::default();
        if let Ok(mv) = game.move_of_string(&text) {
            prop_assert_eq!(game.move_of_string(&game.string_of_move(&mv)), Ok(mv));
        }
    }
}
