//! `games play`: a match between two players, each a person at the keyboard
//! or a program, with the board after every move, undo and hints for
//! people, a spinner and a search summary for programs, and the game
//! recorded as a transcript as it goes.
//!
//! The loop is generic over the game and over where input and output go,
//! so it runs the same in a terminal, from a pipe and in tests.

use crate::registry::{run_game, GameCommand, Games};
use crate::render::{self, frame, paint, DIM};
use crate::spec::{AiLimits, PlayerSpec};
use game_api::text::EndlessLines;
use game_api::transcript::{Players, Transcript, TranscriptError};
use game_api::{Configurable, Game, IllegalMove, Player, Status, Value};
use indicatif::{ProgressBar, ProgressStyle};
use players::{
    Agent, Decision, Engine, EngineConfig, Human, Minimax, RandomAgent, SearchInfo, TableSizeError,
};
use std::cell::{Cell, RefCell};
use std::hash::BuildHasher;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::mpsc;
use std::time::Duration;
use thiserror::Error;

/// Play a game: a person against the engine by default.
#[derive(Clone, Debug, clap::Args)]
#[command(after_help = crate::spec::levels_help())]
pub struct Args {
    /// The game (see `games list`).
    game: String,
    /// Game options, as name=value (e.g. rows=5 or piles=3,4,5).
    options: Vec<String>,
    /// Player 1: human, random, minimax[:depth=N], ai[:depth=N][:time=DURATION]
    /// or ai:level=N (levels below).
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    p1: PlayerSpec,
    /// Player 2, as for --p1.
    #[arg(long, default_value = "ai", value_name = "PLAYER")]
    p2: PlayerSpec,
    /// Seed for random players and the engine's tie-breaking, from 0 to
    /// 2^64-1 (default: a fresh one, recorded with --record).
    #[arg(long)]
    seed: Option<u64>,
    /// Record the game as a transcript (TOML, the grader's fixture format).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// Runs `games play`: exit code 0 when the game ends with a result, 3 when
/// input ends first, 130 on Ctrl-C.
///
/// # Errors
/// Bad game options, or [`PlayError`].
pub fn run(args: &Args, games: impl Games) -> anyhow::Result<ExitCode> {
    run_game(games, &args.game, &args.options, Command(args))
}

struct Command<'a>(&'a Args);

impl GameCommand for Command<'_> {
    type Output = ExitCode;
    fn run<G: Game + Configurable>(self, game: G) -> anyhow::Result<ExitCode> {
        Ok(ExitCode::from(play(&game, self.0)?.exit_code()))
    }
}

/// Plays `game` on the terminal as `args` say; returns the outcome.
fn play<G: Game + Configurable>(game: &G, args: &Args) -> Result<Outcome, PlayError> {
    // A fresh seed when none is given; below 2^63, so records hold it as a
    // TOML integer (larger ones are written as text).
    let seed = args
        .seed
        .unwrap_or_else(|| std::collections::hash_map::RandomState::new().hash_one(0u8) >> 1);
    let input_ended = Rc::new(Cell::new(false));
    let help = format!("Rules: {}\nMoves: {}", G::rules(), G::notation());
    let human = Rc::new(RefCell::new(
        Human::new(
            WatchEnd::new(
                EndlessLines::new(io::stdin().lock()),
                Rc::clone(&input_ended),
            ),
            io::stdout(),
        )
        .with_help(help),
    ));
    let ai_limits = [&args.p1, &args.p2]
        .into_iter()
        .find_map(|s| match s {
            PlayerSpec::Ai(limits) => Some(*limits),
            _ => None,
        })
        .unwrap_or_default();
    let mut session = Match {
        seats: [
            Seat {
                spec: args.p1.clone(),
                agent: agent(&args.p1, seed, &human)?,
            },
            Seat {
                spec: args.p2.clone(),
                agent: agent(&args.p2, seed.wrapping_add(1), &human)?,
            },
        ],
        hinter: Box::new(engine(ai_limits, seed, false)?),
        input_ended,
        record: args.record.clone(),
        seed,
        spinner: io::stderr().is_terminal(),
        piped: !io::stdin().is_terminal(),
    };
    // Ctrl-C: the record is already saved up to the last move.
    let _ = ctrlc::set_handler(|| {
        eprintln!("\nInterrupted: the game is abandoned.");
        std::process::exit(130);
    });
    session.run(game, &mut anstream::stdout())
}

