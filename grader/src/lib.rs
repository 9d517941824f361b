//! # The grader: fixtures, answer keys, isolated replay, grade reports
//!
//! An instructor with a folder of student submissions runs one command
//! (`cargo xtask grade`) and gets correct, explained grades, whatever the
//! submissions do. This crate holds every piece of it:
//!
//! - [`config`]: the grading settings (`fixtures/grading.toml`);
//! - [`fixture`]: the teacher's test cases (TOML files under `fixtures/<game>/`);
//! - [`reference`]: the games of `grading.toml` and their reference crates, checked;
//! - [`key`]: answer keys, recorded by replaying fixtures against our
//!   reference games and kept as insta snapshots;
//! - [`confine`]: the operating-system sandbox every build and every
//!   student process starts in;
//! - [`sandbox`]: starting a submission's driver (the `grader-driver`
//!   crate) in it, and talking to it with time limits;
//! - [`remote`]: the submission's game seen from the grader, a `Game` whose
//!   every method asks the driver;
//! - [`judge`]: the fixtures, the course's minimax and the conformance laws
//!   run here, on that game: every verdict is the grader's;
//! - [`results`]: the result of one test, shared by the judge, the class
//!   run and the reports; [`config`]: the grading settings;
//! - [`submission`]: vetting and staging submissions; [`build`]: building
//!   them in the sandbox; [`cpu`]: the computing time all limits are on;
//! - [`gradescope`]: one Gradescope upload, whatever its shape, graded into `results.json`;
//! - [`local`]: the student's local check in a handout: the same judge
//!   and report, on their own game type in-process;
//! - [`report`]: `results.json` (Gradescope), feedback in Markdown, the CSV
//!   gradebook and the terminal summary; [`markdown`]: rendering text that
//!   comes from a student's process safely (fences, escaping, cutting).

#![warn(missing_docs)]

pub mod build;
pub mod class;
pub mod config;
pub mod confine;
pub mod cpu;
pub mod fixture;
pub mod gradescope;
pub mod judge;
pub mod key;
pub mod local;
pub mod markdown;
pub mod reference;
pub mod remote;
pub mod report;
pub mod results;
pub mod sandbox;
pub mod submission;
pub mod zoo;
