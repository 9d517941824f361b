//! Building drivers, every build inside the sandbox.
//!
//! The course's part is built once per run, on its own: the driver crate
//! (`grader-driver`) and its dependencies, `game-api` among them, against a
//! stub student crate. If that fails, the course is broken and no student is
//! blamed; if it builds, a later failure is the submission's, or an
//! interruption. Its target folder is the template: each submission is
//! built in a copy of it (hard links, so it costs nothing), so that no build
//! can read another student's artefacts, then the copy is removed.
//!
//! A build runs in [`crate::confine`]'s sandbox: it may read the toolchain,
//! the registry's crate sources, the course's `game-api` and driver crates,
//! the staged submission and its driver crate, and nothing else of the
//! machine (not the reference games, not `fixtures/`, not the keys, not the
//! grader, not the teacher's home); it may write only its target folder
//! and a scratch folder; it has no network, an empty environment but for
//! what Cargo needs, a memory limit and a wall-clock limit. Every
//! `include_str!`, `env!` or `#[path]` trick therefore fails, whatever its
//! spelling: the source scan in [`crate::submission`] only gives friendlier
//! messages first.

use crate::confine::{self, Confinement};
use crate::cpu::{self, WALL_FACTOR};
use crate::submission::{write_driver, Target, Workspace};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The Rust toolchain the builds use: the real binaries, not rustup's
/// proxies (which would need to read rustup's settings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// The toolchain's root (`rustc --print sysroot`).
    pub sysroot: PathBuf,
    /// Cargo's registry folder (crate sources and index), read-only.
    pub registry: PathBuf,
}

impl Toolchain {
    /// Finds the toolchain that runs this program's build (`RUSTC`, or
    /// `rustc` on the `PATH`) and Cargo's registry (`CARGO_HOME`, or
    /// `~/.cargo`).
    ///
    /// # Errors
    /// When `rustc` cannot be run.
    pub fn find() -> Result<Toolchain, String> {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let output = std::process::Command::new(&rustc)
            .args(["--print", "sysroot"])
            .output()
            .map_err(|e| format!("{}: {e}", rustc.to_string_lossy()))?;
        let sysroot = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        if !output.status.success() || sysroot.is_empty() {
            return Err("`rustc --print sysroot` failed".into());
        }
        let cargo_home = std::env::var_os("CARGO_HOME").map_or_else(
            || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo"),
            PathBuf::from,
        );
        Ok(Toolchain {
            sysroot: PathBuf::from(sysroot),
            registry: cargo_home.join("registry"),
        })
    }
}

/// Everything a build needs.
#[derive(Clone, Debug)]
pub struct Builder {
    /// The `grader` binary (the sandbox launcher).
    pub launcher: PathBuf,
    /// The toolchain.
    pub toolchain: Toolchain,
    /// The course workspace.
    pub workspace: Workspace,
    /// Where builds happen (`template/`, `drivers/`, `targets/`, `bin/`...).
    pub build_dir: PathBuf,
    /// Wall-clock limit of one build.
    pub time_limit: Duration,
    /// Address-space limit of each process of a build, in bytes.
    pub memory_bytes: u64,
    /// Build without network access to the registry (always, in practice:
    /// the sandbox has no network).
    pub offline: bool,
}

/// Why a driver did not build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildFailure {
    /// The code does not compile.
    Compile {
        /// In plain words, when the cause is a mismatch with the `game-api`
        /// interface (a missing function, a wrong signature...).
        mismatch: Option<String>,
        /// The compiler's messages (trimmed, without the machine's paths).
        log: String,
    },
    /// The build used more computing time than the limit (or more than
    /// [`WALL_FACTOR`] times it on the clock).
    TooLong(Duration),
    /// The build needed more memory than the limit (in MiB).
    TooBig(u64),
    /// Stopped from outside: a signal the grader did not send (the
    /// teacher's Ctrl-C, the kernel's OOM killer...). Not the student's fault.
    Interrupted(String),
    /// The build could not be run at all (the grader's problem).
    Setup(String),
}

impl std::fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildFailure::Compile { mismatch, log } => write!(
                f,
                "{}\n\nThe compiler said:\n{log}",
                mismatch
                    .as_deref()
                    .unwrap_or("Your crate does not compile.")
            ),
            BuildFailure::TooLong(limit) => write!(
                f,
                "the build used more than {} s of computing time (or {} s on the clock), and was stopped",
                limit.as_secs(),
                (*limit * WALL_FACTOR).as_secs()
            ),
            BuildFailure::TooBig(mib) => write!(
                f,
                "the build needed more than {mib} MiB of memory, and was stopped"
            ),
            BuildFailure::Interrupted(why) => write!(f, "the build was interrupted: {why}"),
            BuildFailure::Setup(why) => write!(f, "the build could not be run: {why}"),
        }
    }
}

