//! The driver: the `main` of the small program built against a submission.
//!
//! It exists so that student code runs in its own process, never in the
//! grader's. Before any student code runs it confines itself:
//!
//! - Landlock (Linux 5.13+, no privileges needed): no file may be read,
//!   written or executed outside the working directory (the scratch
//!   directory the grader made for it), no TCP connection or bind, no
//!   signal to processes outside the sandbox;
//! - the real stdout becomes the protocol channel on a private descriptor,
//!   and descriptor 1 is pointed at stderr, so whatever the student prints
//!   cannot corrupt the protocol.
//!
//! The grader adds the rest from outside (empty environment, memory, CPU and
//! file-size limits, a time limit per test). The first line the driver writes
//! is a [`Hello`] saying how far the sandbox is enforced.

use crate::protocol::{Request, Response};
use crate::session::Session;
use game_api::{Configurable, Game};
use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, RulesetAttr, RulesetCreatedAttr,
    RulesetStatus, Scope, ABI,
};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufRead, Write};
use std::os::fd::FromRawFd;

/// The first line a driver writes: how the sandbox stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// `"fully enforced"`, `"partially enforced"`, or why it is not.
    pub landlock: String,
}

/// Runs the driver for game type `G` until stdin ends, then exits.
///
/// The generated `main.rs` of a driver is one line:
///
/// ```no_run
/// # type Submission = nim::Nim;
/// fn main() { grader::driver::run::<Submission>() }
/// ```
pub fn run<G: Game + Configurable>() -> ! {
    let landlock = confine_to_working_directory();
    let mut out = take_stdout();
    std::panic::set_hook(Box::new(report_panic));
    let hello = Hello { landlock };
    let mut session = Session::<G>::new();
    let mut send = |line: String| {
        // A broken pipe means the grader has gone: nothing left to do.
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            std::process::exit(0);
        }
    };
    send(serde_json::to_string(&hello).expect("serialisable"));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let response = match serde_json::from_str::<Request>(&line) {
            Ok(request) => session.handle(&request),
            Err(e) => Response::Error {
                message: format!("bad request: {e}"),
            },
        };
        send(serde_json::to_string(&response).expect("serialisable"));
    }
    std::process::exit(0)
}

/// Prints a panic on stderr the same way every time (no thread id, the
/// student's file named from its `src/`), so feedback is reproducible.
fn report_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned());
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

/// Applies Landlock: full access beneath the working directory, nothing else.
fn confine_to_working_directory() -> String {
    let abi = ABI::V6;
    let result = landlock::Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(landlock::Ruleset::create)
        .and_then(|r| r.add_rules(path_beneath_rules(["."], AccessFs::from_all(abi))))
        .and_then(landlock::RulesetCreated::restrict_self);
    match result {
        Ok(status) => match status.ruleset {
            RulesetStatus::FullyEnforced => "fully enforced".into(),
            RulesetStatus::PartiallyEnforced => "partially enforced".into(),
            RulesetStatus::NotEnforced => "not enforced (the kernel has no Landlock)".into(),
        },
        Err(e) => format!("not enforced: {e}"),
    }
}
