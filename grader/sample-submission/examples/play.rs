//! This game on the course's command line: `cargo run --example play -- play`
//! plays it against the engine; `-- tree`, `-- analyse --moves 2:1`,
//! `-- perft --depth 3`, `-- list`, `-- --help` and the rest work too.

fn main() -> std::process::ExitCode {
    games::main_for::<my_nim::Submission>()
}
