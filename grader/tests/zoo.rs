//! The zoo graded end to end: every sample submission (correct, subtly
//! wrong, hostile) gets exactly the outcome `grader/zoo/zoo.toml` says, the
//! reference crates score full marks, and the three report forms (terminal
//! summary, `results.json`, CSV gradebook) plus the Markdown feedback are
//! produced and snapshotted.
//!
//! Builds share one Cargo target dir under this test's temporary folder, so
//! the dependencies compile once for all runs.

mod common;

use common::workspace;
use grader::class::{grade_class, student_dir, ClassReport, ClassRun};
use grader::zoo::{self, Specimen};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo")
}

fn run(game: &str, submissions: PathBuf, out: &str) -> ClassRun {
    let mut run = ClassRun::new(
        &workspace(),
        game,
        submissions,
        PathBuf::from(env!("CARGO_BIN_EXE_grader")),
    );
    run.build_dir = tmp().join("build");
    run.out = tmp().join("grades").join(out);
    run.force = true;
    run
}

/// Writes the game's zoo out and grades it.
fn grade_zoo(game: &str) -> (Vec<Specimen>, ClassReport, ClassRun) {
    let zoo_dir = workspace().join("grader/zoo");
    let specimens: Vec<Specimen> = zoo::load(&zoo_dir)
        .unwrap()
        .into_iter()
        .filter(|s| s.game == game)
        .collect();
    let folder = tmp().join("submissions").join(game);
    let _ = std::fs::remove_dir_all(&folder);
    for s in &specimens {
        zoo::materialize(&zoo_dir, s, &workspace(), &folder).unwrap();
    }
    let run = run(game, folder, game);
    let _ = std::fs::remove_dir_all(&run.out);
    let report = grade_class(&run, &|line| eprintln!("{line}")).unwrap_or_else(|e| panic!("{e}"));
    (specimens, report, run)
}

/// Every specimen got exactly its expected outcome.
fn assert_outcomes(specimens: &[Specimen], report: &ClassReport, run: &ClassRun) {
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.results.len(), specimens.len());
    let mut wrong = Vec::new();
    for s in specimens {
        let r = report
            .results
            .iter()
            .find(|r| r.student == s.name)
            .expect("every specimen has a result");
        let failing: BTreeSet<&str> = r.failing().into_iter().collect();
        let reports = [
            read(&student_dir(&run.out, &s.name).join("feedback.md")),
            read(&student_dir(&run.out, &s.name).join("results.json")),
        ];
        for machine_path in [workspace(), tmp()] {
            let machine_path = machine_path.display().to_string();
            if reports.iter().any(|r| r.contains(&machine_path)) {
                wrong.push(format!("{}: a report names {machine_path}", s.name));
            }
        }
        match (&s.failing, &s.build) {
            (Some(expected), None) => {
                let expected: BTreeSet<&str> = expected.iter().map(String::as_str).collect();
                if failing != expected {
                    wrong.push(format!(
                        "{}: expected failing {expected:?}, got {failing:?}",
                        s.name
                    ));
                }
                assert!(r.tests.len() > 11, "{}: fixtures and laws ran", s.name);
                assert_eq!(
                    r.sandbox, "fully enforced",
                    "{}: the sandbox held (files, network, processes)",
                    s.name
                );
            }
            (None, Some(phrase)) => {
                let feedback =
                    std::fs::read_to_string(student_dir(&run.out, &s.name).join("feedback.md"))
                        .unwrap();
                if failing != BTreeSet::from(["build"])
                    || r.score != 0.0
                    || !feedback.contains(phrase.as_str())
                {
                    wrong.push(format!("{}: expected a build failure saying {phrase:?}, got {failing:?}:\n{feedback}", s.name));
                }
            }
            _ => panic!(
                "{}: zoo.toml must give exactly one of `failing` and `build`",
                s.name
            ),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The reference crate scores full marks.
fn assert_reference_full_marks(game: &str) {
    let mut run = run(game, PathBuf::new(), &format!("{game}-reference"));
    run.reference = true;
    let report = grade_class(&run, &|line| eprintln!("{line}")).unwrap_or_else(|e| panic!("{e}"));
    let r = &report.results[0];
    assert_eq!(
        (r.score, r.failing()),
        (r.max_score, vec![]),
        "{}",
        report.summary
    );
    assert!(r.max_score > 10.0);
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn connect4_zoo_is_graded_exactly_and_reports_are_complete() {
    let escape = Path::new("/tmp/grader-zoo-escape.txt");
    let _ = std::fs::remove_file(escape);
    // c4-sends-udp sends its options to every port from 47900 to 47963; the
    // sandbox has no network. Any free one of them will do (another
    // checkout's tests may hold one).
    let listener = (47900..47964)
        .find_map(|port| std::net::UdpSocket::bind(("127.0.0.1", port)).ok())
        .expect("a free UDP port between 47900 and 47963");
    listener.set_nonblocking(true).unwrap();
    let (specimens, report, run) = grade_zoo("connect4");
    assert_outcomes(&specimens, &report, &run);
    let mut buf = [0u8; 512];
    assert!(
        listener.recv_from(&mut buf).is_err(),
        "a student process reached a UDP listener on the grading machine"
    );
    assert!(
        !escape.exists(),
        "a submission wrote outside its scratch directory"
    );
    assert_snippets_compile(&report);
    insta::assert_snapshot!("connect4_summary", report.summary);
    insta::assert_snapshot!("connect4_gradebook", read(&run.out.join("gradebook.csv")));
    insta::assert_snapshot!(
        "connect4_feedback_panics",
        read(&student_dir(&run.out, "c4-panics").join("feedback.md"))
    );
    insta::assert_snapshot!(
        "connect4_feedback_no_diagonals",
        read(&student_dir(&run.out, "c4-no-diagonals").join("feedback.md"))
    );
    let results: serde_json::Value = serde_json::from_str(&read(
        &student_dir(&run.out, "c4-off-by-one-columns").join("results.json"),
    ))
    .unwrap();
    insta::assert_json_snapshot!("connect4_results_off_by_one", results, {
        ".execution_time" => "[time]",
        ".extra_data.execution_time" => "[time]",
        // A hash of the generated sources, whose manifest names this checkout's path.
        ".extra_data.submission_version" => "[sha256]",
    });
    assert_reference_full_marks("connect4");
}

/// The processes whose environment holds `marker` (`NAME=value`).
fn processes_with(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == marker.as_bytes()))
        })
        .collect()
}