impl BuildFailure {
    /// Whether the submission is to blame (it does not compile, or its
    /// build is over a limit), rather than the grader or an interruption.
    #[must_use]
    pub fn is_the_students(&self) -> bool {
        matches!(
            self,
            BuildFailure::Compile { .. } | BuildFailure::TooLong(_) | BuildFailure::TooBig(_)
        )
    }
}

/// Most of a build's stderr kept for the log.
const MAX_LOG: u64 = 256 << 10;

/// Takes the advisory lock `how` (`libc::LOCK_EX`, `LOCK_SH`, with
/// `LOCK_NB` or not) on the file `name` in `dir`, creating both; the lock is
/// released when the returned file is closed.
pub(crate) fn lock_file(dir: &Path, name: &str, how: i32) -> std::io::Result<std::fs::File> {
    std::fs::create_dir_all(dir)?;
    let lock = std::fs::File::create(dir.join(name))?;
    // SAFETY: flock on a descriptor we own; released when it is closed.
    if unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&lock), how) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(lock)
}

impl Builder {
    fn template_dir(&self) -> PathBuf {
        self.build_dir.join("template")
    }

    /// Locks the template: exclusively to build it, shared to copy it.
    fn lock_template(&self, how: i32) -> std::io::Result<std::fs::File> {
        lock_file(&self.build_dir, "template.lock", how)
    }

    /// Builds the course's part (the driver crate and its dependencies)
    /// into the template target folder.
    ///
    /// # Errors
    /// The failure: the course's crates are broken, whoever is graded.
    pub fn template(&self) -> Result<(), BuildFailure> {
        let dir = self.template_dir();
        let setup = |e: std::io::Error| BuildFailure::Setup(format!("{}: {e}", dir.display()));
        // Runs sharing a build folder build the template one at a time,
        // and never while another copies it.
        let _lock = self.lock_template(libc::LOCK_EX).map_err(setup)?;
        let stub = dir.join("student");
        std::fs::create_dir_all(stub.join("src")).map_err(setup)?;
        std::fs::write(
            stub.join("Cargo.toml"),
            format!(
                "[package]\nname = \"template-student\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\ngame-api = {{ path = {:?} }}\n",
                self.workspace.root.join("crates/game-api").display().to_string()
            ),
        )
        .map_err(setup)?;
        std::fs::write(stub.join("src/lib.rs"), "").map_err(setup)?;
        let target = Target {
            dir: stub,
            package: "template-student".into(),
            type_name: "Unused".into(),
        };
        let driver = dir.join("driver");
        write_driver(&driver, "template", &target, &self.workspace).map_err(BuildFailure::Setup)?;
        // The course's own code: no limit but a generous one.
        let limit = Duration::from_secs(3600);
        self.cargo(
            &driver,
            &dir.join("target"),
            &target,
            &["-p", "grader-driver"],
            limit,
        )
    }

    /// Builds the driver of `target` (a staged submission or a reference
    /// crate) in a copy of the template; returns the driver binary.
    ///
    /// # Errors
    /// [`BuildFailure`] says why, and whose fault it is.
    pub fn build(&self, slug: &str, target: &Target) -> Result<PathBuf, BuildFailure> {
        let setup = |e: String| BuildFailure::Setup(e);
        let driver = self.build_dir.join("drivers").join(slug);
        let bin = write_driver(&driver, slug, target, &self.workspace).map_err(setup)?;
        let target_dir = self.build_dir.join("targets").join(slug);
        let _ = std::fs::remove_dir_all(&target_dir);
        {
            let _lock = self
                .lock_template(libc::LOCK_SH)
                .map_err(|e| setup(e.to_string()))?;
            link_tree(&self.template_dir().join("target"), &target_dir).map_err(setup)?;
        }
        let built = self.cargo(&driver, &target_dir, target, &[], self.time_limit);
        let out = self.build_dir.join("bin").join(&bin);
        let moved = built.and_then(|()| {
            std::fs::create_dir_all(self.build_dir.join("bin"))
                .and_then(|()| std::fs::rename(target_dir.join("release").join(&bin), &out))
                .map_err(|e| BuildFailure::Setup(format!("{}: {e}", out.display())))
        });
        let _ = std::fs::remove_dir_all(&target_dir);
        moved.map(|()| out)
    }

