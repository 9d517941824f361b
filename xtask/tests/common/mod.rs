//! What several of xtask's integration tests share. Each test file compiles
//! its own copy and uses a part of it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use yaml_rust2::Yaml;

/// The course workspace (this crate's parent folder).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ is in the workspace")
        .to_owned()
}

/// What a process printed: its standard output, then its error output.
pub fn printed(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs `xtask` (the binary this crate builds) with `args`; it must
/// succeed, or the test fails with what it printed.
pub fn xtask<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", printed(&output));
    output
}

/// A scratch folder, made empty, removed when dropped (so a failing test
/// leaves nothing behind).
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `xtask-<name>-<pid>` under the system's temporary folder.
    pub fn new(name: &str) -> TempDir {
        TempDir::at(std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id())))
    }

    /// The folder `path`.
    pub fn at(path: PathBuf) -> TempDir {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the grading step of a GitHub Classroom workflow (its `with:`
/// inputs) as the command grader runs it: the setup, then the check, each
/// with `sh -c` in `dir` and only `PATH` and `HOME` in the environment;
/// both must pass (exit code 0).
pub fn run_grading_step(with: &Yaml, dir: &Path) {
    for key in ["setup-command", "command"] {
        let command = with[key]
            .as_str()
            .unwrap_or_else(|| panic!("{key} is not a string: {:?}", with[key]));
        let output = Command::new("sh")
            .args(["-c", command])
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", std::env::var_os("HOME").unwrap_or_default())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "`{command}` failed:\n{}",
            printed(&output)
        );
    }
}
