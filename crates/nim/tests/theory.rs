//! Nim against its published theory. An exhaustive, memoised search written
//! here (it only uses the `Game` trait) finds who wins each starting
//! position with perfect play, and must agree with:
//!
//! - one pile, at most k per take: under normal play the player to move
//!   loses exactly when n mod (k+1) = 0, under misère exactly when
//!   n mod (k+1) = 1 (the subtraction game);
//! - several piles, no limit, normal play: the player to move loses exactly
//!   when the nim-sum (xor) of the piles is 0 (Bouton, 1901);
//! - several piles, no limit, misère: the player to move loses exactly when
//!   the nim-sum is 1 if every pile has at most one stone, and when it is 0
//!   otherwise (Bouton, 1901);
//! - several piles, at most k per take, normal play: the player to move
//!   loses exactly when the xor of (n mod (k+1)) over the piles is 0
//!   (Sprague-Grundy).

use game_api::{Game, Player, Status};
use nim::{Nim, Rule};
use std::collections::HashMap;

/// Who wins from `state` with perfect play on both sides.
fn winner(
    game: &Nim,
    state: &<Nim as Game>::State,
    memo: &mut HashMap<<Nim as Game>::State, Player>,
) -> Player {
    if let Some(&known) = memo.get(state) {
        return known;
    }
    let result = match game.game_status(state) {
        Status::Win(p) => p,
        Status::Draw => panic!("Nim has no draws, but {state:?} is one"),
        Status::Ongoing(mover) => {
            let mover_wins = game.legal_moves(state).iter().any(|m| {
                let next = game.next_state(state, m).expect("legal moves are accepted");
                winner(game, &next, memo) == mover
            });
            if mover_wins {
                mover
            } else {
                mover.other()
            }
        }
    };
    memo.insert(*state, result);
    result
}

/// Whether the first player loses `piles` with perfect play, by search.
fn first_player_loses(piles: &[u32], max_take: u32, rule: Rule) -> bool {
    let game = Nim::new(piles, max_take, rule).unwrap();
    winner(&game, &game.initial_state(), &mut HashMap::new()) == Player::P2
}

/// Every vector of `len` piles with 1 to `most` stones each.
fn pile_vectors(len: usize, most: u32) -> Vec<Vec<u32>> {
    (0..len).fold(vec![vec![]], |vectors, _| {
        vectors
            .iter()
            .flat_map(|v| (1..=most).map(move |n| [v.clone(), vec![n]].concat()))
            .collect()
    })
}

fn nim_sum(piles: &[u32]) -> u32 {
    piles.iter().fold(0, |x, &n| x ^ n)
}

#[test]
fn one_pile_normal_play_is_lost_exactly_when_n_mod_k_plus_1_is_0() {
    for k in 1..=8 {
        for n in 1..=40 {
            assert_eq!(
                first_player_loses(&[n], k, Rule::Normal),
                n % (k + 1) == 0,
                "n={n} k={k}"
            );
        }
    }
}

#[test]
fn one_pile_misere_is_lost_exactly_when_n_mod_k_plus_1_is_1() {
    for k in 1..=8 {
        for n in 1..=40 {
            assert_eq!(
                first_player_loses(&[n], k, Rule::Misere),
                n % (k + 1) == 1,
                "n={n} k={k}"
            );
        }
    }
}

#[test]
fn the_classic_lab_game_is_lost_by_the_first_player() {
    // 7 stones, take 1 or 2, last taker loses: 7 mod 3 = 1.
    let game = Nim::default();
    assert_eq!(
        winner(&game, &game.initial_state(), &mut HashMap::new()),
        Player::P2
    );
}

#[test]
fn one_pile_without_limit_is_won_by_taking_all_or_all_but_one() {
    for n in 1..=40 {
        assert!(!first_player_loses(&[n], 0, Rule::Normal), "normal, n={n}");
        assert_eq!(
            first_player_loses(&[n], 0, Rule::Misere),
            n == 1,
            "misère, n={n}"
        );
    }
}

#[test]
fn normal_play_is_lost_exactly_when_the_nim_sum_is_0() {
    let vectors = (1..=3)
        .flat_map(|len| pile_vectors(len, 6))
        .chain(pile_vectors(4, 4));
    for piles in vectors {
        assert_eq!(
            first_player_loses(&piles, 0, Rule::Normal),
            nim_sum(&piles) == 0,
            "{piles:?}"
        );
    }
}

#[test]
fn misere_is_lost_by_bouton_s_misere_rule() {
    let vectors = (1..=3)
        .flat_map(|len| pile_vectors(len, 6))
        .chain(pile_vectors(4, 4));
    for piles in vectors {
        let all_small = piles.iter().all(|&n| n <= 1);
        let theory = if all_small {
            nim_sum(&piles) == 1
        } else {
            nim_sum(&piles) == 0
        };
        assert_eq!(
            first_player_loses(&piles, 0, Rule::Misere),
            theory,
            "{piles:?}"
        );
    }
}

#[test]
fn normal_play_with_a_limit_is_lost_exactly_when_the_grundy_values_xor_to_0() {
    for k in 1..=3 {
        for piles in (2..=3).flat_map(|len| pile_vectors(len, 7)) {
            let grundy: Vec<u32> = piles.iter().map(|n| n % (k + 1)).collect();
            assert_eq!(
                first_player_loses(&piles, k, Rule::Normal),
                nim_sum(&grundy) == 0,
                "{piles:?}, k={k}"
            );
        }
    }
}
