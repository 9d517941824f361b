//! Drawing positions for people: the game's own `string_of_state`, with each
//! player's pieces and name in their colour, the last move and whose turn it
//! is.
//!
//! Colours are always emitted as ANSI codes; the output stream
//! (`anstream::stdout`) strips them when it is not a terminal or when
//! `NO_COLOR` is set, so plain text reaches pipes and files.

use anstyle::{AnsiColor, Style};
use game_api::{Configurable, Game, Player, Status};

/// The colour of a player's pieces and name: red for player 1, yellow for
/// player 2, as on a Connect-4 set.
#[must_use]
pub fn player_style(player: Player) -> Style {
    let colour = match player {
        Player::P1 => AnsiColor::Red,
        Player::P2 => AnsiColor::Yellow,
    };
    Style::new().fg_color(Some(colour.into())).bold()
}

/// Style for headings and emphasis.
pub const STRONG: Style = Style::new().bold();
/// Style for secondary information.
pub const DIM: Style = Style::new().dimmed();

/// `text` wrapped in `style`'s ANSI codes.
#[must_use]
pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// The player's name as the game writes it (e.g. "Player 1 (X)"), in the
/// player's colour.
#[must_use]
pub fn name<G: Game + ?Sized>(game: &G, player: Player) -> String {
    paint(player_style(player), &game.string_of_player(player))
}

/// The piece symbol a game gives a player in its name: the text in the last
/// parentheses of `string_of_player`, e.g. `X` in "Player 1 (X)".
fn symbol(player_name: &str) -> Option<&str> {
    let open = player_name.rfind('(')?;
    let inner = player_name[open + 1..].strip_suffix(')')?.trim();
    (!inner.is_empty() && !inner.contains(char::is_whitespace)).then_some(inner)
}

/// Colours every standalone occurrence of each player's symbol in `board`
/// (one not touching a letter or digit, so `X` in "Xylophone" stays plain).
fn paint_symbols<G: Game + ?Sized>(game: &G, board: &str) -> String {
    let names = [Player::P1, Player::P2].map(|p| (p, game.string_of_player(p)));
    let symbols: Vec<(Player, &str)> = names
        .iter()
        .filter_map(|(p, n)| symbol(n).map(|s| (*p, s)))
        .collect();
    let mut out = String::with_capacity(board.len() * 2);
    let mut rest = board;
    let mut prev: Option<char> = None;
    'scan: while let Some(c) = rest.chars().next() {
        let standalone_start = !prev.is_some_and(char::is_alphanumeric);
        for (player, sym) in &symbols {
            if standalone_start && rest.starts_with(sym) {
                let after = rest[sym.len()..].chars().next();
                if !after.is_some_and(char::is_alphanumeric) {
                    out.push_str(&paint(player_style(*player), sym));
                    prev = sym.chars().last();
                    rest = &rest[sym.len()..];
                    continue 'scan;
                }
            }
        }
        out.push(c);
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Which game and position: "connect4 (cols=7 connect=4 rows=6) after 4 4 3".
#[must_use]
pub fn position_title<G: Game + Configurable>(game: &G, moves: &[String]) -> String {
    let position = if moves.is_empty() {
        "at the start".to_owned()
    } else {
        format!("after {}", moves.join(", "))
    };
    format!("{} ({}) {position}", G::NAME, game.options())
}

/// A status in words: "Player 1 (X) wins", "Draw", "Player 2 (O) to move".
#[must_use]
pub fn status_line<G: Game + ?Sized>(game: &G, status: Status) -> String {
    match status {
        Status::Win(p) => format!("{} wins", name(game, p)),
        Status::Draw => "Draw".to_owned(),
        Status::Ongoing(p) => format!("{} to move", name(game, p)),
    }
}

/// What is shown after every move: the last move (if any), the board in
/// the players' colours, and whose turn it is or the result. The status
/// line is added only when the game's drawing does not already name the
/// player to move (or the winner).
#[must_use]
pub fn frame<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    last: Option<(usize, Player, &G::Move)>,
) -> String {
    let mut out = String::new();
    if let Some((number, player, mv)) = last {
        let played = paint(STRONG, &game.string_of_move(mv));
        out.push_str(&format!(
            "Move {number}: {} played {played}\n",
            name(game, player)
        ));
    }
    let board = game.string_of_state(state);
    out.push_str(&paint_symbols(game, board.trim_end()));
    out.push('\n');
    let status = game.game_status(state);
    let named = match status {
        Status::Win(p) | Status::Ongoing(p) => board.contains(&game.string_of_player(p)),
        Status::Draw => board.to_lowercase().contains("draw"),
    };
    if !named {
        out.push_str(&status_line(game, status));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use anstream::adapter::strip_str;

    #[test]
    fn symbol_is_the_text_in_the_last_parentheses() {
        assert_eq!(symbol("Player 1 (X)"), Some("X"));
        assert_eq!(symbol("Red (R)"), Some("R"));
        assert_eq!(symbol("Player 1"), None);
        assert_eq!(symbol("Player 1 ()"), None);
        assert_eq!(symbol("Player (a b)"), None);
    }

    #[test]
    fn only_standalone_symbols_are_coloured() {
        let game = connect4::Connect4::default();
        let painted = paint_symbols(&game, "X . O\nXO Xylophone");
        let red = paint(player_style(Player::P1), "X");
        let yellow = paint(player_style(Player::P2), "O");
        assert_eq!(painted, format!("{red} . {yellow}\nXO Xylophone"));
        assert_eq!(strip_str(&painted).to_string(), "X . O\nXO Xylophone");
    }

    #[test]
    fn connect4_frames_look_like_this() {
        let game = connect4::Connect4::default();
        let states = game_api::replay(&game, &["4", "4", "3"]).unwrap();
        let mv = game.move_of_string("3").unwrap();
        let text = frame(&game, &states[3], Some((3, Player::P1, &mv)));
        assert!(
            text.contains(&paint(player_style(Player::P2), "O")),
            "pieces are coloured: {text:?}"
        );
        insta::assert_snapshot!(strip_str(&text).to_string());
    }

    #[test]
    fn a_finished_connect4_game_says_who_won() {
        let game = connect4::Connect4::default();
        let states = game_api::replay(&game, &["1", "2", "1", "2", "1", "2", "1"]).unwrap();
        let mv = game.move_of_string("1").unwrap();
        let text = frame(&game, &states[7], Some((7, Player::P1, &mv)));
        insta::assert_snapshot!(strip_str(&text).to_string());
    }

    #[test]
    fn nim_frames_look_like_this() {
        let game = nim::Nim::default();
        let text = frame(&game, &game.initial_state(), None);
        insta::assert_snapshot!(strip_str(&text).to_string());
    }

    #[test]
    fn yucky_chocolate_frames_look_like_this() {
        let game = yucky_chocolate::YuckyChocolate::default();
        let states = game_api::replay(&game, &["R 1"]).unwrap();
        let mv = game.move_of_string("R 1").unwrap();
        let text = frame(&game, &states[1], Some((1, Player::P1, &mv)));
        insta::assert_snapshot!(strip_str(&text).to_string());
    }
}
