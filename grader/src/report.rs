//! Grades out: `results.json` in Gradescope's format, a Markdown feedback
//! report a student can read on its own, the class's CSV gradebook and the
//! terminal summary. Every file is written atomically (a temporary file,
//! then a rename), so an interrupted run never leaves half a report.
//!
//! The feedback is safe to render (see [`crate::markdown`]): what comes
//! from the student's process (printed output, failure messages) is shown
//! only inside fences it cannot close, long output is cut with a note, and
//! names and descriptions are HTML-escaped. `results.json` is plain text
//! (`output_format: "text"`), with terminal control sequences removed.
//!
//! Points of checks a student cannot see count only after the due date
//! ([`Visibility::counts`]): before it, a result's score and maximum (in
//! `results.json`, the feedback, the gradebook and the summary) are those
//! of the visible checks, so no total gives a hidden failure away; a run
//! with `--after-due-date` counts every check.

use crate::fixture::Visibility;
use crate::markdown::{clean, code_span, cut, fence, inline, literal, MAX_BYTES, MAX_LINES};
use crate::results::{Origin, TestResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Everything about one graded submission; stored inside `results.json`
/// (as `extra_data`) so that a regrade can be compared with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    /// The student (the submission folder's name).
    pub student: String,
    /// The game.
    pub game: String,
    /// Points earned, in the checks that count (see [`Visibility::counts`]).
    pub score: f64,
    /// Points available, in the checks that count.
    pub max_score: f64,
    /// Seconds spent judging (and building).
    pub execution_time: f64,
    /// The conformance kit's seed.
    pub seed: u64,
    /// The submission's version (see `submission::submission_version`).
    pub submission_version: String,
    /// Fixture file → version, for every fixture graded.
    pub fixture_versions: BTreeMap<String, String>,
    /// How the student process was sandboxed.
    pub sandbox: String,
    /// Whether this is a grading after the due date: every check counts,
    /// and the after-due-date checks are shown in the feedback.
    pub after_due_date: bool,
    /// Whether this result is final, or incomplete through no fault of the
    /// student (and so regraded by the next run). Required when read back:
    /// a result written before this field existed is regraded.
    pub verdict_by: Verdict,
    /// Every test.
    pub tests: Vec<TestResult>,
}

/// Who or what settled a stored result: only [`Verdict::Graded`] is final.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The submission was graded (a build failure that is the student's
    /// included): final until the submission, the fixtures or the seed change.
    #[default]
    Graded,
    /// The grader or the course's own crates failed: not the student's
    /// fault, so not final; the next run regrades it.
    GraderFailed,
    /// Grading was stopped from outside (a signal: the teacher's Ctrl-C,
    /// the OOM killer, a `kill`): not final; the next run regrades it.
    Interrupted,
}

impl Verdict {
    /// Whether a re-run may keep the result.
    #[must_use]
    pub fn is_final(self) -> bool {
        self == Verdict::Graded
    }

    /// In words, for the summary.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Graded => "graded",
            Verdict::GraderFailed => "the grader or the course's crates failed",
            Verdict::Interrupted => "grading was interrupted",
        }
    }
}

impl SubmissionResult {
    /// Totals the tests that count (all of them `after_due_date`, only the
    /// visible ones before) and collects the fixture versions.
    #[must_use]
    pub fn new(
        student: &str,
        game: &str,
        seed: u64,
        sandbox: String,
        tests: Vec<TestResult>,
        after_due_date: bool,
    ) -> Self {
        let counted = tests.iter().filter(|t| t.visibility.counts(after_due_date));
        let score = counted.clone().map(|t| t.score).sum();
        let max_score = counted.map(|t| t.max_score).sum();
        let fixture_versions = tests
            .iter()
            .filter_map(|t| match &t.origin {
                Origin::Fixture { file, version } => Some((file.clone(), version.clone())),
                _ => None,
            })
            .collect();
        SubmissionResult {
            student: student.to_owned(),
            game: game.to_owned(),
            score,
            max_score,
            execution_time: 0.0,
            seed,
            submission_version: String::new(),
            fixture_versions,
            sandbox,
            after_due_date,
            verdict_by: Verdict::Graded,
            tests,
        }
    }

