//! `cargo xtask` at its edge: an error is one line, each cause once, and
//! no backtrace even when `RUST_BACKTRACE=1` is set.

use std::process::Command;

#[test]
fn an_error_is_one_line_without_a_backtrace_even_with_rust_backtrace_set() {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["grade", "/nonexistent/submissions", "--game", "connect4"])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: cannot read /nonexistent/submissions: No such file or directory (os error 2)\n"
    );
}
