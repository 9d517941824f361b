//! The launcher: the operating-system sandbox every build and every student
//! process starts in.
//!
//! It exists because a process can only confine itself, and student code
//! must never run unconfined, not even for an instant. So the grader never
//! starts a driver or a compiler directly: it starts its own binary as
//! `grader sandbox-exec <spec> <program> <args>...`. That fresh,
//! single-threaded process confines itself, says on descriptor 3 what the
//! kernel enforced (a [`Report`], read by the grader, never by the student's
//! process), closes it, and only then executes the program, which inherits
//! every restriction:
//!
//! - resource limits (address space, CPU time, file size, no core dumps,
//!   processes and threads);
//! - its own network namespace (no interface but a loopback that is down),
//!   so no TCP, no UDP, no other socket reaches anything; if the kernel
//!   refuses a namespace, socket creation is still refused (below);
//! - a seccomp filter refusing `socket` and `io_uring_setup` (every way to
//!   open a socket that could reach anything; `socketpair` stays, it only
//!   connects a process with itself and Rust's `Command` needs it),
//!   `setsid` and `setpgid` (so nothing it starts can leave the process
//!   group the grader kills at the deadline and after the last test), and
//!   system calls of a foreign architecture;
//! - Landlock: files may be read (and executed) only beneath the `read`
//!   paths and written only beneath the `write` paths; no TCP bind or
//!   connect; no signals or abstract sockets outside the sandbox;
//! - for student processes, when the grader runs as root, the user
//!   `nobody` (so the process and thread limit holds: the kernel does not
//!   apply it to root).
//!
//! The source scan of `submission::vet` only gives friendly early messages;
//! this is the boundary.

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr,
    RulesetStatus, Scope, ABI,
};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;

/// The first argument that makes the `grader` binary a launcher.
pub const SUBCOMMAND: &str = "sandbox-exec";

/// The descriptor the launcher writes its [`Report`] on.
const REPORT_FD: i32 = 3;

/// The user id student processes run as when the grader is root (`nobody`).
const NOBODY: u32 = 65534;

/// What a sandboxed program may reach.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confinement {
    /// Folders (or files) it may read and execute, and everything beneath.
    pub read: Vec<PathBuf>,
    /// Folders (or files) it may read, write and execute, and everything beneath.
    pub write: Vec<PathBuf>,
    /// Address space, in bytes (`RLIMIT_AS`).
    pub memory_bytes: Option<u64>,
    /// CPU time, in seconds (`RLIMIT_CPU`).
    pub cpu_seconds: Option<u64>,
    /// Largest file it may write, in bytes (`RLIMIT_FSIZE`).
    pub file_bytes: Option<u64>,
    /// Processes and threads (`RLIMIT_NPROC`); also makes a root grader run
    /// the program as `nobody`, since the kernel exempts root.
    pub processes: Option<u64>,
}

/// What the kernel enforced, in words; each field starts with "enforced"
/// when that part of the sandbox holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Files (Landlock).
    pub files: String,
    /// The network (namespace and socket filter).
    pub network: String,
    /// Processes and threads, and whether they stay in their process group.
    pub processes: String,
}

impl Report {
    /// The parts of the sandbox that did not hold, in words.
    #[must_use]
    pub fn weaknesses(&self) -> Vec<String> {
        [
            ("files", &self.files),
            ("network", &self.network),
            ("processes", &self.processes),
        ]
        .into_iter()
        .filter(|(_, s)| !s.starts_with("enforced"))
        .map(|(what, s)| format!("{what}: {s}"))
        .collect()
    }
}

/// A command that runs `program` inside `confinement`, started through the
/// `launcher` (the `grader` binary). Set its environment, working directory
/// and pipes as for any command, then start it with [`spawn`].
#[must_use]
pub fn command(launcher: &std::path::Path, confinement: &Confinement, program: &str) -> Command {
    let mut command = Command::new(launcher);
    command
        .arg(SUBCOMMAND)
        .arg(serde_json::to_string(confinement).expect("serialisable"))
        .arg(program);
    command
}