    /// Runs `cargo build` for the driver crate in `driver` inside the sandbox.
    fn cargo(
        &self,
        driver: &Path,
        target_dir: &Path,
        target: &Target,
        extra: &[&str],
        time_limit: Duration,
    ) -> Result<(), BuildFailure> {
        let setup = |e: &dyn std::fmt::Display| BuildFailure::Setup(e.to_string());
        let scratch = driver.with_extension("scratch");
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).map_err(|e| setup(&e))?;
        // One Cargo home for every build of this folder, at one path: Cargo
        // records the path of every registry crate's sources in its
        // fingerprints, so a build whose registry is reached through
        // another path rebuilds every dependency instead of reusing the
        // template's (and, through the hard links, rewrites the template's
        // fingerprints for the next build). It holds only the link to the
        // registry and Cargo's own lock and cache-tracking files; nothing
        // that runs in a build is the student's (no build scripts, no
        // procedural macros), so nothing of one student's can be left there.
        let cargo_home = self.build_dir.join("cargo-home");
        std::fs::create_dir_all(&cargo_home).map_err(|e| setup(&e))?;
        match std::os::unix::fs::symlink(&self.toolchain.registry, cargo_home.join("registry")) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(setup(&e)),
            _ => {}
        }
        // Made here: Cargo would make it beside itself first, outside the sandbox.
        std::fs::create_dir_all(target_dir).map_err(|e| setup(&e))?;
        let ws = &self.workspace.root;
        let sysroot = &self.toolchain.sysroot;
        let confinement = Confinement {
            read: [
                sysroot.clone(),
                self.toolchain.registry.clone(),
                ws.join("Cargo.toml"),
                ws.join(".cargo"),
                ws.join("crates/game-api"),
                ws.join("grader/driver"),
                target.dir.clone(),
            ]
            .into_iter()
            .chain(["/usr", "/lib", "/lib64", "/bin", "/etc/ld.so.cache"].map(PathBuf::from))
            .collect(),
            // The driver crate is written by the grader for this build alone;
            // Cargo updates its lock file.
            write: vec![
                driver.to_owned(),
                target_dir.to_owned(),
                scratch.clone(),
                cargo_home.clone(),
                PathBuf::from("/dev/null"),
            ],
            memory_bytes: Some(self.memory_bytes),
            ..Confinement::default()
        };
        let cargo = sysroot.join("bin/cargo");
        let mut command = confine::command(&self.launcher, &confinement, &cargo.to_string_lossy());
        command
            .args([
                "build",
                "--release",
                "--color",
                "never",
                "--quiet",
                "--manifest-path",
            ])
            .arg(driver.join("Cargo.toml"))
            .args(extra)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &scratch)
            .env("TMPDIR", &scratch)
            .env("CARGO_HOME", &cargo_home)
            .env("CARGO_TARGET_DIR", target_dir)
            .env("RUSTC", sysroot.join("bin/rustc"))
            .current_dir(driver)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        if self.offline {
            command.arg("--offline");
        }
        let (mut child, _report) = confine::spawn(&mut command).map_err(|e| setup(&e))?;
        let mut stderr = child.stderr.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut kept = Vec::new();
            let _ = (&mut stderr).take(MAX_LOG).read_to_end(&mut kept);
            // Drain the rest, so the build never blocks on a full pipe.
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            kept
        });
        // The limit is on the build's computing time (every process of its
        // group), so a busy machine never fails a build; the clock is a
        // backstop for a build that waits.
        let last_deadline = Instant::now() + time_limit * WALL_FACTOR;
        let mut polls = 0u32;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() >= last_deadline => break None,
                // Reading the group's time walks /proc: every 10th poll.
                Ok(None) if polls % 10 == 9 && cpu::group_time(child.id()) >= time_limit => {
                    break None;
                }
                Ok(None) => {
                    polls = polls.wrapping_add(1);
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(setup(&e)),
            }
        };
        let Some(status) = status else {
            kill_group(&mut child);
            let _ = reader.join();
            return Err(BuildFailure::TooLong(time_limit));
        };
        // Anything the build left running dies with it.
        kill_group(&mut child);
        let log = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
        let _ = std::fs::remove_dir_all(&scratch);
        if status.success() {
            return Ok(());
        }
        if let Some(signal) = status.signal() {
            return Err(BuildFailure::Interrupted(format!(
                "cargo was killed by signal {signal} (the grader's Ctrl-C, or the kernel's out-of-memory killer?)"
            )));
        }
        if log.contains("memory allocation of") {
            return Err(BuildFailure::TooBig(self.memory_bytes >> 20));
        }
        if log.contains("(signal: 2, SIGINT") || log.contains("(signal: 9, SIGKILL") {
            return Err(BuildFailure::Interrupted(
                "the compiler was killed by a signal (the grader's Ctrl-C, or the kernel's out-of-memory killer?)".into(),
            ));
        }
        let log = self.hide_paths(&log, &target.dir);
        Err(BuildFailure::Compile {
            mismatch: explain_mismatch(&log),
            log: trim_log(&log),
        })
    }

    /// The log with the machine's folders taken out: the crate built shows
    /// as `src/...`, the rest under short names.
    fn hide_paths(&self, log: &str, crate_dir: &Path) -> String {
        let mut names = [
            (crate_dir.to_path_buf(), ""),
            (self.build_dir.clone(), "<build>/"),
            (self.build_dir.join("cargo-home/registry"), "<registry>/"),
            (self.toolchain.registry.clone(), "<registry>/"),
            (self.toolchain.sysroot.clone(), "<rust>/"),
            (self.workspace.root.clone(), "<course>/"),
        ];
        // Longest first, so a folder inside another is named by itself.
        names.sort_by_key(|(p, _)| std::cmp::Reverse(p.as_os_str().len()));
        names.iter().fold(log.to_owned(), |log, (path, name)| {
            log.replace(&format!("{}/", path.display()), name)
        })
    }
}

