//! `games replay FILE`: shows a recorded game (a transcript, or a grader
//! fixture, which is a transcript with checks) again, move by move or all
//! at once.

use crate::registry::{run_game, GameCommand, Games};
use crate::render::{self, frame, paint, DIM};
use game_api::text::{count, read_line, EndlessLines, Line, LINE_LIMIT};
use game_api::transcript::Transcript;
use game_api::{echo, Configurable, Game, Player, ReplayError};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use thiserror::Error;

/// Show a recorded game (from `games play --record`, or a grader fixture).
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The transcript file (TOML).
    file: PathBuf,
    /// Show every move at once instead of waiting for Enter.
    #[arg(long)]
    all: bool,
}

/// Runs `games replay`.
///
/// # Errors
/// A file that cannot be read (not a regular file, too large, not UTF-8),
/// is not a transcript, names an unknown game or options the game refuses,
/// or holds a bad move: the message names the file (and the line and
/// column, for the text and the moves).
pub fn run(args: &Args, games: impl Games) -> anyhow::Result<ExitCode> {
    let transcript = Transcript::load(&args.file)?;
    let options: Vec<String> = transcript
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    run_game(
        games,
        &transcript.game,
        &options,
        Command {
            args,
            transcript: &transcript,
        },
    )
    .map_err(|e| {
        // A bad move names its place already; the game or its options
        // are named with the file.
        if e.is::<ShowError>() {
            e
        } else {
            e.context(args.file.display().to_string())
        }
    })
}

struct Command<'a> {
    args: &'a Args,
    transcript: &'a Transcript,
}

impl GameCommand for Command<'_> {
    type Output = ExitCode;
    fn run<G: Game + Configurable>(self, game: G) -> anyhow::Result<ExitCode> {
        let mut out = anstream::stdout();
        let piped = !io::stdin().is_terminal();
        show(
            &game,
            self.transcript,
            &self.args.file,
            self.args.all,
            piped,
            &mut EndlessLines::new(io::stdin().lock()),
            &mut out,
        )?;
        Ok(ExitCode::SUCCESS)
    }
}

/// A recording that cannot be shown.
#[derive(Debug, Error)]
pub enum ShowError {
    /// A move does not parse or is illegal where it is played.
    #[error("{at}")]
    Replay {
        /// Where the move is written: `file:line:column` (or the file).
        at: String,
        /// The first move that fails.
        source: ReplayError,
    },
    /// The terminal could not be written or read.
    #[error("cannot show the game")]
    Io(#[from] io::Error),
}

/// Shows `transcript` (read from `path`) in `game`: every position after
/// every move. With `all`, at once; otherwise waiting for Enter on `input`
/// before each move (`q` stops, end of input shows the rest at once);
/// `piped` input is not echoed, so a line break follows each answer.
///
/// # Errors
/// [`ShowError`] naming the file and the first bad move, or an I/O error.
pub fn show<G: Game + Configurable>(
    game: &G,
    transcript: &Transcript,
    path: &Path,
    all: bool,
    piped: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), ShowError> {
    // Check every move first, so a bad file is refused before anything is shown.
    let states = transcript
        .replay(game)
        .map_err(|source| ShowError::Replay {
            at: transcript
                .move_location(source.index())
                .map_or_else(|| path.display().to_string(), |at| at.to_string()),
            source,
        })?;
    writeln!(out, "{}", paint(render::STRONG, &heading(game, transcript)))?;
    writeln!(out, "{}", frame(game, &states[0], None))?;
    let mut waiting = !all;
    for (i, text) in transcript.moves.iter().enumerate() {
        if waiting {
            write!(
                out,
                "{}",
                paint(DIM, "Press Enter for the next move (q to stop): ")
            )?;
            out.flush()?;
            let line = read_line(input, LINE_LIMIT)?;
            if line == Line::End || piped {
                writeln!(out)?;
            }
            match line {
                Line::End => waiting = false,
                Line::Text(text) if text.trim().eq_ignore_ascii_case("q") => return Ok(()),
                _ => {}
            }
        }
        // `replay` parsed every move already; parsing is repeatable.
        let mv = game.move_of_string(text).ok();
        let player = game.game_status(&states[i]).to_move().unwrap_or(Player::P1);
        let last = mv.as_ref().map(|mv| (i + 1, player, mv));
        writeln!(out, "{}", frame(game, &states[i + 1], last))?;
    }
    let end = &states[transcript.moves.len()];
    let status = game.game_status(end);
    if status.is_over() {
        writeln!(out, "Game over: {}.", render::status_line(game, status))?;
    } else {
        writeln!(out, "The recording ends here, with the game unfinished.")?;
    }
    Ok(())
}

/// "connect4 (cols=7 connect=4 rows=6), 12 moves: Player 1 (X) human vs Player 2 (O) ai, seed 7".
fn heading<G: Game + Configurable>(game: &G, t: &Transcript) -> String {
    let mut text = format!(
        "{} ({}), {}",
        G::NAME,
        game.options(),
        count(t.moves.len() as u64, "move")
    );
    if let Some(players) = &t.players {
        text.push_str(&format!(
            ": {} {} vs {} {}",
            game.string_of_player(Player::P1),
            echo(&players.p1),
            game.string_of_player(Player::P2),
            echo(&players.p2)
        ));
    }
    if let Some(seed) = t.seed {
        text.push_str(&format!(", seed {seed}"));
    }
    text
}
