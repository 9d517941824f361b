//! Class runs end to end, with copies of the sample submission (a correct
//! Nim): any folder name is a student and every class file is still
//! written; a result that is not final is regraded by the next run while
//! final ones are kept.
//!
//! Builds share the zoo test's Cargo target dir, so the dependencies
//! compile once for both.

mod common;

use common::workspace;
use grader::class::{grade_class, student_dir, ClassRun};
use grader::report::{SubmissionResult, Verdict};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// A folder of copies of the sample submission, one per name.
fn class_of(folder: &str, names: &[&str]) -> PathBuf {
    let dir = tmp().join("class").join(folder);
    let _ = std::fs::remove_dir_all(&dir);
    let sample = workspace().join("grader/sample-submission");
    for name in names {
        let student = dir.join(name);
        std::fs::create_dir_all(student.join("src")).unwrap();
        for file in ["Cargo.toml", "src/lib.rs"] {
            std::fs::copy(sample.join(file), student.join(file)).unwrap();
        }
    }
    dir
}

fn run(submissions: PathBuf, out: &str) -> ClassRun {
    let mut run = ClassRun::new(
        &workspace(),
        "nim",
        submissions,
        PathBuf::from(env!("CARGO_BIN_EXE_grader")),
    );
    run.build_dir = tmp().join("zoo/build");
    run.out = tmp().join("class/grades").join(out);
    let _ = std::fs::remove_dir_all(&run.out);
    run
}

/// An executable script, written by a child process: a file this process
/// had open for writing could be inherited by a process another test is
/// starting at that instant, and running it would then fail ("text file
/// busy").
fn script(name: &str, text: &str) -> PathBuf {
    let path = tmp().join("class").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut child = std::process::Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    path
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn stored(run: &ClassRun, student: &str) -> SubmissionResult {
    let path = student_dir(&run.out, student).join("results.json");
    SubmissionResult::from_gradescope_json(&read(&path)).unwrap()
}

#[test]
fn any_folder_name_is_a_student_and_every_class_file_is_written() {
    let names = [
        "-rf",
        "--force",
        "gradebook.csv",
        "summary.txt",
        "a b",
        "Zoë",
    ];
    let folder = class_of("odd-names", &names);
    // Hidden folders are not graded, and the summary says so.
    std::fs::create_dir_all(folder.join(".hidden/src")).unwrap();
    let run = run(folder, "odd-names");
    let report = grade_class(&run, &|line| eprintln!("{line}")).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.hidden, [".hidden"]);
    let graded: BTreeSet<&str> = report.results.iter().map(|r| r.student.as_str()).collect();
    assert_eq!(graded, BTreeSet::from(names));
    for r in &report.results {
        assert_eq!(
            (r.score, r.failing()),
            (r.max_score, vec![]),
            "{}: full marks (a copy of the sample)",
            r.student
        );
        assert_eq!(stored(&run, &r.student), *r);
        assert!(student_dir(&run.out, &r.student)
            .join("feedback.md")
            .is_file());
    }
    // The class files are files, at the top, and well-formed.
    let mut gradebook = csv::Reader::from_path(run.out.join("gradebook.csv")).unwrap();
    let headers = gradebook.headers().unwrap().clone();
    assert_eq!(&headers[0], "student");
    let rows: Vec<csv::StringRecord> = gradebook.records().map(Result::unwrap).collect();
    let in_gradebook: BTreeSet<&str> = rows.iter().map(|row| &row[0]).collect();
    // A name a spreadsheet would read as a formula gets a `'` before it.
    let written = [
        "'-rf",
        "'--force",
        "gradebook.csv",
        "summary.txt",
        "a b",
        "Zoë",
    ];
    assert_eq!(in_gradebook, BTreeSet::from(written), "one row per student");
    assert_eq!(rows.len(), names.len());
    assert!(rows.iter().all(|row| row.len() == headers.len()));
    let summary = read(&run.out.join("summary.txt"));
    assert_eq!(summary, report.summary);
    for name in names {
        assert!(
            summary.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} has its line:\n{summary}"
        );
    }
    assert!(
        summary.contains("not graded: hidden folders (names starting with `.`): .hidden"),
        "{summary}"
    );
    assert!(summary.contains("class: 6 submissions"), "{summary}");
}

