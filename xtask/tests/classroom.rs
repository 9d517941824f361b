//! The GitHub Classroom workflow: valid YAML, GitHub Classroom's grading
//! and reporting steps wired together by their conventions, and its
//! grading commands run here as the command grader runs them (`sh -c`, in
//! the repository, with only `PATH` and `HOME` in the environment).

use std::path::PathBuf;
use yaml_rust2::{Yaml, YamlLoader};

mod common;
use common::{workspace, xtask};
use std::ffi::OsStr;

fn text(y: &Yaml) -> &str {
    y.as_str().unwrap_or_else(|| panic!("not a string: {y:?}"))
}

#[test]
fn the_classroom_workflow_is_yaml_whose_grading_step_runs_here_as_written() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("classroom");
    let _ = std::fs::remove_dir_all(&tmp);
    xtask(
        ["classroom", "--game", "nim", "--out"]
            .map(OsStr::new)
            .into_iter()
            .chain([tmp.as_os_str()]),
    );
    let file = std::fs::read_to_string(tmp.join(".github/workflows/classroom.yml")).unwrap();
    let docs = YamlLoader::load_from_str(&file).unwrap_or_else(|e| panic!("{e}\n{file}"));
    let doc = &docs[0];

    let on: Vec<&str> = doc["on"].as_vec().unwrap().iter().map(text).collect();
    assert!(on.contains(&"push"), "runs on every push: {on:?}");
    let jobs = doc["jobs"].as_hash().unwrap();
    assert_eq!(jobs.len(), 1);
    let steps = jobs.values().next().unwrap()["steps"].as_vec().unwrap();
    let uses: Vec<&str> = steps.iter().map(|s| text(&s["uses"])).collect();
    assert_eq!(
        uses,
        [
            "actions/checkout@v4",
            "classroom-resources/autograding-command-grader@v1",
            "classroom-resources/autograding-grading-reporter@v1"
        ]
    );
    let (grading, reporter) = (&steps[1], &steps[2]);
    let id = text(&grading["id"]);
    let with = &grading["with"];
    assert!(text(&with["test-name"]).contains("nim"));
    assert!(
        with["max-score"].as_i64().unwrap() > 0,
        "the public points, a whole number"
    );
    assert!(with["timeout"].as_i64().unwrap() > 0);
    // The reporter reads each runner's result from `<ID>_RESULTS`.
    assert_eq!(text(&reporter["with"]["runners"]), id);
    let env = reporter["env"].as_hash().unwrap();
    let (key, value) = env.iter().next().unwrap();
    assert_eq!(text(key), format!("{}_RESULTS", id.to_uppercase()));
    assert_eq!(text(value), format!("${{{{steps.{id}.outputs.result}}}}"));

    // As the command grader runs them: the setup, then the check, which
    // must pass (exit code 0) on the course's own crate.
    common::run_grading_step(with, &workspace());
    std::fs::remove_dir_all(&tmp).unwrap();
}