/// Kills a build's whole process group.
fn kill_group(child: &mut std::process::Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) on the process group the build was started in.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Copies the folder tree `from` into `to` as hard links.
fn link_tree(from: &Path, to: &Path) -> Result<(), String> {
    let fail = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::create_dir_all(to).map_err(|e| fail(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| fail(from, e))? {
        let entry = entry.map_err(|e| fail(from, e))?;
        let kind = entry.file_type().map_err(|e| fail(&entry.path(), e))?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            link_tree(&entry.path(), &dest)?;
        } else if kind.is_file() && entry.file_name() != ".cargo-lock" {
            // Cargo's own lock stays behind: a linked one would make every
            // copy wait for every other build.
            std::fs::hard_link(entry.path(), &dest).map_err(|e| fail(&dest, e))?;
        }
    }
    Ok(())
}

/// Compiler error codes that mean "this does not fit the trait", in words.
const MISMATCHES: [(&str, &str); 9] = [
    ("E0046", "your `impl` lacks functions the trait requires"),
    (
        "E0407",
        "your `impl` has a function the trait does not have (a misspelt name?)",
    ),
    (
        "E0053",
        "a function in your `impl` has different argument or return types than in the trait",
    ),
    (
        "E0050",
        "a function in your `impl` takes a different number of arguments than in the trait",
    ),
    (
        "E0186",
        "a function in your `impl` lacks the `&self` the trait has",
    ),
    (
        "E0185",
        "a function in your `impl` takes `&self` where the trait has none",
    ),
    (
        "E0049",
        "a function in your `impl` has different generic parameters than in the trait",
    ),
    (
        "E0195",
        "a function in your `impl` has different lifetime parameters than in the trait",
    ),
    ("E0437", "your `impl` has a type the trait does not have"),
];

/// Says in plain words when a build failed because the submission does not
/// match the `game-api` interface.
#[must_use]
pub fn explain_mismatch(log: &str) -> Option<String> {
    let mut found: Vec<String> = Vec::new();
    let mut add = |s: String| {
        if !found.contains(&s) {
            found.push(s);
        }
    };
    for line in log.lines() {
        for (code, words) in MISMATCHES {
            if line.starts_with(&format!("error[{code}]")) {
                let detail = line.split_once("]: ").map_or("", |(_, d)| d);
                add(format!("{words}: {detail}"));
            }
        }
        if line.starts_with("error[E0277]")
            && (line.contains("Game") || line.contains("Configurable"))
        {
            add("`Submission` must be a type that implements both `game_api::Game` and `game_api::Configurable`".into());
        }
        if line.starts_with("error[E04") && line.contains("Submission") {
            add("src/lib.rs must declare `pub type Submission = YourGame;` (the grader looks for that name)".into());
        }
        if line.contains("usage of an `unsafe`") || line.contains("declaration of an `unsafe`") {
            add("`unsafe` code is not allowed in submissions".into());
        }
    }
    (!found.is_empty()).then(|| {
        format!(
            "Your crate does not match the game-api interface:\n- {}\nCompare your code with the `Game` and `Configurable` traits (`cargo doc --open -p game-api`).",
            found.join("\n- ")
        )
    })
}

/// Keeps the compiler's error and warning blocks, at most 200 lines.
fn trim_log(log: &str) -> String {
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| !l.trim_start().starts_with("Compiling "))
        .take(200)
        .collect();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trait_mismatches_are_explained_in_plain_words() {
        let log = "error[E0046]: not all trait items implemented, missing: `legal_moves`\n  --> src/lib.rs:10:1\n";
        let m = explain_mismatch(log).unwrap();
        assert!(m.contains("lacks functions the trait requires: not all trait items implemented, missing: `legal_moves`"), "{m}");
        let log = "error[E0412]: cannot find type `Submission` in crate `student`\n";
        assert!(explain_mismatch(log)
            .unwrap()
            .contains("pub type Submission"));
        assert_eq!(explain_mismatch("error[E0308]: mismatched types\n"), None);
    }
}