/// The engine with `limits`, breaking ties at random from `seed` when asked.
fn engine<G: Game>(
    limits: AiLimits,
    seed: u64,
    random_ties: bool,
) -> Result<Engine<G>, TableSizeError> {
    Engine::new(EngineConfig {
        max_depth: limits.depth,
        time_limit: limits.time,
        seed,
        random_ties,
        ..EngineConfig::default()
    })
}

/// The agent for one seat; every human seat shares the one keyboard.
fn agent<'a, G: Game + 'a, H: Agent<G> + 'a>(
    spec: &PlayerSpec,
    seed: u64,
    human: &Rc<RefCell<H>>,
) -> Result<Box<dyn Agent<G> + 'a>, TableSizeError> {
    Ok(match program(spec, seed)? {
        Some(program) => program,
        None => Box::new(Shared(Rc::clone(human))),
    })
}

/// The agent for a seat played by a program (`None` for a person); `seed`
/// draws its random choices.
///
/// # Errors
/// [`TableSizeError`] when the engine's table cannot be allocated.
pub fn program<'a, G: Game + 'a>(
    spec: &PlayerSpec,
    seed: u64,
) -> Result<Option<Box<dyn Agent<G> + 'a>>, TableSizeError> {
    Ok(Some(match spec {
        PlayerSpec::Human => return Ok(None),
        PlayerSpec::Random => Box::new(RandomAgent::new(seed)),
        PlayerSpec::Minimax { depth } => Box::new(Minimax::new(Some(*depth))),
        PlayerSpec::Ai(limits) => Box::new(engine(*limits, seed, true)?),
        PlayerSpec::Level(level) => Box::new(Engine::new(level.config(seed))?),
    }))
}

/// One agent playing several seats (the keyboard in a human vs human game).
struct Shared<A>(Rc<RefCell<A>>);

impl<G: Game, A: Agent<G>> Agent<G> for Shared<A> {
    fn name(&self) -> String {
        self.0.borrow().name()
    }
    fn decide(&mut self, game: &G, state: &G::State) -> Decision<G::Move> {
        self.0.borrow_mut().decide(game, state)
    }
}

/// How long a program may think before the spinner appears.
const SPINNER_DELAY: Duration = Duration::from_millis(300);

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played to the end: won or drawn.
    Finished(Status),
    /// This player typed `quit`.
    Resigned(Player),
    /// Input ended (Ctrl-D or a closed pipe) before the game did.
    InputEnded,
}

impl Outcome {
    /// The process exit code: 0 for a game that ended with a result
    /// (including a resignation), 3 when input ran out mid-game.
    #[must_use]
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Finished(_) | Outcome::Resigned(_) => 0,
            Outcome::InputEnded => 3,
        }
    }
}

