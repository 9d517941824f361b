//! What several of xtask's integration tests share.

use std::path::Path;
use std::process::{Command, Stdio};
use yaml_rust2::Yaml;

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
            "`{command}` failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
