//! Starting a driver process in the sandbox, and talking to it with a time limit.
//!
//! The time limit is on work, not on the clock: a test may use `time_limit`
//! of computing time, the student's process and the grader's side of the
//! conversation together (both measured by the kernel), so a busy machine
//! never turns a correct submission's slow test into a failure. A process
//! that waits instead of working is stopped all the same once the clock
//! passes [`WALL_FACTOR`] times the limit (see [`crate::cpu`]).
//!
//! Whatever the student's code does (panic, abort, overflow its stack, loop
//! forever, eat memory, print on stdout, write files, open sockets, start
//! processes), the grader only ever sees a reply, a timeout or a dead
//! process, and turns each into the failure of the one test being run.
//!
//! The driver runs as `./driver` (a link to the built binary) in its own
//! scratch directory, with an empty environment (only `HOME` and `TMPDIR`,
//! both that directory), in its own process group, inside the launcher's
//! sandbox ([`crate::confine`]): it can touch files beneath its scratch
//! directory only (and read the system's shared libraries), has no network
//! and limited memory, CPU time, file size and processes.

use crate::confine::{self, Confinement, Report};
use crate::cpu::{self, WALL_FACTOR};
use grader_driver::protocol::{Reply, Request};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Resource limits of a driver process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Address space, in bytes (`RLIMIT_AS`).
    pub memory_bytes: u64,
    /// CPU time, in seconds (`RLIMIT_CPU`).
    pub cpu_seconds: u64,
    /// Largest file it may write, in bytes (`RLIMIT_FSIZE`).
    pub file_bytes: u64,
    /// Processes and threads it may have at once (`RLIMIT_NPROC`).
    pub processes: u64,
}

/// Where the launcher is, and the limits of every driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// The `grader` binary (see [`crate::confine`]).
    pub launcher: PathBuf,
    /// The limits.
    pub limits: Limits,
}

/// What a driver may read besides its scratch directory: the dynamic
/// loader and the system's shared libraries.
const SYSTEM_LIBRARIES: [&str; 4] = ["/lib", "/lib64", "/usr/lib", "/etc/ld.so.cache"];

/// Longest reply line read from a driver; a longer one is a failure.
const MAX_LINE: u64 = 16 << 20;
/// How much of a driver's stderr is kept for feedback.
const MAX_STDERR: usize = 16 << 10;

/// Why a request got no usable reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The test used up its time: the process was killed.
    TimedOut(Duration),
    /// The process ended; `cause` says how, in words.
    Died {
        /// How it died (signal, exit code, and the likely reason).
        cause: String,
    },
    /// A reply that is not a protocol line.
    Garbled(String),
    /// The driver could not be started at all.
    Spawn(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::TimedOut(d) => write!(f, "no answer within the time limit of {:.1} s of computing (an endless loop?); the process was stopped", d.as_secs_f64()),
            Failure::Died { cause } => write!(f, "the program stopped: {cause}"),
            Failure::Garbled(line) => write!(f, "the driver sent an unreadable reply: {line}"),
            Failure::Spawn(e) => write!(f, "the driver could not be started: {e}"),
        }
    }
}

/// A running driver process.
pub struct Driver {
    child: Child,
    /// Whether the driver has been waited for (its pid is no longer ours).
    reaped: bool,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, String>>,
    stderr: Option<thread::JoinHandle<Vec<u8>>>,
    stderr_text: String,
    /// When to look again at the time used.
    deadline: Instant,
    /// When the process is stopped whatever it used.
    last_deadline: Instant,
    time_limit: Duration,
    /// This thread's computing time when the process started.
    thread_time_at_start: Duration,
    limits: Limits,
    report: Report,
}