/// A match that could not go on.
#[derive(Debug, Error)]
pub enum PlayError {
    /// A program chose a move the game refuses: a bug in that player.
    #[error("{player} ({agent}) chose a move the game refuses")]
    AgentIllegal {
        /// The side that moved.
        player: Player,
        /// The agent's name.
        agent: String,
        /// What the game said.
        source: IllegalMove,
    },
    /// A program asked for something only people may ask (undo, hint).
    #[error("{player} ({agent}) is a program but asked to {what}")]
    AgentAsked {
        /// The side that asked.
        player: Player,
        /// The agent's name.
        agent: String,
        /// What it asked for.
        what: &'static str,
    },
    /// The record file could not be written.
    #[error("cannot record the game")]
    Record(#[from] TranscriptError),
    /// The terminal could not be written.
    #[error("cannot write the game")]
    Output(#[from] io::Error),
    /// The engine's table could not be allocated.
    #[error("cannot start the engine")]
    Engine(#[from] TableSizeError),
}

/// One side of the match: what was asked for and the agent playing it.
pub struct Seat<'a, G: Game> {
    /// The player as given on the command line.
    spec: PlayerSpec,
    /// Who chooses the moves.
    agent: Box<dyn Agent<G> + 'a>,
}

/// Everything a match needs besides the game.
pub struct Match<'a, G: Game> {
    /// Player 1's and player 2's seats.
    seats: [Seat<'a, G>; 2],
    /// The engine that answers `hint`.
    hinter: Box<dyn Agent<G> + 'a>,
    /// Set when human input has ended, so a resignation is told apart
    /// from `quit`.
    input_ended: Rc<Cell<bool>>,
    /// Where the transcript goes, if recording.
    record: Option<PathBuf>,
    /// The seed the match was made reproducible with.
    seed: u64,
    /// Whether to show a spinner while a program thinks.
    spinner: bool,
    /// Whether people's input is piped rather than typed (and echoed) at a
    /// terminal: then a line break follows each answer to keep lines apart.
    piped: bool,
}

impl<G: Game + Configurable> Match<'_, G> {
    /// Plays the match from the initial state, writing the board after
    /// every move to `out`.
    ///
    /// # Errors
    /// [`PlayError`] when a program misbehaves or output/recording fails.
    pub fn run(&mut self, game: &G, out: &mut dyn Write) -> Result<Outcome, PlayError> {
        let mut history: Vec<(G::State, G::Move)> = Vec::new();
        let mut state = game.initial_state();
        self.save(game, &history)?;
        writeln!(
            out,
            "{}",
            render::paint(render::STRONG, &self.heading(game))
        )?;
        if self.seats.iter().any(|s| s.spec.is_human()) {
            writeln!(
                out,
                "Moves: {}.\nCommands: help (or ?), undo, hint, quit.\n",
                G::notation()
            )?;
        }
        writeln!(out, "{}", frame(game, &state, None))?;
        loop {
            let player = match game.game_status(&state) {
                Status::Ongoing(p) => p,
                over => {
                    writeln!(out, "Game over: {}.", render::status_line(game, over))?;
                    return Ok(Outcome::Finished(over));
                }
            };
            let seat = &mut self.seats[usize::from(player.number() - 1)];
            let decision = if seat.spec.is_human() {
                out.flush()?;
                let decision = seat.agent.decide(game, &state);
                if self.piped {
                    writeln!(out)?;
                }
                decision
            } else {
                let message = format!(
                    "{} ({}) is thinking",
                    game.string_of_player(player),
                    seat.spec
                );
                think(self.spinner, message, || seat.agent.decide(game, &state))
            };
            match decision {
                Decision::Play(mv, info) => {
                    let next =
                        game.next_state(&state, &mv)
                            .map_err(|source| PlayError::AgentIllegal {
                                player,
                                agent: seat.agent.name(),
                                source,
                            })?;
                    if let Some(info) = &info {
                        writeln!(out, "{}", search_line(game, player, &seat.spec, info))?;
                    }
                    history.push((state, mv));
                    state = next;
                    self.save(game, &history)?;
                    let (_, mv) = history.last().expect("just pushed");
                    writeln!(
                        out,
                        "{}",
                        frame(game, &state, Some((history.len(), player, mv)))
                    )?;
                }
                Decision::Resign if self.input_ended.get() => {
                    writeln!(out, "\nEnd of input: the game is abandoned, unfinished.")?;
                    return Ok(Outcome::InputEnded);
                }
                Decision::Resign => {
                    let winner = render::name(game, player.other());
                    writeln!(
                        out,
                        "{} resigns. {winner} wins.",
                        render::name(game, player)
                    )?;
                    return Ok(Outcome::Resigned(player));
                }
                Decision::Undo if !seat.spec.is_human() => {
                    return Err(PlayError::AgentAsked {
                        player,
                        agent: seat.agent.name(),
                        what: "undo",
                    })
                }
                Decision::Hint if !seat.spec.is_human() => {
                    return Err(PlayError::AgentAsked {
                        player,
                        agent: seat.agent.name(),
                        what: "hint",
                    })
                }
                Decision::Undo => match history.iter().rposition(|(s, _)| mover(game, s) == player)
                {
                    None => writeln!(
                        out,
                        "Nothing to undo: {} has not moved yet.",
                        render::name(game, player)
                    )?,
                    Some(keep) => {
                        let taken: Vec<String> = history[keep..]
                            .iter()
                            .map(|(_, m)| game.string_of_move(m))
                            .collect();
                        state = history[keep].0.clone();
                        history.truncate(keep);
                        self.save(game, &history)?;
                        writeln!(out, "Took back {}.", taken.join(", "))?;
                        let last = history
                            .last()
                            .map(|(s, m)| (history.len(), mover(game, s), m));
                        writeln!(out, "{}", frame(game, &state, last))?;
                    }
                },
                Decision::Hint => {
                    let hint = think(self.spinner, "Looking for a hint".into(), || {
                        self.hinter.decide(game, &state)
                    });
                    match hint {
                        Decision::Play(mv, info) => {
                            let why = info.map_or_else(String::new, |i| {
                                format!(" ({})", value_words(game, &i))
                            });
                            writeln!(
                                out,
                                "Hint: the engine would play {}{why}.",
                                game.string_of_move(&mv)
                            )?;
                        }
                        _ => writeln!(out, "No hint: the engine has no move to suggest.")?,
                    }
                }
            }
        }
    }

    /// "connect4 (cols=7 connect=4 rows=6): Player 1 (X) human vs Player 2 (O) ai:time=900ms".
    fn heading(&self, game: &G) -> String {
        let [p1, p2] = &self.seats;
        format!(
            "{} ({}): {} {} vs {} {}",
            G::NAME,
            game.options(),
            game.string_of_player(Player::P1),
            p1.spec,
            game.string_of_player(Player::P2),
            p2.spec
        )
    }

    /// Writes the transcript so far, if recording: after every move, so an
    /// interrupted game is kept up to its last move.
    fn save(&self, game: &G, history: &[(G::State, G::Move)]) -> Result<(), TranscriptError> {
        let Some(path) = &self.record else {
            return Ok(());
        };
        let moves = history
            .iter()
            .map(|(_, m)| game.string_of_move(m))
            .collect();
        let mut t = Transcript::new(G::NAME, game.options(), moves);
        t.players = Some(Players {
            p1: self.seats[0].spec.to_string(),
            p2: self.seats[1].spec.to_string(),
        });
        t.seed = Some(self.seed);
        t.save(path)
    }
}

/// The player to move in `state` (which is ongoing: a move was played there).
fn mover<G: Game>(game: &G, state: &G::State) -> Player {
    game.game_status(state).to_move().unwrap_or(Player::P1)
}

/// A value in words: "value +3 to Player 1 (X), estimated" or
/// "value -18: Player 2 (O) wins with best play".
pub fn value_words<G: Game + ?Sized>(game: &G, info: &SearchInfo) -> String {
    let value = signed(info.value);
    if !info.exact {
        return format!(
            "value {value} to {}, estimated",
            game.string_of_player(Player::P1)
        );
    }
    match info.value.signum() {
        1 => format!(
            "value {value}: {} wins with best play",
            game.string_of_player(Player::P1)
        ),
        -1 => format!(
            "value {value}: {} wins with best play",
            game.string_of_player(Player::P2)
        ),
        _ => format!("value {value}: a draw with best play"),
    }
}

/// `+3`, `-1`, `0`.
#[must_use]
pub fn signed(value: Value) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        value.to_string()
    }
}