    /// The names of the failed tests.
    #[must_use]
    pub fn failing(&self) -> Vec<&str> {
        self.tests
            .iter()
            .filter(|t| !t.passed)
            .map(|t| t.name.as_str())
            .collect()
    }

    /// `results.json`, in Gradescope's autograder format.
    #[must_use]
    pub fn gradescope_json(&self) -> String {
        let tests: Vec<GradescopeTest> = self
            .tests
            .iter()
            .map(|t| GradescopeTest {
                name: clean(&t.name),
                score: t.score,
                max_score: t.max_score,
                status: if t.passed { "passed" } else { "failed" },
                output: test_text(t),
                output_format: TEXT,
                visibility: t.visibility,
                tags: t.tags.clone(),
            })
            .collect();
        let results = Gradescope {
            score: self.score,
            execution_time: self.execution_time,
            output: self.headline(),
            output_format: TEXT,
            visibility: Visibility::Visible,
            stdout_visibility: Visibility::Hidden,
            tests,
            extra_data: self,
        };
        serde_json::to_string_pretty(&results).expect("results serialise")
    }

    /// Reads back the result stored in a `results.json`.
    ///
    /// # Errors
    /// A message when the file is not a `results.json` written by the grader.
    pub fn from_gradescope_json(text: &str) -> Result<Self, String> {
        #[derive(Deserialize)]
        struct Stored {
            extra_data: SubmissionResult,
        }
        serde_json::from_str::<Stored>(text)
            .map(|s| s.extra_data)
            .map_err(|e| e.to_string())
    }

    /// The public verdict in one sentence: never implies that tests the
    /// student cannot see have passed.
    #[must_use]
    pub fn headline(&self) -> String {
        let public: Vec<&TestResult> = self
            .tests
            .iter()
            .filter(|t| t.visibility == Visibility::Visible)
            .collect();
        let failed = public.iter().filter(|t| !t.passed).count();
        let unseen = self.tests.len() - public.len();
        let mut text = if public.is_empty() {
            "No public checks.".to_owned()
        } else if failed == 0 {
            "All public checks passed.".to_owned()
        } else {
            format!("{failed} of {} public checks failed.", public.len())
        };
        if unseen > 0 {
            let _ = write!(
                text,
                " {} not shown here{}.",
                count(unseen, "more check is", "more checks are"),
                if self.after_due_date {
                    ""
                } else {
                    " and counted only after the due date"
                }
            );
        }
        text
    }