impl Driver {
    /// Starts `binary` in a fresh `scratch` directory inside the sandbox;
    /// the whole conversation must end within `time_limit`.
    ///
    /// # Errors
    /// [`Failure::Spawn`] when it cannot start.
    pub fn start(
        sandbox: &Sandbox,
        binary: &Path,
        scratch: &Path,
        time_limit: Duration,
    ) -> Result<Driver, Failure> {
        let spawn_failure = |what: &Path, e: &dyn std::fmt::Display| {
            Failure::Spawn(format!("{}: {e}", what.display()))
        };
        let _ = std::fs::remove_dir_all(scratch);
        std::fs::create_dir_all(scratch).map_err(|e| spawn_failure(scratch, &e))?;
        let linked = scratch.join("driver");
        std::fs::hard_link(binary, &linked)
            .or_else(|_| std::fs::copy(binary, &linked).map(drop))
            .map_err(|e| spawn_failure(binary, &e))?;
        give_to_nobody_if_root(scratch).map_err(|e| spawn_failure(scratch, &e))?;
        let limits = sandbox.limits;
        let confinement = Confinement {
            read: SYSTEM_LIBRARIES.iter().map(PathBuf::from).collect(),
            write: vec![scratch.to_owned()],
            memory_bytes: Some(limits.memory_bytes),
            cpu_seconds: Some(limits.cpu_seconds),
            file_bytes: Some(limits.file_bytes),
            processes: Some(limits.processes),
        };
        let mut command = confine::command(&sandbox.launcher, &confinement, "./driver");
        command
            .env_clear()
            .env("HOME", scratch)
            .env("TMPDIR", scratch)
            .current_dir(scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group, so that anything it starts dies with it.
            .process_group(0);
        let (mut child, report) =
            confine::spawn(&mut command).map_err(|e| spawn_failure(binary, &e))?;
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= MAX_LINE => {
                        let _ = tx.send(Err(format!("a reply longer than {} MiB", MAX_LINE >> 20)));
                        break;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                        if tx.send(Ok(text)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut pipe = stderr_pipe;
            let mut kept = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let room = MAX_STDERR.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            kept
        });
        let stdin = child.stdin.take();
        Ok(Driver {
            child,
            reaped: false,
            stdin,
            lines,
            stderr: Some(stderr),
            stderr_text: String::new(),
            deadline: Instant::now() + time_limit,
            last_deadline: Instant::now() + time_limit * WALL_FACTOR,
            time_limit,
            thread_time_at_start: cpu::thread_time(),
            limits,
            report,
        })
    }

    /// What the sandbox enforced, as the launcher reported it.
    #[must_use]
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Sends a request and waits for the reply until the deadline.
    ///
    /// # Errors
    /// [`Failure`] when there is no usable reply; the process is then dead.
    pub fn call(&mut self, request: &Request) -> Result<Reply, Failure> {
        let line = serde_json::to_string(request).expect("requests serialise");
        let sent = self
            .stdin
            .as_mut()
            .map(|stdin| writeln!(stdin, "{line}").and_then(|()| stdin.flush()));
        if !matches!(sent, Some(Ok(()))) {
            return Err(self.death());
        }
        let reply = self.next_line()?;
        serde_json::from_str(&reply).map_err(|_| {
            self.kill();
            Failure::Garbled(clip(&reply))
        })
    }

    /// Ends the process and returns the first part of what it wrote on
    /// stderr (and on stdout, which the driver points at stderr).
    pub fn finish(&mut self) -> String {
        self.kill();
        self.collect_stderr();
        self.stderr_text.clone()
    }

    /// Kills the process (its whole group); what it printed can still be
    /// had from [`Driver::finish`].
    pub fn stop(&mut self) {
        self.kill();
    }

    /// Waits for the (dead) process's stderr to close and keeps it.
    fn collect_stderr(&mut self) {
        if let Some(reader) = self.stderr.take() {
            let bytes = reader.join().unwrap_or_default();
            self.stderr_text = String::from_utf8_lossy(&bytes).into_owned();
        }
    }

    fn next_line(&mut self) -> Result<String, Failure> {
        let reply = loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Err(RecvTimeoutError::Timeout) => {
                    let used = self.time_used();
                    let now = Instant::now();
                    if used >= self.time_limit || now >= self.last_deadline {
                        break Err(RecvTimeoutError::Timeout);
                    }
                    let rest = (self.time_limit - used).max(Duration::from_millis(20));
                    self.deadline = (now + rest).min(self.last_deadline);
                }
                other => break other,
            }
        };
        match reply {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(why)) => {
                self.kill();
                Err(Failure::Garbled(why))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Failure::TimedOut(self.time_limit))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.death()),
        }
    }

    /// Kills the driver's whole process group (the driver and anything it
    /// started), then reaps the driver.
    fn kill(&mut self) {
        if self.reaped {
            return;
        }
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process group,
            // which `start` created for this driver alone.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Its pid may now be reused: never signal it again.
        self.reaped = true;
    }

    /// Waits for the process (it closed its output) and says how it died.
    fn death(&mut self) -> Failure {
        self.stdin = None;
        // It closed its output, so it is ending: give it a moment, then make sure.
        let grace = Instant::now() + Duration::from_secs(1);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if Instant::now() < grace => thread::sleep(Duration::from_millis(2)),
                Ok(None) => {
                    self.kill();
                    break self.child.wait();
                }
                Err(e) => break Err(e),
            }
        };
        self.reaped = true;
        let status = match status {
            Ok(s) => s,
            Err(e) => {
                return Failure::Died {
                    cause: format!("could not be waited for: {e}"),
                }
            }
        };
        self.collect_stderr();
        let stderr = &self.stderr_text;
        let cause = if stderr.contains("has overflowed its stack") {
            "stack overflow (endless recursion?)".to_owned()
        } else if stderr.contains("memory allocation of") {
            format!(
                "out of memory (the limit is {} MiB)",
                self.limits.memory_bytes >> 20
            )
        } else {
            match (status.signal(), status.code()) {
                (Some(libc::SIGXCPU), _) => {
                    format!("CPU time limit of {} s exceeded", self.limits.cpu_seconds)
                }
                (Some(libc::SIGXFSZ), _) => {
                    format!("wrote a file larger than {} bytes", self.limits.file_bytes)
                }
                (Some(libc::SIGABRT), _) => {
                    "aborted (std::process::abort or a failed allocation)".to_owned()
                }
                (Some(libc::SIGSEGV), _) => "crashed (segmentation fault)".to_owned(),
                (Some(libc::SIGKILL), _) => "killed".to_owned(),
                (Some(sig), _) => format!("killed by signal {sig}"),
                (None, Some(code)) => format!("exited with code {code} (std::process::exit?)"),
                (None, None) => "ended".to_owned(),
            }
        };
        Failure::Died { cause }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Driver {
    /// Computing time used so far: the process's (user and system, from
    /// `/proc`) and this thread's since the process started.
    fn time_used(&self) -> Duration {
        cpu::process_time(self.child.id())
            + cpu::thread_time().saturating_sub(self.thread_time_at_start)
    }
}

/// When the grader runs as root, student processes run as `nobody` (see
/// [`crate::confine`]): their scratch directory must be theirs.
fn give_to_nobody_if_root(dir: &Path) -> std::io::Result<()> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(dir, Some(65534), Some(65534))?;
    }
    Ok(())
}

fn clip(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        text.to_owned()
    } else {
        let mut end = MAX;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &text[..end])
    }
}