/// Starts a command made by [`command`] and reads the launcher's report.
///
/// # Errors
/// When it cannot start, or the launcher could not confine it (the report
/// then says why and the program was not run).
pub fn spawn(command: &mut Command) -> Result<(std::process::Child, Report), String> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array we own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    // SAFETY: both descriptors were just created and are owned here alone.
    let (reader, writer) = unsafe { (File::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let raw = std::os::fd::AsRawFd::as_raw_fd(&writer);
    // SAFETY: dup2 is async-signal-safe; it gives the child the write end as
    // descriptor 3 (without close-on-exec), nothing else.
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(raw, REPORT_FD) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = command.spawn().map_err(|e| e.to_string());
    drop(writer);
    let mut child = child?;
    let mut text = String::new();
    let read = (&reader).take(64 << 10).read_to_string(&mut text);
    match read
        .ok()
        .and_then(|_| serde_json::from_str::<Result<Report, String>>(&text).ok())
    {
        Some(Ok(report)) => Ok((child, report)),
        Some(Err(why)) => {
            let _ = child.wait();
            Err(format!("the sandbox could not be set up: {why}"))
        }
        None => {
            let _ = child.kill();
            let _ = child.wait();
            Err("the sandbox launcher said nothing (is the grader binary current?)".into())
        }
    }
}

/// The launcher's `main`: confines this process as `args` say, reports on
/// descriptor 3, then executes the program (`args`: the spec in JSON, the
/// program, its arguments). Never returns.
pub fn launch(args: &[String]) -> ! {
    let outcome = match args {
        [spec, program, rest @ ..] => serde_json::from_str::<Confinement>(spec)
            .map_err(|e| format!("bad sandbox spec: {e}"))
            .and_then(|c| confine(&c))
            .map(|report| (program, rest, report)),
        _ => Err("usage: grader sandbox-exec <spec> <program> [args...]".into()),
    };
    // SAFETY: descriptor 3 was set up by `spawn` for this process alone.
    let mut out = unsafe { File::from_raw_fd(REPORT_FD) };
    let said = match &outcome {
        Ok((_, _, report)) => serde_json::to_string(&Ok::<_, String>(report)),
        Err(why) => serde_json::to_string(&Err::<Report, _>(why)),
    };
    let _ = out.write_all(said.expect("serialisable").as_bytes());
    drop(out);
    match outcome {
        Ok((program, rest, _)) => {
            let error = Command::new(program).args(rest).exec();
            eprintln!("grader sandbox-exec: {program}: {error}");
            std::process::exit(127)
        }
        Err(_) => std::process::exit(126),
    }
}

fn confine(c: &Confinement) -> Result<Report, String> {
    let limits = [
        (libc::RLIMIT_AS, c.memory_bytes),
        (libc::RLIMIT_CPU, c.cpu_seconds),
        (libc::RLIMIT_FSIZE, c.file_bytes),
        (libc::RLIMIT_CORE, Some(0)),
        (libc::RLIMIT_NPROC, c.processes),
    ];
    for (resource, value) in limits {
        if let Some(v) = value {
            set_limit(resource, v).map_err(|e| format!("setrlimit: {e}"))?;
        }
    }
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let namespace = if root {
        unshare(libc::CLONE_NEWNET)
    } else {
        // An unprivileged process needs a user namespace first; it also
        // gives it a fresh process count for RLIMIT_NPROC.
        unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET)
    };
    let files = landlock(c);
    let sockets = refuse_sockets_and_new_groups();
    let network = match (&namespace, &sockets) {
        (Ok(()), Ok(())) => "enforced: own network namespace, sockets refused".to_owned(),
        (Err(e), Ok(())) => format!("enforced: sockets refused (no network namespace: {e})"),
        (Ok(()), Err(e)) => {
            format!("enforced: own network namespace (sockets not refused: {e})")
        }
        (Err(n), Err(s)) => {
            format!("not isolated: no network namespace ({n}), no socket filter ({s})")
        }
    };
    let processes = match c.processes {
        None => "not capped".to_owned(),
        Some(n) if root => match become_nobody() {
            Ok(()) => format!("enforced: at most {n} processes and threads (as user nobody)"),
            Err(e) => format!("not capped: running as root, and becoming nobody failed: {e}"),
        },
        Some(n) if namespace.is_ok() => {
            format!("enforced: at most {n} processes and threads (own user namespace)")
        }
        Some(n) => format!("enforced: at most {n} processes and threads of this user"),
    };
    // The same filter keeps every process in the group the grader kills.
    let processes = match &sockets {
        Ok(()) => format!("{processes}, none leaving its process group"),
        Err(e) => format!("could leave its process group (no seccomp filter: {e}); {processes}"),
    };
    // If the grader dies (the teacher's Ctrl-C), so does this program.
    // Set last: a change of user clears it.
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    Ok(Report {
        files,
        network,
        processes,
    })
}

