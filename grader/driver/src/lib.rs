//! # The driver: what a submission is built into
//!
//! The grader never loads student code. It builds each submission into a
//! small program whose `main` is one line,
//!
//! ```no_run
//! # type Submission = nim::Nim;
//! fn main() { grader_driver::run::<Submission>() }
//! ```
//!
//! and questions it over a pipe: each request is one call of the `Game`
//! interface ([`protocol`]), each reply what the student's code returned.
//! The driver holds the states and moves; the grader names them by number.
//! It decides nothing: every law, every search and every comparison with
//! an answer key runs in the grader, on a proxy game whose methods ask the
//! driver.
//!
//! The sandbox (no files outside a scratch directory, no network, no new
//! processes, resource limits) is applied by the grader's launcher before
//! this program starts; the driver only keeps the protocol channel away
//! from student output: the real stdout becomes a private descriptor and
//! descriptor 1 is pointed at stderr.

#![warn(missing_docs)]

pub mod protocol;
mod server;

pub use server::Server;

use game_api::{Configurable, Game};
use protocol::{Reply, Request};
use std::fs::File;
use std::io::{BufRead, Write};
use std::os::fd::FromRawFd;

/// Answers requests on stdin, one reply line each on the original stdout,
/// until stdin ends; then exits.
pub fn run<G: Game + Configurable>() -> ! {
    let mut out = take_stdout();
    std::panic::set_hook(Box::new(report_panic));
    let mut server = Server::<G>::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let reply = match serde_json::from_str::<Request>(&line) {
            Ok(request) => server.handle(&request),
            Err(e) => Reply::Error {
                message: format!("bad request: {e}"),
            },
        };
        let line = serde_json::to_string(&reply).expect("replies serialise");
        // A broken pipe means the grader has gone: nothing left to do.
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    std::process::exit(0)
}

/// Prints a panic on stderr the same way every time (no thread id, the
/// student's file named from its `src/`), so feedback is reproducible.
fn report_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = server::panic_message(info.payload());
    let at = info.location().map_or_else(String::new, |l| {
        let file = l
            .file()
            .rsplit_once("/src/")
            .map_or_else(|| l.file().to_owned(), |(_, rest)| format!("src/{rest}"));
        format!(" at {file}:{}:{}", l.line(), l.column())
    });
    eprintln!("panicked{at}: {message}");
}

/// Moves the real stdout to a fresh descriptor for the protocol and points
/// descriptor 1 at stderr.
fn take_stdout() -> File {
    // SAFETY: plain descriptor syscalls at startup, before any other thread
    // exists; `dup` returns a new descriptor that only this File will own.
    unsafe {
        let fd = libc::dup(1);
        assert!(fd >= 0, "dup(stdout) failed");
        assert!(libc::dup2(2, 1) >= 0, "dup2(stderr, stdout) failed");
        File::from_raw_fd(fd)
    }
}