/// No process started by `nim-leaves-its-process-group` outlives the
/// grading: it could not leave the process group the grader kills. (Waits,
/// on a condition, for a killed process to be gone; an escaped one sleeps
/// for ten minutes, far beyond the wait.)
fn assert_no_sleeper_survives() {
    let marker = "GRADER_ZOO_SLEEPER=1";
    let mut waited = 0;
    while !processes_with(marker).is_empty() && waited < 300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    let survivors = processes_with(marker);
    for pid in &survivors {
        // SAFETY: kill(2) on a process this test's grading started.
        unsafe {
            libc::kill(*pid as i32, libc::SIGKILL);
        }
    }
    assert!(
        survivors.is_empty(),
        "a student process left its process group and outlived the grading: {survivors:?}"
    );
}

#[test]
fn nim_zoo_is_graded_exactly_and_a_rerun_skips_only_what_is_unchanged() {
    let (specimens, report, mut run) = grade_zoo("nim");
    assert_outcomes(&specimens, &report, &run);
    assert_no_sleeper_survives();
    run.force = false;
    let again = grade_class(&run, &|_| {}).unwrap();
    assert!(again.graded.is_empty());
    assert_eq!(again.skipped.len(), specimens.len());
    assert_eq!(again.results, report.results);
    // A new hand-in is regraded, the others are not.
    let lib = run.submissions.join("nim-takes-zero/src/lib.rs");
    std::fs::write(&lib, read(&lib) + "\n// resubmitted\n").unwrap();
    let third = grade_class(&run, &|_| {}).unwrap();
    let regraded: Vec<&str> = third.graded.iter().map(|t| t.student.as_str()).collect();
    assert_eq!(regraded, ["nim-takes-zero"]);
    let mut others: Vec<&str> = specimens
        .iter()
        .map(|s| s.name.as_str())
        .filter(|name| *name != "nim-takes-zero")
        .collect();
    others.sort_unstable();
    assert_eq!(third.skipped, others);
    assert_printed_markdown_stays_fenced(&run);
    assert_reference_full_marks("nim");
}