fn landlock(c: &Confinement) -> String {
    let abi = ABI::V6;
    let existing = |paths: &[PathBuf]| -> Vec<PathBuf> {
        paths.iter().filter(|p| p.exists()).cloned().collect()
    };
    let result = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(Ruleset::create)
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                existing(&c.read),
                AccessFs::from_read(abi),
            ))
        })
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                existing(&c.write),
                AccessFs::from_all(abi),
            ))
        })
        .and_then(landlock::RulesetCreated::restrict_self);
    match result {
        Ok(status) => match status.ruleset {
            RulesetStatus::FullyEnforced => "enforced: Landlock, fully".into(),
            RulesetStatus::PartiallyEnforced => {
                "partially enforced: Landlock (an older kernel lacks some rights)".into()
            }
            RulesetStatus::NotEnforced => "not enforced: the kernel has no Landlock".into(),
        },
        Err(e) => format!("not enforced: Landlock: {e}"),
    }
}

fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: setrlimit only reads the struct we pass.
    if unsafe { libc::setrlimit(resource, &limit) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

fn unshare(flags: i32) -> Result<(), String> {
    // SAFETY: unshare has no memory preconditions; this process is single-threaded.
    if unsafe { libc::unshare(flags) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().to_string())
    }
}

fn become_nobody() -> Result<(), String> {
    // SAFETY: plain credential syscalls on this single-threaded process.
    let ok = unsafe {
        libc::setgroups(0, std::ptr::null()) == 0
            && libc::setresgid(NOBODY, NOBODY, NOBODY) == 0
            && libc::setresuid(NOBODY, NOBODY, NOBODY) == 0
    };
    if ok {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().to_string())
    }
}

/// Installs a seccomp filter: `socket`, `io_uring_setup`, `setsid` and
/// `setpgid` fail with `EPERM`, and so does any system call of another
/// architecture (or x86-64's x32 calls), which could name them by other
/// numbers.
fn refuse_sockets_and_new_groups() -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    const ARCH: u32 = 0xC000_003E;
    #[cfg(target_arch = "aarch64")]
    const ARCH: u32 = 0xC000_00B7;
    const X32_BIT: u32 = 0x4000_0000;
    const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
    const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
    const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
    const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
    let op = |code: u16, jt: u8, jf: u8, k: u32| libc::sock_filter { code, jt, jf, k };
    let refused = [
        libc::SYS_socket,
        libc::SYS_io_uring_setup,
        libc::SYS_setsid,
        libc::SYS_setpgid,
    ];
    // Offsets in struct seccomp_data: nr at 0, arch at 4.
    let mut program = vec![
        op(LD_W_ABS, 0, 0, 4),
        op(JEQ, 1, 0, ARCH),
        op(RET, 0, 0, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
        op(LD_W_ABS, 0, 0, 0),
    ];
    // Every jump lands on the last instruction (deny) or falls through.
    let n = refused.len();
    program.push(op(JGE, (n + 1) as u8, 0, X32_BIT));
    for (i, nr) in refused.iter().enumerate() {
        program.push(op(JEQ, (n - i) as u8, 0, *nr as u32));
    }
    program.push(op(RET, 0, 0, libc::SECCOMP_RET_ALLOW));
    program.push(op(RET, 0, 0, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32));
    let fprog = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_mut_ptr(),
    };
    // SAFETY: prctl reads the filter program we own for the duration of the call.
    let ok = unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &fprog as *const libc::sock_fprog,
            ) == 0
    };
    if ok {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().to_string())
    }
}
