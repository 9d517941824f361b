//! Tic-tac-toe against its published counts (standard 3 by 3 board):
//!
//! - 255,168 possible games: 131,184 won by the first player, 77,904 by the
//!   second, 46,080 drawn;
//! - 5,478 legal positions reachable by legal play, the empty board included;
//! - perfect play from the start is a draw;
//!
//! and the engine (`players::Engine`) agrees with the taught minimax
//! (`players::minimax`) on the exact value of every reachable position.
//! The counts come from the literature, never from this crate's output.

use game_api::{Game, Player, Status};
use players::{minimax::minimax, Engine, EngineConfig};
use std::collections::HashSet;
use tictactoe::{Board, TicTacToe};

/// Counts the games from `s` by how they end: `[P1 wins, P2 wins, draws]`.
fn count_games(game: &TicTacToe, s: &Board, ends: &mut [u64; 3]) {
    match game.game_status(s) {
        Status::Win(Player::P1) => ends[0] += 1,
        Status::Win(Player::P2) => ends[1] += 1,
        Status::Draw => ends[2] += 1,
        Status::Ongoing(_) => {
            for mv in game.legal_moves(s) {
                count_games(game, &game.next_state(s, &mv).unwrap(), ends);
            }
        }
    }
}

/// Every position reachable from `s` by legal play, `s` included.
fn reachable(game: &TicTacToe, s: &Board, seen: &mut HashSet<Board>) {
    if seen.insert(s.clone()) {
        for mv in game.legal_moves(s) {
            reachable(game, &game.next_state(s, &mv).unwrap(), seen);
        }
    }
}

#[test]
fn there_are_255168_games_131184_won_by_x_77904_by_o_and_46080_drawn() {
    let game = TicTacToe::default();
    let mut ends = [0; 3];
    count_games(&game, &game.initial_state(), &mut ends);
    assert_eq!(ends, [131_184, 77_904, 46_080]);
    assert_eq!(ends.iter().sum::<u64>(), 255_168);
}

#[test]
fn legal_play_reaches_5478_positions_the_empty_board_included() {
    let game = TicTacToe::default();
    let mut seen = HashSet::new();
    reachable(&game, &game.initial_state(), &mut seen);
    assert_eq!(seen.len(), 5_478);
}

#[test]
fn perfect_play_from_the_start_is_a_draw() {
    let game = TicTacToe::default();
    assert_eq!(minimax(&game, &game.initial_state()), 0);
    let mut engine = Engine::new(EngineConfig::default()).unwrap();
    assert_eq!(engine.solve(&game, &game.initial_state()).value, 0);
}

#[test]
fn the_engine_and_the_taught_minimax_agree_on_every_reachable_position() {
    let game = TicTacToe::default();
    let mut seen = HashSet::new();
    reachable(&game, &game.initial_state(), &mut seen);
    let mut engine = Engine::new(EngineConfig {
        table_megabytes: 16,
        ..EngineConfig::default()
    })
    .unwrap();
    let mut positions: Vec<Board> = seen.into_iter().collect();
    positions.sort_by_key(|s| std::cmp::Reverse(s.filled()));
    for s in &positions {
        assert_eq!(
            engine.solve(&game, s).value,
            minimax(&game, s),
            "{}",
            game.string_of_state(s)
        );
    }
}

/// Published results on other boards (m,n,k-games; Uiterwijk and van den
/// Herik, "The advantage of the initiative", Information Sciences 122(1),
/// 2000, summarised in Wikipedia's "m,n,k-game", section "Specific
/// results"): with k=3 the first player wins on every board of at least
/// 4 by 3; with k=4 the 5 by 5 board is a draw, and a draw on a board stays
/// a draw on any smaller one (same article, "Applying results to different
/// board sizes"), so 4 by 4 is a draw too.
#[test]
fn three_in_a_line_is_a_first_player_win_on_4x3_and_larger_and_4x4_k4_is_a_draw() {
    let mut engine = Engine::new(EngineConfig::default()).unwrap();
    for (rows, cols, k, value) in [(4, 3, 3, 1), (3, 4, 3, 1), (4, 4, 3, 1), (4, 4, 4, 0)] {
        let game = TicTacToe::new(rows, cols, k).unwrap();
        let solved = engine.solve(&game, &game.initial_state());
        assert_eq!(solved.value, value, "{rows}x{cols}, k={k}");
    }
}