    /// The feedback report in Markdown, for the student.
    #[must_use]
    pub fn feedback_markdown(&self) -> String {
        let shown = |t: &&TestResult| {
            t.visibility == Visibility::Visible
                || (self.after_due_date
                    && matches!(
                        t.visibility,
                        Visibility::AfterDueDate | Visibility::AfterPublished
                    ))
        };
        let public: Vec<&TestResult> = self
            .tests
            .iter()
            .filter(|t| t.visibility == Visibility::Visible)
            .collect();
        let (got, max) = (
            public.iter().map(|t| t.score).sum::<f64>(),
            public.iter().map(|t| t.max_score).sum::<f64>(),
        );
        let mut md = format!(
            "# Feedback: {} ({})\n\n{}\n\n",
            literal(&self.student),
            literal(&self.game),
            self.headline()
        );
        let _ = writeln!(
            md,
            "Public checks: {} of {} passed, {} of {} points.\n",
            public.iter().filter(|t| t.passed).count(),
            public.len(),
            points(got),
            points(max)
        );
        if self.after_due_date && public.len() < self.tests.len() {
            let _ = writeln!(
                md,
                "Score after the due date, counting every check (those not shown here too): {} of {} points.\n",
                points(self.score),
                points(self.max_score)
            );
        }
        let failed: Vec<&TestResult> = self
            .tests
            .iter()
            .filter(|t| t.visibility == Visibility::Visible && !t.passed)
            .collect();
        if !failed.is_empty() {
            md += "## Failed checks\n\n";
            for t in failed {
                let _ = writeln!(
                    md,
                    "### {} ({})\n\nWhat it checks: {}.\n",
                    literal(&t.name),
                    worth(t.max_score),
                    inline(&t.about)
                );
                md += &failure_details(t);
            }
        }
        let passed: Vec<&TestResult> = public.iter().copied().filter(|t| t.passed).collect();
        if !passed.is_empty() {
            md += "## Passed checks\n\n";
            for t in passed {
                let _ = writeln!(md, "- {} ({})", literal(&t.name), worth(t.max_score));
            }
            md += "\n";
        }
        let later: Vec<&TestResult> = self
            .tests
            .iter()
            .filter(|t| t.visibility != Visibility::Visible)
            .filter(shown)
            .collect();
        if !later.is_empty() {
            md += "## Checks shown after the due date\n\n";
            for t in later {
                let _ = writeln!(
                    md,
                    "- {}: {}",
                    literal(&t.name),
                    if t.passed { "passed" } else { "failed" }
                );
            }
            md += "\n";
        }
        let hidden = self
            .tests
            .iter()
            .filter(|t| t.visibility != Visibility::Visible && !shown(t))
            .count();
        if hidden > 0 {
            let _ = writeln!(
                md,
                "{} not shown here (hidden, or shown after the due date).\n",
                count(hidden, "check is", "checks are")
            );
        }
        let _ = writeln!(
            md,
            "---\nGraded with seed {} and {} (versions in results.json), so a regrade gives the same result.",
            self.seed,
            count(self.fixture_versions.len(), "fixture file", "fixture files")
        );
        md
    }

    /// Writes `results.json` and `feedback.md` into `dir` atomically;
    /// `results.json` goes last, so its presence means the student is done.
    ///
    /// # Errors
    /// When a file cannot be written.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        remove_stale_temporaries(dir)?;
        write_atomic(
            &dir.join("feedback.md"),
            self.feedback_markdown().as_bytes(),
        )?;
        write_atomic(&dir.join("results.json"), self.gradescope_json().as_bytes())
    }
}

/// Gradescope's `output_format` for plain text: shown as it is, never
/// rendered as Markdown or HTML.
const TEXT: &str = "text";

#[derive(Serialize)]
struct Gradescope<'a> {
    score: f64,
    execution_time: f64,
    output: String,
    output_format: &'static str,
    visibility: Visibility,
    stdout_visibility: Visibility,
    tests: Vec<GradescopeTest>,
    extra_data: &'a SubmissionResult,
}

#[derive(Serialize)]
struct GradescopeTest {
    name: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    output_format: &'static str,
    visibility: Visibility,
    tags: Vec<String>,
}

/// `1 check is`, `3 checks are`...
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `1 point`, `2.5 points`.
fn worth(p: f64) -> String {
    let text = points(p);
    format!("{text} {}", if text == "1" { "point" } else { "points" })
}

