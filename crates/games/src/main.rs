//! `games`: the course's program, with every registered game. Everything
//! is in the library (`games::main`), which a student's own game reaches
//! through `games::main_for`.

fn main() -> std::process::ExitCode {
    games::main()
}
