//! `games list`: what can be played, with each game's options (and their
//! defaults) and its move notation, so nobody has to read the source to
//! start a game.

use crate::registry::{run_game, GameCommand, Games};
use crate::render::{paint, DIM, STRONG};
use game_api::{Configurable, Game};
use std::fmt::Write;
use std::process::ExitCode;

/// Runs `games list`: every game's entry, in the registry's order.
///
/// # Errors
/// Only if a game cannot be built with its defaults (a bug) or output fails.
pub fn run(games: impl Games) -> anyhow::Result<ExitCode> {
    let mut out = anstream::stdout();
    for name in games.names() {
        let text = run_game(games, name, &[] as &[&str], Entry)?;
        std::io::Write::write_all(&mut out, format!("{text}\n").as_bytes())?;
    }
    std::io::Write::write_all(&mut out, crate::spec::levels_help().as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

struct Entry;

impl GameCommand for Entry {
    type Output = String;
    fn run<G: Game + Configurable>(self, _game: G) -> anyhow::Result<String> {
        Ok(entry::<G>())
    }
}

/// One game's entry: its name, options with defaults and meaning, and
/// notation.
#[must_use]
pub fn entry<G: Configurable>() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", paint(STRONG, G::NAME));
    let specs = G::option_specs();
    if specs.is_empty() {
        let _ = writeln!(out, "  options:  none");
    } else {
        let _ = writeln!(out, "  options:");
        let width = specs
            .iter()
            .map(|s| s.name.len() + s.default.len() + 1)
            .max()
            .unwrap_or(0);
        for spec in &specs {
            let setting = format!("{}={}", spec.name, spec.default);
            let _ = writeln!(out, "    {setting:<width$}  {}", paint(DIM, spec.help));
        }
    }
    let _ = writeln!(out, "  moves:    {}", G::notation());
    let example = specs
        .first()
        .map_or(String::new(), |s| format!(" {}={}", s.name, s.default));
    let _ = writeln!(out, "  play:     games play {}{example}", G::NAME);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use anstream::adapter::strip_str;

    #[test]
    fn entries_name_every_option_with_its_default_and_the_notation() {
        let text = strip_str(&entry::<connect4::Connect4>()).to_string();
        for spec in connect4::Connect4::option_specs() {
            assert!(
                text.contains(&format!("{}={}", spec.name, spec.default)),
                "{text}"
            );
        }
        assert!(text.contains(connect4::Connect4::notation()), "{text}");
        insta::assert_snapshot!(text);
    }
}