fn points(p: f64) -> String {
    // `+ 0.0` turns the -0.0 of an empty sum into 0.
    let text = format!("{:.2}", p + 0.0);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A test's whole story as plain text (the `output` of a Gradescope test,
/// `output_format: "text"`): without terminal control sequences, and the
/// program's output cut.
fn test_text(t: &TestResult) -> String {
    let mut text = format!("What it checks: {}.", t.about);
    if let Some(failure) = &t.failure {
        if let Some(moves) = &t.moves {
            let _ = write!(
                text,
                "\nAfter the moves [{}] ({} moves):",
                moves.join(" "),
                moves.len()
            );
        }
        let _ = write!(text, "\n{}", cut(failure, MAX_LINES, MAX_BYTES));
        if let Some(printed) = &t.printed {
            let _ = write!(
                text,
                "\nThe program printed:\n{}",
                cut(printed, MAX_LINES, MAX_BYTES)
            );
        }
        if let Some(r) = &t.reproduce {
            let _ = write!(text, "\nTo reproduce:\n{r}");
        }
    }
    clean(&text)
}

/// A failed test's details in Markdown: the moves as inline code, and the
/// failure, the program's output and the reproduction each in a fence.
fn failure_details(t: &TestResult) -> String {
    let mut md = String::new();
    if let Some(moves) = &t.moves {
        let shown = if moves.is_empty() {
            "none (the initial position)".to_owned()
        } else {
            code_span(&moves.join(" "))
        };
        let _ = writeln!(md, "Moves so far: {shown}\n");
    }
    if let Some(failure) = &t.failure {
        md += &fence(&cut(failure, MAX_LINES, MAX_BYTES), "text");
    }
    if let Some(printed) = &t.printed {
        let _ = write!(
            md,
            "Your program printed (stdout and stderr):\n\n{}",
            fence(&cut(printed, MAX_LINES, MAX_BYTES), "text")
        );
    }
    if let Some(r) = &t.reproduce {
        let _ = write!(
            md,
            "To reproduce it, put this in a test of your crate:\n\n{}",
            fence(r, "rust")
        );
    }
    md
}

/// Writes a file atomically: a temporary file beside it, then a rename.
///
/// # Errors
/// When the file cannot be written.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Removes what an interrupted [`write_atomic`] left in `dir` (temporary
/// files not yet renamed), so a regrade leaves nothing behind. Only for a
/// folder that one process writes at a time.
///
/// # Errors
/// When the folder cannot be listed or a file removed.
pub fn remove_stale_temporaries(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') && name.contains(".tmp-") && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// The class's gradebook: one row per student, one column per test group
/// (points earned), then the total and the maximum; only the checks that
/// count (see [`Visibility::counts`]), so the columns add up to the total.
#[must_use]
pub fn gradebook_csv(results: &[SubmissionResult]) -> String {
    let mut groups: Vec<&str> = Vec::new();
    for r in results {
        for t in &r.tests {
            if !groups.contains(&t.group.as_str()) {
                groups.push(&t.group);
            }
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    let header: Vec<String> = std::iter::once("student")
        .chain(groups.iter().copied())
        .chain(["total", "max"])
        .map(inert)
        .collect();
    w.write_record(&header).expect("in-memory CSV");
    for r in results {
        let mut row = vec![inert(&r.student)];
        for g in &groups {
            row.push(points(
                r.tests
                    .iter()
                    .filter(|t| t.group == *g && t.visibility.counts(r.after_due_date))
                    .map(|t| t.score)
                    .sum(),
            ));
        }
        row.push(points(r.score));
        row.push(points(r.max_score));
        w.write_record(&row).expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 input gives UTF-8 CSV")
}

/// A text cell a spreadsheet shows as text: one that starts like a formula
/// (`=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'` before it, as
/// OWASP advises against CSV injection; a folder named `=HYPERLINK(...)`
/// stays a name.
fn inert(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

/// The terminal summary: one line per student (score, max, failing tests),
/// then class statistics.
#[must_use]
pub fn summary(results: &[SubmissionResult]) -> String {
    let width = results
        .iter()
        .map(|r| r.student.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    let mut text = format!(
        "{:<width$}  {:>7}  {:>7}  failing\n",
        "student", "score", "max"
    );
    for r in results {
        let failing = r.failing();
        let failing = if failing.is_empty() {
            "-".to_owned()
        } else {
            failing.join(", ")
        };
        let _ = writeln!(
            text,
            "{:<width$}  {:>7}  {:>7}  {failing}",
            r.student,
            points(r.score),
            points(r.max_score)
        );
    }
    if results.is_empty() {
        text += "no submissions\n";
        return text;
    }
    let mut scores: Vec<f64> = results.iter().map(|r| r.score).collect();
    scores.sort_by(f64::total_cmp);
    let n = scores.len();
    let mean = scores.iter().sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        scores[n / 2]
    } else {
        (scores[n / 2 - 1] + scores[n / 2]) / 2.0
    };
    let full = results
        .iter()
        .filter(|r| r.score >= r.max_score && r.max_score > 0.0)
        .count();
    let _ = writeln!(
        text,
        "\nclass: {n} submissions, mean {}, median {}, min {}, max {}, full marks {full}",
        points(mean),
        points(median),
        points(scores[0]),
        points(scores[n - 1])
    );
    let mut fails: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        for name in r.failing() {
            *fails.entry(name).or_default() += 1;
        }
    }
    let mut fails: Vec<(&str, usize)> = fails.into_iter().collect();
    fails.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    if !fails.is_empty() {
        let top: Vec<String> = fails
            .iter()
            .take(8)
            .map(|(name, k)| format!("{name} ({k})"))
            .collect();
        let _ = writeln!(text, "most failed: {}", top.join(", "));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(name: &str, group: &str, passed: bool, visibility: Visibility) -> TestResult {
        TestResult {
            name: name.into(),
            group: group.into(),
            tags: vec![],
            score: if passed { 2.0 } else { 0.0 },
            max_score: 2.0,
            passed,
            visibility,
            about: "something holds".into(),
            failure: (!passed).then(|| "expected: a\ngot: b".into()),
            moves: (!passed).then(|| vec!["4".into(), "5".into()]),
            reproduce: (!passed).then(|| "replay".into()),
            printed: None,
            origin: Origin::Fixture {
                file: format!("{name}.toml"),
                version: "sha256:00".into(),
            },
        }
    }

    #[test]
    fn the_headline_never_claims_hidden_checks_passed() {
        let r = SubmissionResult::new(
            "ann",
            "nim",
            1,
            "fully enforced".into(),
            vec![
                test("a", "g", true, Visibility::Visible),
                test("h", "g", false, Visibility::Hidden),
            ],
            false,
        );
        assert_eq!(
            r.headline(),
            "All public checks passed. 1 more check is not shown here and counted only after the due date."
        );
        let md = r.feedback_markdown();
        assert!(!md.contains("### h") && !md.contains("- h"), "{md}");
        assert!(
            md.contains("Public checks: 1 of 1 passed, 2 of 2 points."),
            "{md}"
        );
    }

    #[test]
    fn after_due_date_checks_show_only_name_and_result_once_visible() {
        let late = || vec![test("late", "g", false, Visibility::AfterDueDate)];
        let r = SubmissionResult::new("ann", "nim", 1, String::new(), late(), false);
        assert!(!r.feedback_markdown().contains("late"));
        let r = SubmissionResult::new("ann", "nim", 1, String::new(), late(), true);
        let md = r.feedback_markdown();
        assert!(md.contains("- late: failed"), "{md}");
        assert!(!md.contains("expected: a"), "{md}");
    }

    /// Two visible checks (one failed), a hidden failed one and a passed
    /// after-due-date one, each worth 2 points.
    fn mixed(after_due_date: bool) -> SubmissionResult {
        let tests = vec![
            test("a", "g", true, Visibility::Visible),
            test("b", "g", false, Visibility::Visible),
            test("h", "g", false, Visibility::Hidden),
            test("late", "g", true, Visibility::AfterDueDate),
        ];
        SubmissionResult::new("ann", "nim", 1, String::new(), tests, after_due_date)
    }

    #[test]
    fn before_the_due_date_every_total_leaves_out_the_checks_not_shown() {
        let r = mixed(false);
        assert_eq!((r.score, r.max_score), (2.0, 4.0));
        let json: serde_json::Value = serde_json::from_str(&r.gradescope_json()).unwrap();
        assert_eq!(json["score"], 2.0);
        assert_eq!(
            json["output"],
            "1 of 2 public checks failed. 2 more checks are not shown here and counted only after the due date."
        );
        let md = r.feedback_markdown();
        assert!(
            md.contains("Public checks: 1 of 2 passed, 2 of 4 points.\n"),
            "{md}"
        );
        assert!(!md.contains("Score after") && !md.contains("late"), "{md}");
        let csv = gradebook_csv(&[r]);
        assert_eq!(csv.lines().nth(1), Some("ann,2,2,4"), "{csv}");
    }

    #[test]
    fn after_the_due_date_every_check_counts_and_the_feedback_says_so() {
        let r = mixed(true);
        assert_eq!((r.score, r.max_score), (4.0, 8.0));
        let json: serde_json::Value = serde_json::from_str(&r.gradescope_json()).unwrap();
        assert_eq!(json["score"], 4.0);
        assert_eq!(
            json["output"],
            "1 of 2 public checks failed. 2 more checks are not shown here."
        );
        let md = r.feedback_markdown();
        assert!(
            md.contains("Score after the due date, counting every check (those not shown here too): 4 of 8 points."),
            "{md}"
        );
        assert!(
            md.contains("- late: passed") && !md.contains("- h:"),
            "{md}"
        );
        let csv = gradebook_csv(&[r]);
        assert_eq!(csv.lines().nth(1), Some("ann,4,4,8"), "{csv}");
    }

    #[test]
    fn gradescope_json_has_the_required_fields_and_reads_back() {
        let r = SubmissionResult::new(
            "bo",
            "nim",
            7,
            String::new(),
            vec![test("a", "g", false, Visibility::Visible)],
            false,
        );
        let json: serde_json::Value = serde_json::from_str(&r.gradescope_json()).unwrap();
        assert_eq!(json["score"], 0.0);
        assert_eq!(json["tests"][0]["status"], "failed");
        assert_eq!(json["tests"][0]["max_score"], 2.0);
        assert_eq!(json["tests"][0]["visibility"], "visible");
        assert!(json["tests"][0]["output"]
            .as_str()
            .unwrap()
            .contains("After the moves [4 5] (2 moves):\nexpected: a"));
        assert_eq!(json["extra_data"]["seed"], 7);
        assert_eq!(
            SubmissionResult::from_gradescope_json(&r.gradescope_json()).unwrap(),
            r
        );
    }

    #[test]
    fn what_the_student_printed_stays_inside_fences_and_names_are_escaped() {
        let payload = "```\n# Pwned\n<img src=x onerror=alert(1)>\n</details>\x1b[31m";
        let mut t = test("<b>bold</b>", "g", false, Visibility::Visible);
        t.failure = Some(format!("the program panicked: {payload}"));
        t.printed = Some(format!("{payload}\n{}", "x\n".repeat(1000)));
        t.moves = Some(vec!["1`2".into(), "<i>".into()]);
        t.about = "a <script>alert(1)</script> check".into();
        let r = SubmissionResult::new("<img src=y># Zoë", "nim", 1, String::new(), vec![t], false);
        let md = r.feedback_markdown();
        let (inside, outside, open) = crate::markdown::tests::blocks(&md);
        assert!(!open, "{md}");
        let outside = outside.join("\n");
        for raw in ["<img", "<b>", "<script", "</details>", "\n# Pwned", "\x1b"] {
            assert!(!outside.contains(raw), "{raw} outside a fence:\n{outside}");
        }
        assert!(
            outside.contains("# Feedback: &lt;img src=y&gt;\\# Zoë (nim)"),
            "{outside}"
        );
        assert!(outside.contains("### &lt;b&gt;bold&lt;/b&gt;"), "{outside}");
        // Inline code shows `<i>` as text.
        assert!(outside.contains("Moves so far: ``1`2 <i>``"), "{outside}");
        assert!(
            outside.contains("a &lt;script&gt;alert(1)&lt;/script&gt; check"),
            "{outside}"
        );
        assert_eq!(inside.len(), 3, "failure, printed, reproduce: {md}");
        assert!(inside[0].contains("```\n# Pwned\n<img src=x onerror=alert(1)>\n</details>\n"));
        assert!(
            inside[1].ends_with("… (cut: 964 more lines, 1928 more bytes)\n"),
            "{}",
            inside[1]
        );
        assert!(!md.contains('\x1b'));
        let json: serde_json::Value = serde_json::from_str(&r.gradescope_json()).unwrap();
        assert_eq!(json["output_format"], "text");
        assert_eq!(json["tests"][0]["output_format"], "text");
        let output = json["tests"][0]["output"].as_str().unwrap();
        assert!(output.contains("… (cut: 964 more lines") && !output.contains('\x1b'));
    }

    #[test]
    fn only_a_graded_result_is_final_and_a_result_without_a_verdict_is_not_read_back() {
        assert!(Verdict::Graded.is_final());
        assert!(!Verdict::GraderFailed.is_final() && !Verdict::Interrupted.is_final());
        let mut r = SubmissionResult::new("bo", "nim", 7, String::new(), vec![], false);
        assert_eq!(r.verdict_by, Verdict::Graded);
        r.verdict_by = Verdict::Interrupted;
        let json = r.gradescope_json();
        assert!(json.contains("\"verdict_by\": \"interrupted\""), "{json}");
        assert_eq!(SubmissionResult::from_gradescope_json(&json).unwrap(), r);
        // Written by a grader that did not say: read as no result, so regraded.
        let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
        old["extra_data"]
            .as_object_mut()
            .unwrap()
            .remove("verdict_by");
        assert!(SubmissionResult::from_gradescope_json(&old.to_string()).is_err());
    }

    #[test]
    fn writing_a_result_removes_what_an_interrupted_write_left() {
        let dir = std::env::temp_dir().join(format!("grader-report-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(".results.json.tmp-99999"), "{ half").unwrap();
        std::fs::write(dir.join(".feedback.md.tmp-99999"), "# half").unwrap();
        std::fs::write(dir.join("notes.txt"), "kept").unwrap();
        SubmissionResult::new("bo", "nim", 7, String::new(), vec![], false)
            .write(&dir)
            .unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["feedback.md", "notes.txt", "results.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn gradebook_has_a_column_per_group_and_quotes_names() {
        let a = SubmissionResult::new(
            "ann, jr",
            "nim",
            1,
            String::new(),
            vec![
                test("a", "wins", true, Visibility::Visible),
                test("b", "rules", false, Visibility::Hidden),
            ],
            false,
        );
        let b = SubmissionResult::new(
            "bo",
            "nim",
            1,
            String::new(),
            vec![test("a", "wins", false, Visibility::Visible)],
            false,
        );
        // The hidden check counts only after the due date.
        assert_eq!(
            gradebook_csv(&[a, b]),
            "student,wins,rules,total,max\n\"ann, jr\",2,0,2,2\nbo,0,0,0,2\n"
        );
    }

    #[test]
    fn gradebook_cells_that_look_like_formulas_stay_text() {
        let rows: Vec<String> = ["=HYPERLINK(\"http://x\")", "+1", "-rf", "@sum", "ann=1"]
            .iter()
            .map(|name| {
                let r = SubmissionResult::new(
                    name,
                    "nim",
                    1,
                    String::new(),
                    vec![test("a", "=wins", true, Visibility::Visible)],
                    false,
                );
                gradebook_csv(&[r])
            })
            .collect();
        assert!(rows
            .iter()
            .all(|csv| csv.starts_with("student,'=wins,total,max\n")));
        let names: Vec<&str> = rows.iter().map(|csv| csv.lines().nth(1).unwrap()).collect();
        assert_eq!(
            names,
            [
                "\"'=HYPERLINK(\"\"http://x\"\")\",2,2,2",
                "'+1,2,2,2",
                "'-rf,2,2,2",
                "'@sum,2,2,2",
                "ann=1,2,2,2"
            ]
        );
    }
}
