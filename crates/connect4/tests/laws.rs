//! Laws of Connect-4 checked on random games: the rules and every hook are
//! symmetric under mirroring the board, and transposed move orders reach
//! the same position with the same key.

use connect4::{Column, Connect4, Position};
use game_api::Game;
use proptest::prelude::*;

/// Plays `choices` (each picks one of the legal moves, modulo their number)
/// until the game ends; returns the columns played, as indices.
fn random_game(g: &Connect4, choices: &[usize]) -> Vec<u8> {
    let mut s = g.initial_state();
    let mut played = Vec::new();
    for &c in choices {
        let legal = g.legal_moves(&s);
        if legal.is_empty() {
            break;
        }
        let m = legal[c % legal.len()];
        s = g.next_state(&s, &m).unwrap();
        played.push(m.index());
    }
    played
}

fn replay(g: &Connect4, columns: &[u8]) -> Option<Position> {
    columns.iter().try_fold(g.initial_state(), |s, &c| {
        g.next_state(&s, &Column::from_index(c)).ok()
    })
}

fn games() -> impl Strategy<Value = (Connect4, Vec<usize>)> {
    let boards = prop_oneof![
        Just((6, 7, 4)),
        Just((6, 7, 4)),
        Just((4, 4, 3)),
        Just((5, 6, 5)),
        Just((7, 8, 4)),
        Just((3, 9, 3)),
    ];
    (boards, prop::collection::vec(0usize..64, 0..64)).prop_map(
        |((rows, cols, connect), choices)| (Connect4::new(rows, cols, connect).unwrap(), choices),
    )
}

proptest! {
    #[test]
    fn mirrored_games_agree_on_status_values_and_hooks((g, choices) in games()) {
        let columns = random_game(&g, &choices);
        let last = u8::try_from(g.cols() - 1).unwrap();
        let mirror = |c: Column| Column::from_index(last - c.index());
        let mirrored: Vec<u8> = columns.iter().map(|&c| last - c).collect();
        let (s, m) = (replay(&g, &columns).unwrap(), replay(&g, &mirrored).unwrap());
        prop_assert_eq!(g.game_status(&s), g.game_status(&m));
        prop_assert_eq!(g.estimate_value(&s), g.estimate_value(&m));
        prop_assert_eq!(g.value_bounds(&s), g.value_bounds(&m));
        prop_assert_eq!(g.winning_move(&s).is_some(), g.winning_move(&m).is_some());
        let mut a = Vec::new();
        let mut b = Vec::new();
        g.non_losing_moves_into(&s, &mut a);
        g.non_losing_moves_into(&m, &mut b);
        let mut a: Vec<Column> = a.into_iter().map(mirror).collect();
        a.sort();
        b.sort();
        prop_assert_eq!(a, b);
        for mv in g.legal_moves(&s) {
            prop_assert_eq!(g.move_order_hint(&s, &mv), g.move_order_hint(&m, &mirror(mv)));
        }
    }

    #[test]
    fn swapping_two_moves_of_one_player_reaches_the_same_position((g, choices) in games(), at in 0usize..64) {
        let mut columns = random_game(&g, &choices);
        if replay(&g, &columns).is_some_and(|s| g.game_status(&s).is_over()) {
            // Keep the game going: drop the move that ended it.
            columns.pop();
        }
        let original = replay(&g, &columns).unwrap();
        // Moves i and i + 2 are the same player's; swapping them keeps every
        // column's stacking order when move i + 1 is in neither column.
        let swappable = |i: usize| {
            columns[i] != columns[i + 2] && columns[i + 1] != columns[i] && columns[i + 1] != columns[i + 2]
        };
        let candidates = columns.len().saturating_sub(2);
        let i = (0..candidates).map(|k| (at + k) % candidates).find(|&i| swappable(i));
        prop_assume!(i.is_some());
        let i = i.unwrap();
        let mut swapped = columns.clone();
        swapped.swap(i, i + 2);
        let transposed = replay(&g, &swapped).expect("every prefix is a subset of a position without a line");
        prop_assert_eq!(transposed, original);
        prop_assert_eq!(g.state_key(&transposed), g.state_key(&original));
    }

    #[test]
    fn state_from_digits_replays_the_same_game(choices in prop::collection::vec(0usize..64, 0..42)) {
        let g = Connect4::default();
        let columns = random_game(&g, &choices);
        let digits: String = columns.iter().map(|c| char::from(b'1' + c)).collect();
        prop_assert_eq!(g.state_from_digits(&digits).unwrap(), replay(&g, &columns).unwrap());
    }
}

#[test]
fn estimate_favours_the_player_with_a_threat() {
    let g = Connect4::default();
    // X has three in the bottom row with both ends open (two winning spots),
    // O two stones in column 1.
    let s = g.state_from_digits("41516").unwrap();
    assert!(g.estimate_value(&s) > 0, "{}", g.string_of_state(&s));
    // The same shape for O, X's stones in columns 1 and 2.
    let s = g.state_from_digits("141526").unwrap();
    assert!(g.estimate_value(&s) < 0, "{}", g.string_of_state(&s));
    assert_eq!(g.estimate_value(&g.initial_state()), 0);
}

#[test]
fn move_order_hint_prefers_threats_then_the_centre() {
    let g = Connect4::default();
    let hint = |s: &Position, n| g.move_order_hint(s, &Column::from_number(n).unwrap());
    let empty = g.initial_state();
    assert!(
        hint(&empty, 4) > hint(&empty, 3)
            && hint(&empty, 3) > hint(&empty, 2)
            && hint(&empty, 2) > hint(&empty, 1)
    );
    assert_eq!(hint(&empty, 3), hint(&empty, 5));
    // X to move with stones in columns 3 and 4 of the bottom row: column 2
    // or 5 makes three in a row with two open ends, beating the centre.
    let s = g.state_from_digits("4131").unwrap();
    assert!(hint(&s, 5) > hint(&s, 4), "{}", g.string_of_state(&s));
    assert!(hint(&s, 2) > hint(&s, 4));
}