#[test]
fn a_result_that_is_not_final_is_regraded_by_the_next_run_and_final_ones_are_kept() {
    let folder = class_of("regrade", &["kept", "redone"]);
    let mut run = run(folder, "regrade");
    let first = grade_class(&run, &|line| eprintln!("{line}")).unwrap_or_else(|e| panic!("{e}"));
    assert!(first.errors.is_empty(), "{:?}", first.errors);
    assert_eq!(stored(&run, "kept").verdict_by, Verdict::Graded);

    // A resubmission is judged by a grader that a signal kills (as Ctrl-C
    // or the OOM killer would): not the student's fault.
    let lib = run.submissions.join("redone/src/lib.rs");
    std::fs::write(&lib, read(&lib) + "\n// resubmitted\n").unwrap();
    let killed = script("killed-grader.sh", "#!/bin/sh\nkill -9 $$\n");
    let working = std::mem::replace(&mut run.grader_bin, killed);
    let interrupted = grade_class(&run, &|line| eprintln!("{line}")).unwrap();
    assert_eq!(interrupted.skipped, ["kept"]);
    assert_eq!(interrupted.errors.len(), 1, "{:?}", interrupted.errors);
    assert!(
        interrupted.errors[0].starts_with("redone: `grader judge` was stopped by signal 9"),
        "{:?}",
        interrupted.errors
    );
    assert_eq!(stored(&run, "redone").verdict_by, Verdict::Interrupted);
    assert!(
        interrupted.summary.contains(
            "not final, not the students' fault, regraded by the next run: redone (grading was interrupted)"
        ),
        "{}",
        interrupted.summary
    );

    // Nothing changed, yet it is regraded; this time the grader is missing.
    run.grader_bin = tmp().join("no-such-grader");
    let broken = grade_class(&run, &|line| eprintln!("{line}")).unwrap();
    assert_eq!(broken.skipped, ["kept"]);
    assert_eq!(broken.errors.len(), 1, "{:?}", broken.errors);
    assert!(
        broken.errors[0].starts_with("redone: "),
        "{:?}",
        broken.errors
    );
    let failed = stored(&run, "redone");
    assert_eq!(failed.verdict_by, Verdict::GraderFailed);
    assert_eq!(failed.failing(), ["grading"]);

    // With a working grader, the next run regrades it, and only it.
    run.grader_bin = working;
    let next = grade_class(&run, &|line| eprintln!("{line}")).unwrap();
    let regraded: Vec<&str> = next.graded.iter().map(|t| t.student.as_str()).collect();
    assert_eq!(regraded, ["redone"]);
    assert_eq!(next.skipped, ["kept"]);
    assert!(next.errors.is_empty(), "{:?}", next.errors);
    let redone = stored(&run, "redone");
    assert_eq!(redone.verdict_by, Verdict::Graded);
    assert_eq!((redone.score, redone.failing()), (redone.max_score, vec![]));
}

#[test]
fn a_build_killed_from_outside_is_not_blamed_on_the_student_and_is_redone_by_the_next_run() {
    let folder = class_of("interrupted-build", &["ann"]);
    let mut run = run(folder, "interrupted-build");
    // A launcher that starts the build as the real one does (it reports on
    // descriptor 3), and then the build dies of a signal nobody in the
    // grader sent, as under the teacher's Ctrl-C or the OOM killer.
    let killed = script(
        "killed-build.sh",
        "#!/bin/sh\nprintf '{\"Ok\":{\"files\":\"enforced\",\"network\":\"enforced\",\"processes\":\"not capped\"}}' >&3\nexec 3>&-\nkill -9 $$\n",
    );
    let working = std::mem::replace(&mut run.launcher, killed);
    let report = grade_class(&run, &|line| eprintln!("{line}")).unwrap();
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let ann = stored(&run, "ann");
    assert_eq!(ann.verdict_by, Verdict::Interrupted, "{:?}", ann.tests);
    assert_eq!(ann.failing(), ["grading"]);
    assert!(
        ann.tests[0]
            .failure
            .as_deref()
            .unwrap_or_default()
            .contains("the build was interrupted"),
        "{:?}",
        ann.tests[0].failure
    );
    run.launcher = working;
    let again = grade_class(&run, &|line| eprintln!("{line}")).unwrap();
    assert!(again.errors.is_empty(), "{:?}", again.errors);
    let ann = stored(&run, "ann");
    assert_eq!(ann.verdict_by, Verdict::Graded);
    assert_eq!((ann.score, ann.failing()), (ann.max_score, vec![]));
}

#[test]
fn a_class_graded_two_at_a_time_gets_the_same_gradebook_as_one_at_a_time() {
    // The Nim zoo (correct, wrong, misbehaving) and copies of the sample.
    let zoo = workspace().join("grader/zoo");
    let folder = class_of("jobs", &["sample-a", "sample-b"]);
    for specimen in grader::zoo::load(&zoo)
        .unwrap()
        .iter()
        .filter(|s| s.game == "nim")
    {
        grader::zoo::materialize(&zoo, specimen, &workspace(), &folder).unwrap();
    }
    let files = |jobs: usize| {
        let mut run = run(folder.clone(), &format!("jobs-{jobs}"));
        run.jobs = jobs;
        let report =
            grade_class(&run, &|line| eprintln!("{line}")).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        assert!(
            report.results.iter().any(|r| r.score < r.max_score),
            "some student fails something, so the rows differ"
        );
        let students: Vec<(String, f64, Vec<String>)> = report
            .results
            .iter()
            .map(|r| {
                (
                    r.student.clone(),
                    r.score,
                    r.failing().into_iter().map(str::to_owned).collect(),
                )
            })
            .collect();
        let files = (
            read(&run.out.join("gradebook.csv")),
            read(&run.out.join("summary.txt")),
            students,
        );
        std::fs::remove_dir_all(&run.out).unwrap();
        files
    };
    let (one, two) = (files(1), files(2));
    assert_eq!(one, two);
    std::fs::remove_dir_all(folder).unwrap();
}