/// "Player 2 (O) (ai:time=900ms) found: value ..., depth 9, 152331 nodes, 0.84 s".
fn search_line<G: Game>(game: &G, player: Player, spec: &PlayerSpec, info: &SearchInfo) -> String {
    paint(
        DIM,
        &format!(
            "{} ({spec}) found: {}; depth {}, {} nodes, {:.2} s",
            game.string_of_player(player),
            value_words(game, info),
            info.depth,
            info.nodes,
            info.time.as_secs_f64()
        ),
    )
}

/// Runs `work`, showing a spinner with `message` on standard error if it
/// takes longer than a moment and `show` is set (standard error is a
/// terminal).
fn think<T>(show: bool, message: String, work: impl FnOnce() -> T) -> T {
    if !show {
        return work();
    }
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            if wait.recv_timeout(SPINNER_DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                let spinner = ProgressBar::new_spinner().with_message(message);
                if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}… {elapsed}") {
                    spinner.set_style(style);
                }
                spinner.enable_steady_tick(Duration::from_millis(100));
                let _ = wait.recv();
                spinner.finish_and_clear();
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// Input that remembers whether it has ended (or cannot be read), so the
/// match can tell end of input from `quit` (both make a human resign).
pub struct WatchEnd<R> {
    inner: R,
    ended: Rc<Cell<bool>>,
}

