//! Builds in the sandbox, end to end: a build that never ends is stopped at
//! its limit (computing time, so a busy machine does not change the verdict)
//! and blamed on the submission, and the course's part is built
//! once, on its own, before any submission.
//!
//! Builds share the zoo test's folder, so the course's crates compile once.

mod common;

use common::workspace;
use grader::build::{BuildFailure, Builder, Toolchain};
use grader::submission::{stage, vet, Target, Workspace};
use std::path::PathBuf;
use std::time::Duration;

fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

#[test]
fn a_build_that_never_ends_is_stopped_at_its_limit_and_blamed_on_the_submission() {
    let builder = Builder {
        launcher: PathBuf::from(env!("CARGO_BIN_EXE_grader")),
        toolchain: Toolchain::find().unwrap(),
        workspace: Workspace { root: workspace() },
        build_dir: tmp().join("zoo/build"),
        time_limit: Duration::from_secs(20),
        memory_bytes: 4096 << 20,
        offline: true,
    };
    builder.template().unwrap_or_else(|e| panic!("{e}"));
    // Constant evaluation that runs for 2^64 steps, with the lint that would
    // stop it turned off: the compiler never finishes on its own.
    let student = tmp().join("build-test/endless");
    let _ = std::fs::remove_dir_all(&student);
    std::fs::create_dir_all(student.join("src")).unwrap();
    std::fs::write(
        student.join("Cargo.toml"),
        "[package]\nname = \"endless\"\nedition = \"2021\"\n[dependencies]\ngame-api = \"*\"\n",
    )
    .unwrap();
    std::fs::write(
        student.join("src/lib.rs"),
        "#![allow(long_running_const_eval)]\n\
         const fn spin() -> u64 { let mut i = 1u64; while i != 0 { i = i.wrapping_add(1); } i }\n\
         pub const X: u64 = spin();\n",
    )
    .unwrap();
    let vetted = vet(&student, &[]).unwrap();
    let staged = tmp().join("build-test/staged");
    stage(&vetted, &staged, &builder.workspace).unwrap();
    let target = Target {
        dir: staged,
        package: vetted.package,
        type_name: "Submission".into(),
    };
    let failure = builder.build("endless", &target).unwrap_err();
    assert_eq!(failure, BuildFailure::TooLong(Duration::from_secs(20)));
    assert!(failure.is_the_students());
    assert_eq!(
        failure.to_string(),
        "the build used more than 20 s of computing time (or 100 s on the clock), and was stopped"
    );
}
