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
//! - [`protocol`], [`session`], [`driver`]: how a submission is questioned
//!   from a separate, sandboxed process;
//! - [`sandbox`]: starting that process with limits, and talking to it
//!   with time limits;
//! - [`judge`]: comparing a submission's answers with the keys;
//! - [`results`]: the result of one test, shared by the judge, the class
//!   run and the reports;
//! - [`submission`]: vetting and building submissions;
//! - [`report`]: `results.json` (Gradescope), feedback in Markdown, the CSV
//!   gradebook and the terminal summary; [`markdown`]: rendering text that
//!   comes from a student's process safely (fences, escaping, cutting).

#![warn(missing_docs)]

pub mod class;
pub mod config;
pub mod driver;
pub mod fixture;
pub mod judge;
pub mod key;
pub mod markdown;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod results;
pub mod sandbox;
pub mod session;
pub mod submission;
pub mod zoo;