/// Every "reproduce it" snippet of the feedback compiles in a student's
/// crate as it stands: they are pasted, as the feedback says, into the
/// sample submission's `src/lib.rs`, which is then built for testing.
fn assert_snippets_compile(report: &ClassReport) {
    let mut snippets: Vec<&str> = report
        .results
        .iter()
        .flat_map(|r| &r.tests)
        .filter_map(|t| t.reproduce.as_deref())
        .collect();
    snippets.sort_unstable();
    // Each is a test function named after its check: one of each name.
    snippets.dedup_by_key(|s| s.lines().nth(1).unwrap_or_default().to_owned());
    assert!(
        snippets.iter().any(|s| s.contains("check_law"))
            && snippets.iter().any(|s| s.contains("estimate_value"))
            && snippets.iter().any(|s| s.contains("game_api::replay")),
        "the zoo's feedback has law, AI and fixture snippets:\n{}",
        snippets.join("\n\n")
    );
    let krate = tmp().join("snippets");
    let _ = std::fs::remove_dir_all(&krate);
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let sample = workspace().join("grader/sample-submission");
    // The sample's manifest, without its dev-dependencies (the snippets
    // need only game-api), with game-api found from here.
    let mut in_dev = false;
    let manifest: String = read(&sample.join("Cargo.toml"))
        .lines()
        .filter(|line| {
            if line.starts_with('[') {
                in_dev = line.trim() == "[dev-dependencies]";
            }
            !in_dev
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let manifest = manifest.replace(
        "path = \"../../crates/game-api\"",
        &format!("path = {:?}", workspace().join("crates/game-api")),
    );
    assert!(
        manifest.contains("crates/game-api\"") && !manifest.contains("[dev-dependencies]"),
        "{manifest}"
    );
    std::fs::write(krate.join("Cargo.toml"), manifest).unwrap();
    let lib = format!(
        "{}\n{}\n",
        read(&sample.join("src/lib.rs")),
        snippets.join("\n\n")
    );
    std::fs::write(krate.join("src/lib.rs"), lib).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "test",
            "--no-run",
            "--offline",
            "--quiet",
            "--manifest-path",
        ])
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", tmp().join("snippets-target"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the snippets do not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `nim-prints-markdown` prints (and panics with) a code fence, a heading
/// and an `<img>`: its feedback shows them, but only inside fences that
/// they do not close.
fn assert_printed_markdown_stays_fenced(run: &ClassRun) {
    let md = read(&student_dir(&run.out, "nim-prints-markdown").join("feedback.md"));
    // CommonMark's backtick fences: opened by 3 or more, closed by as many
    // or more on a line of their own.
    let (mut open, mut outside, mut fenced) = (None::<usize>, String::new(), String::new());
    for line in md.lines() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        match open {
            Some(n) if ticks >= n && line[ticks..].trim().is_empty() => open = None,
            Some(_) => fenced += &format!("{line}\n"),
            None if ticks >= 3 => open = Some(ticks),
            None => outside += &format!("{line}\n"),
        }
    }
    assert_eq!(open, None, "a fence is left open:\n{md}");
    assert!(
        fenced.contains("```\n# Pwned\n<img src=x onerror=alert(1)>\n"),
        "the output is shown verbatim:\n{md}"
    );
    assert!(!outside.contains("<img"), "raw HTML outside a fence:\n{md}");
    assert!(!outside.contains("# Pwned"), "a heading of its own:\n{md}");
}

#[test]
fn yucky_chocolate_zoo_is_graded_exactly_and_only_runs_the_tagged_tests() {
    let (specimens, report, run) = grade_zoo("yucky-chocolate");
    assert_outcomes(&specimens, &report, &run);
    let mut only = run.clone();
    only.only = Some("ai".into());
    only.out = run.out.with_file_name("yucky-chocolate-only-ai");
    let ai = grade_class(&only, &|_| {}).unwrap();
    for r in &ai.results {
        let names: Vec<&str> = r.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ai-makes-the-bar-square"], "{}", r.student);
    }
    assert_reference_full_marks("yucky-chocolate");
}