impl<R> WatchEnd<R> {
    /// Watches `inner`; `ended` becomes true once it reports end of input.
    pub fn new(inner: R, ended: Rc<Cell<bool>>) -> Self {
        WatchEnd { inner, ended }
    }
}

/// Whether a read error means the input is gone (not a retry).
fn lost(e: &io::Error) -> bool {
    e.kind() != io::ErrorKind::Interrupted
}

impl<R: Read> Read for WatchEnd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(0) if !buf.is_empty() => {
                self.ended.set(true);
                Ok(0)
            }
            Err(e) if lost(&e) => {
                // A folder as stdin...: abandoned, never resigned for the person.
                self.ended.set(true);
                Err(e)
            }
            other => other,
        }
    }
}

impl<R: BufRead> BufRead for WatchEnd<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let ended = &self.ended;
        match self.inner.fill_buf() {
            Ok(buf) => {
                if buf.is_empty() {
                    ended.set(true);
                }
                Ok(buf)
            }
            Err(e) => {
                if lost(&e) {
                    ended.set(true);
                }
                Err(e)
            }
        }
    }
    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4::Connect4;

    /// A program that always answers the same.
    struct Stubborn<M>(Decision<M>);

    impl<G: Game> Agent<G> for Stubborn<G::Move> {
        fn name(&self) -> String {
            "stubborn".into()
        }
        fn decide(&mut self, _game: &G, _state: &G::State) -> Decision<G::Move> {
            self.0.clone()
        }
    }

    fn column(text: &str) -> <Connect4 as Game>::Move {
        Connect4::default().move_of_string(text).unwrap()
    }

    fn session<'a>(
        p1: (PlayerSpec, Box<dyn Agent<Connect4> + 'a>),
        p2: (PlayerSpec, Box<dyn Agent<Connect4> + 'a>),
        input_ended: Rc<Cell<bool>>,
    ) -> Match<'a, Connect4> {
        Match {
            seats: [
                Seat {
                    spec: p1.0,
                    agent: p1.1,
                },
                Seat {
                    spec: p2.0,
                    agent: p2.1,
                },
            ],
            hinter: Box::new(
                engine(
                    AiLimits {
                        depth: Some(2),
                        time: None,
                    },
                    0,
                    false,
                )
                .unwrap(),
            ),
            input_ended,
            record: None,
            seed: 0,
            spinner: false,
            piped: true,
        }
    }

    /// Plays people's `input` for both sides of Connect-4; returns the
    /// outcome and everything shown.
    fn people(input: &'static str) -> (Outcome, String) {
        let ended = Rc::new(Cell::new(false));
        let keyboard = Rc::new(RefCell::new(Human::new(
            WatchEnd::new(input.as_bytes(), Rc::clone(&ended)),
            Vec::new(),
        )));
        let game = Connect4::default();
        let mut m = session(
            (
                PlayerSpec::Human,
                agent(&PlayerSpec::Human, 0, &keyboard).unwrap(),
            ),
            (
                PlayerSpec::Human,
                agent(&PlayerSpec::Human, 0, &keyboard).unwrap(),
            ),
            ended,
        );
        let mut out = Vec::new();
        let outcome = m.run(&game, &mut out).unwrap();
        (
            outcome,
            anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string(),
        )
    }

    #[test]
    fn undo_takes_back_the_askers_move_and_the_reply() {
        let (outcome, shown) = people("4\n3\nundo\nquit\n");
        assert_eq!(outcome, Outcome::Resigned(Player::P1));
        assert!(shown.contains("Took back 4, 3."), "{shown}");
        let after_undo = shown.split("Took back").nth(1).unwrap();
        let start = Connect4::default().string_of_state(&Connect4::default().initial_state());
        assert!(
            after_undo.contains(start.trim_end()),
            "back at the start: {after_undo}"
        );
        assert!(!after_undo.contains("Move 1:"), "{after_undo}");
    }

    #[test]
    fn end_of_input_is_told_apart_from_quit() {
        assert_eq!(people("4\n").0, Outcome::InputEnded);
        assert_eq!(people("4\nquit\n").0, Outcome::Resigned(Player::P2));
        assert_eq!(Outcome::InputEnded.exit_code(), 3);
        assert_eq!(Outcome::Resigned(Player::P2).exit_code(), 0);
    }

    #[test]
    fn a_game_played_to_the_end_says_who_won() {
        let (outcome, shown) = people("1\n2\n1\n2\n1\n2\n1\n");
        assert_eq!(outcome, Outcome::Finished(Status::Win(Player::P1)));
        assert!(
            shown.trim_end().ends_with("Game over: Player 1 (X) wins."),
            "{shown}"
        );
    }

    #[test]
    fn a_program_playing_an_illegal_move_is_an_error_not_obeyed() {
        // Both always play column 1: the seventh stone does not fit.
        let game = Connect4::default();
        let mut m = session(
            (
                PlayerSpec::Random,
                Box::new(Stubborn(Decision::Play(column("1"), None))),
            ),
            (
                PlayerSpec::Random,
                Box::new(Stubborn(Decision::Play(column("1"), None))),
            ),
            Rc::new(Cell::new(false)),
        );
        let mut shown = Vec::new();
        let err = m.run(&game, &mut shown).unwrap_err();
        assert!(
            matches!(
                err,
                PlayError::AgentIllegal {
                    player: Player::P1,
                    ..
                }
            ),
            "{err}"
        );
        assert!(String::from_utf8(shown).unwrap().contains("Move 6:"));
    }

    #[test]
    fn a_program_asking_for_undo_or_hint_is_an_error() {
        for (decision, what) in [(Decision::Undo, "undo"), (Decision::Hint, "hint")] {
            let game = Connect4::default();
            let mut m = session(
                (PlayerSpec::Random, Box::new(Stubborn(decision))),
                (PlayerSpec::Random, Box::new(Stubborn(Decision::Resign))),
                Rc::new(Cell::new(false)),
            );
            let err = m.run(&game, &mut Vec::new()).unwrap_err();
            assert!(
                matches!(err, PlayError::AgentAsked { what: w, .. } if w == what),
                "{err}"
            );
        }
    }
}
