//! `cargo xtask handout --game <game> [--out DIR]`: the starter a student
//! receives for one assignment, generated from this workspace.
//!
//! The handout is a Cargo workspace of its own: the game's crate with its
//! solution regions replaced by `todo!` stubs, `game-api` (with the
//! conformance kit), `players`, the `games` program with a registry that
//! knows only the student's game, the grader's library (for the local
//! check, `cargo xtask check`, which judges through the grader's own
//! code), the visible fixtures with their answer keys, a README, the
//! student's guide (`docs/tutorial.md`) and GitHub Classroom's workflow
//! (the local check on every push, worth the public points).
//!
//! What a student must not see is left out by construction, not filtered
//! afterwards: only the named game's crate is copied, only fixtures whose
//! visibility is `visible` (and only their keys), no test, zoo or snapshot
//! of the grader, and manifests lose every dependency on a crate that is
//! not in the handout.
//!
//! Solution regions are marked in the reference sources by comment lines,
//! so they never disturb the reference crate's build, tests or docs:
//!
//! ```text
//! fn legal_moves(&self, state: &NimState) -> Vec<NimMove> {
//!     // BEGIN SOLUTION: every take from every nonempty pile
//!     ...
//!     // END SOLUTION
//! }
//! ```
//!
//! A region with a hint becomes `todo!("hint")` at the marker's
//! indentation; a region without one (a whole speed hook, a helper)
//! disappears. [`plan`] only reads the workspace and returns every file;
//! [`write`] writes them.

use game_api::{Configurable, Game};
use grader::fixture::{load_dir, Visibility};
use grader::key::AnswerKey;
use std::path::{Path, PathBuf};
use thiserror::Error;

mod manifest;
use manifest::{dropped_crates, manifest};

/// Whether the game's solution regions are stubbed or kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// Replaced by `todo!` stubs: what students receive.
    Stubbed,
    /// Kept (only the marker lines removed): the handout as a student who
    /// solved it holds it, to validate that it passes every public check.
    Kept,
}

/// Every file of a handout: each path (relative to the handout's root)
/// with its bytes.
#[derive(Debug)]
pub struct Handout {
    /// `(path, bytes)`, in the order they are written.
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

/// Why a handout cannot be generated.
#[derive(Debug, Error)]
pub enum HandoutError {
    /// The game is not a section of `fixtures/grading.toml`.
    #[error("`{game}` is not a game of fixtures/grading.toml (the games are: {known})")]
    UnknownGame {
        /// The name asked for, escaped.
        game: String,
        /// The games there are.
        known: String,
    },
    /// A solution marker out of place.
    #[error("{path}:{line}: {message}")]
    Marker {
        /// The source file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The game's sources have no solution region: the handout would be the solution.
    #[error("{path}: no solution region: mark each one with `// BEGIN SOLUTION: hint` ... `// END SOLUTION`")]
    NoRegion {
        /// The game's source folder.
        path: PathBuf,
    },
    /// A file of the workspace cannot be read, or is not as expected.
    #[error("{path}: {message}")]
    Workspace {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

const BEGIN: &str = "// BEGIN SOLUTION";
const END: &str = "// END SOLUTION";

/// The crates every handout carries besides the game's (folders of the
/// workspace); the registry is generated.
const SUPPORT: &[&str] = &[
    "crates/game-api",
    "crates/players",
    "crates/games",
    "grader",
    "grader/driver",
];

/// `text` (the file `path`) with its solution regions stubbed or kept, and
/// how many regions it has.
///
/// ```text
/// strip("fn f() -> u8 {\n    // BEGIN SOLUTION: one\n    1\n    // END SOLUTION\n}\n")
///   == "fn f() -> u8 {\n    todo!(\"one\")\n}\n"
/// ```
///
/// # Errors
/// [`HandoutError::Marker`] for a region that is not closed, an end
/// without a beginning, or a region inside a region.
pub fn strip(
    text: &str,
    path: &Path,
    solutions: Solutions,
) -> Result<(String, usize), HandoutError> {
    let marker = |line: usize, message: &str| HandoutError::Marker {
        path: path.to_owned(),
        line,
        message: message.to_owned(),
    };
    let mut out = String::with_capacity(text.len());
    let mut open: Option<usize> = None;
    let mut regions = 0;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(BEGIN) {
            if open.is_some() {
                return Err(marker(i + 1, "a solution region inside another one"));
            }
            open = Some(i + 1);
            regions += 1;
            let hint = rest.trim().strip_prefix(':').map(str::trim);
            if let (Solutions::Stubbed, Some(hint)) = (solutions, hint.filter(|h| !h.is_empty())) {
                let indent = &line[..line.len() - trimmed.len()];
                out += &format!("{indent}todo!({hint:?})\n");
            }
        } else if trimmed.starts_with(END) {
            if open.take().is_none() {
                return Err(marker(
                    i + 1,
                    "`// END SOLUTION` without a `// BEGIN SOLUTION` before it",
                ));
            }
        } else if open.is_none() || solutions == Solutions::Kept {
            out += line;
            out.push('\n');
        }
    }
    match open {
        Some(line) => Err(marker(
            line,
            "this solution region has no `// END SOLUTION`",
        )),
        None => Ok((out, regions)),
    }
}

/// The attribute that keeps a stubbed crate's build quiet: the `todo!`s
/// leave arguments and helpers unused, and a dozen warnings would hide the
/// ones that matter.
const QUIET: &str = "// The stubs leave arguments and helpers unused: remove this line once\n// every `todo!` is written, so the compiler warns about what you left.\n#![allow(unused)]\n";

/// `text` (a crate root) with [`QUIET`] after its inner doc comments and
/// attributes, where an inner attribute may stand.
fn quiet_stubs(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + QUIET.len());
    let mut placed = false;
    for line in text.lines() {
        let inner = line.starts_with("//!") || line.starts_with("#![") || line.trim().is_empty();
        if !placed && !inner {
            out += QUIET;
            placed = true;
        }
        out += line;
        out.push('\n');
    }
    if !placed {
        out += QUIET;
    }
    out
}

/// The game's facts a handout needs, read from its type.
struct Facts {
    rules: &'static str,
    notation: &'static str,
}

struct ReadFacts;
impl registry::Visitor for ReadFacts {
    type Output = Facts;
    fn visit<G: Game + Configurable>(self) -> Facts {
        Facts {
            rules: G::rules(),
            notation: G::notation(),
        }
    }
}

/// Every file of the handout of `game`, read from the workspace `ws`.
///
/// # Errors
/// An unknown game, a misplaced marker, or a workspace file that is not as
/// expected (a fixture, a stale or missing key...).
pub fn plan(ws: &Path, game: &str, solutions: Solutions) -> Result<Handout, HandoutError> {
    let bad = |path: &Path, message: String| HandoutError::Workspace {
        path: path.to_owned(),
        message,
    };
    let config_path = ws.join("fixtures/grading.toml");
    let config = grader::config::GradingConfig::load(&config_path)
        .map_err(|e| bad(&config_path, e.to_string()))?;
    let Some(section) = config.games.get(game) else {
        return Err(HandoutError::UnknownGame {
            game: game_api::echo(game).to_string(),
            known: config.games.keys().cloned().collect::<Vec<_>>().join(", "),
        });
    };
    let facts = registry::visit(game, ReadFacts)
        .map_err(|e| bad(&ws.join("crates/registry"), e.to_string()))?;
    let game_dir = section.reference.clone();
    let krate_path = ws.join(&game_dir);
    let package = package_name(&krate_path)?;
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();

    // The workspace: the course's manifest and lock file, without the
    // crates the handout does not have.
    let root_manifest = read(ws, Path::new("Cargo.toml"))?;
    let mut root: toml::Table =
        toml::from_str(&root_manifest).map_err(|e| bad(&ws.join("Cargo.toml"), e.to_string()))?;
    let mut kept: Vec<PathBuf> = SUPPORT.iter().map(PathBuf::from).collect();
    kept.push("crates/registry".into());
    kept.push(game_dir.clone());
    let dropped = dropped_crates(&root, &kept);
    if let Some(deps) = root
        .get_mut("workspace")
        .and_then(|w| w.get_mut("dependencies"))
        .and_then(toml::Value::as_table_mut)
    {
        deps.retain(|name, _| !dropped.iter().any(|d| d == name));
        // The local check (the handout's xtask) uses the grader's library.
        let mut grader = toml::Table::new();
        grader.insert("path".into(), toml::Value::String("grader".into()));
        deps.entry("grader").or_insert(toml::Value::Table(grader));
    }
    if let Some(w) = root
        .get_mut("workspace")
        .and_then(toml::Value::as_table_mut)
    {
        w.insert(
            "default-members".into(),
            toml::Value::Array(vec![toml::Value::String(slash(&game_dir))]),
        );
    }
    files.push((
        "Cargo.toml".into(),
        format!(
            "# The workspace of the {game} assignment (generated by `cargo xtask handout`).\n\
             # `cargo test` runs your crate's tests; `cargo xtask check` the grader's public checks.\n\n{}",
            toml::to_string(&root).expect("a table serialises")
        )
        .into_bytes(),
    ));
    files.push((
        "Cargo.lock".into(),
        read(ws, Path::new("Cargo.lock"))?.into_bytes(),
    ));
    files.push((
        ".cargo/config.toml".into(),
        include_str!("handout/config.toml.txt").as_bytes().to_vec(),
    ));
    files.push((".gitignore".into(), b"/target\n".to_vec()));

    // The crates students build on, as they are (their tests stay home).
    for dir in SUPPORT {
        copy_crate(ws, Path::new(dir), &dropped, false, &mut files)?;
    }
    files.push(registry_lib(ws, &package, &section.type_name)?);
    files.push((
        "crates/registry/Cargo.toml".into(),
        manifest(ws, Path::new("crates/registry"), &dropped, false)?.into_bytes(),
    ));

    // The game: its tests come along; its sources lose their solutions.
    let before = files.len();
    copy_crate(ws, &game_dir, &dropped, true, &mut files)?;
    let src = game_dir.join("src");
    let mut regions = 0;
    for (path, bytes) in &mut files[before..] {
        if path.starts_with(&src) && path.extension().is_some_and(|e| e == "rs") {
            let text = String::from_utf8(std::mem::take(bytes))
                .map_err(|_| bad(&ws.join(&*path), "not UTF-8".into()))?;
            let (mut text, n) = strip(&text, &ws.join(&*path), solutions)?;
            regions += n;
            if *path == src.join("lib.rs") && n > 0 && solutions == Solutions::Stubbed {
                text = quiet_stubs(&text);
            }
            if *path == src.join("lib.rs") && !text.contains("pub type Submission") {
                text += &format!(
                    "\n/// The game the grader builds (`Submission::from_options`): keep this line.\npub type Submission = {};\n",
                    section.type_name
                );
            }
            *bytes = text.into_bytes();
        }
    }
    if regions == 0 {
        return Err(HandoutError::NoRegion {
            path: krate_path.join("src"),
        });
    }

    // The settings (this game only), the visible fixtures and their keys.
    let mut settings: toml::Table = toml::from_str(&read(ws, Path::new("fixtures/grading.toml"))?)
        .map_err(|e| bad(&config_path, e.to_string()))?;
    if let Some(games) = settings
        .get_mut("games")
        .and_then(toml::Value::as_table_mut)
    {
        games.retain(|name, _| name == game);
    }
    files.push((
        "fixtures/grading.toml".into(),
        format!(
            "# How the grader judges this assignment (read by `cargo xtask check`).\n\n{}",
            toml::to_string(&settings).expect("a table serialises")
        )
        .into_bytes(),
    ));
    let fixtures_dir = ws.join("fixtures").join(game);
    let fixtures = load_dir(&fixtures_dir, game).map_err(|e| bad(&fixtures_dir, e.to_string()))?;
    let keys_dir = ws.join("grader/tests/snapshots");
    for f in fixtures
        .iter()
        .filter(|f| f.visibility == Visibility::Visible)
    {
        AnswerKey::load(&keys_dir, f).map_err(|e| bad(&f.path, e.to_string()))?;
        let file = f.path.file_name().expect("a fixture is a file");
        let bytes = std::fs::read(&f.path).map_err(|e| bad(&f.path, e.to_string()))?;
        files.push((Path::new("fixtures").join(game).join(file), bytes));
        let key = format!("answer_keys__{}.snap", AnswerKey::snapshot_name(f));
        let bytes = std::fs::read(keys_dir.join(&key))
            .map_err(|e| bad(&keys_dir.join(&key), e.to_string()))?;
        files.push((Path::new("fixtures/keys").join(key), bytes));
    }

    // The local check and the README.
    let fill = |template: &str| {
        template
            .replace("@GAME@", game)
            .replace("@PACKAGE@", &package)
            .replace("@CRATE@", &package.replace('-', "_"))
            .replace("@DIR@", &slash(&game_dir))
            .replace("@TYPE@", &section.type_name)
            .replace("@RULES@", facts.rules)
            .replace("@NOTATION@", facts.notation)
    };
    files.push((
        "xtask/Cargo.toml".into(),
        fill(include_str!("handout/xtask.toml.txt")).into_bytes(),
    ));
    files.push((
        "xtask/src/main.rs".into(),
        fill(include_str!("handout/xtask.rs.txt")).into_bytes(),
    ));
    files.push((
        "README.md".into(),
        fill(include_str!("handout/README.md.txt")).into_bytes(),
    ));
    files.push((
        "docs/tutorial.md".into(),
        read(ws, Path::new("docs/tutorial.md"))?.into_bytes(),
    ));
    // A GitHub Classroom assignment made from the handout grades every push
    // with the local check, worth the public points.
    let points = crate::classroom::public_points(ws, game)
        .map_err(|e| bad(&config_path, format!("{e:#}")))?;
    files.push((
        ".github/workflows/classroom.yml".into(),
        crate::classroom::workflow(game, &crate::classroom::handout_commands(), points)
            .into_bytes(),
    ));
    Ok(Handout { files })
}

/// Writes the handout's files under `out`. Whatever `out` held before is
/// removed first, but its `target/` (the build cache): no file of an older
/// handout (a fixture since made hidden...) can stay behind.
///
/// # Errors
/// The first file that cannot be removed or written.
pub fn write(out: &Path, handout: &Handout) -> std::io::Result<()> {
    if out.exists() {
        for entry in std::fs::read_dir(out)? {
            let path = entry?.path();
            if path.file_name() == Some("target".as_ref()) {
                continue;
            }
            if path.is_dir() && !path.is_symlink() {
                std::fs::remove_dir_all(&path)?;
            } else {
                std::fs::remove_file(&path)?;
            }
        }
    }
    for (path, bytes) in &handout.files {
        let path = out.join(path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, bytes)?;
    }
    Ok(())
}

/// A path with `/` between its parts, as manifests write them.
fn slash(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn read(ws: &Path, path: &Path) -> Result<String, HandoutError> {
    std::fs::read_to_string(ws.join(path)).map_err(|e| HandoutError::Workspace {
        path: ws.join(path),
        message: e.to_string(),
    })
}

fn package_name(dir: &Path) -> Result<String, HandoutError> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| HandoutError::Workspace {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let t: toml::Table = toml::from_str(&text).map_err(|e| HandoutError::Workspace {
        path: path.clone(),
        message: e.to_string(),
    })?;
    t.get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .ok_or(HandoutError::Workspace {
            path,
            message: "no [package] name".into(),
        })
}

/// Copies a crate: its filtered manifest and its sources (without insta
/// snapshots); with `tests`, its tests and examples too.
fn copy_crate(
    ws: &Path,
    dir: &Path,
    dropped: &[String],
    tests: bool,
    files: &mut Vec<(PathBuf, Vec<u8>)>,
) -> Result<(), HandoutError> {
    files.push((
        dir.join("Cargo.toml"),
        manifest(ws, dir, dropped, tests)?.into_bytes(),
    ));
    let mut folders = vec![dir.join("src")];
    if tests {
        folders.extend([dir.join("tests"), dir.join("examples"), dir.join("benches")]);
    }
    for folder in folders {
        copy_tree(ws, &folder, tests, files)?;
    }
    Ok(())
}

fn copy_tree(
    ws: &Path,
    dir: &Path,
    snapshots: bool,
    files: &mut Vec<(PathBuf, Vec<u8>)>,
) -> Result<(), HandoutError> {
    let io = |e: std::io::Error| HandoutError::Workspace {
        path: ws.join(dir),
        message: e.to_string(),
    };
    let Ok(entries) = std::fs::read_dir(ws.join(dir)) else {
        return Ok(());
    };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    paths.sort();
    for path in paths {
        let name = path.file_name().expect("an entry has a name");
        let relative = dir.join(name);
        if path.is_dir() {
            if snapshots || name != "snapshots" {
                copy_tree(ws, &relative, snapshots, files)?;
            }
        } else if path.is_file() {
            files.push((relative, std::fs::read(&path).map_err(io)?));
        }
    }
    Ok(())
}

/// The registry's `lib.rs` with one game registered: the student's.
fn registry_lib(
    ws: &Path,
    package: &str,
    type_name: &str,
) -> Result<(PathBuf, Vec<u8>), HandoutError> {
    let path = Path::new("crates/registry/src/lib.rs");
    let text = read(ws, path)?;
    let start = text
        .find("\nregister! {\n")
        .ok_or_else(|| HandoutError::Workspace {
            path: ws.join(path),
            message: "no `register! {` call".into(),
        })?;
    let body = start + "\nregister! {\n".len();
    let end = body
        + text[body..]
            .find("\n}\n")
            .ok_or_else(|| HandoutError::Workspace {
                path: ws.join(path),
                message: "the `register! {` call is not closed".into(),
            })?;
    let line = format!("    {}::{type_name},", package.replace('-', "_"));
    Ok((
        path.to_owned(),
        format!("{}{line}{}", &text[..body], &text[end..]).into_bytes(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_with_a_hint_becomes_a_todo_and_one_without_disappears() {
        let text = "fn f() -> u8 {\n    // BEGIN SOLUTION: one\n    1\n    // END SOLUTION\n}\n// BEGIN SOLUTION\nfn g() {}\n// END SOLUTION\n";
        let (stubbed, n) = strip(text, Path::new("a.rs"), Solutions::Stubbed).unwrap();
        assert_eq!(
            (stubbed.as_str(), n),
            ("fn f() -> u8 {\n    todo!(\"one\")\n}\n", 2)
        );
        let (kept, _) = strip(text, Path::new("a.rs"), Solutions::Kept).unwrap();
        assert_eq!(kept, "fn f() -> u8 {\n    1\n}\nfn g() {}\n");
    }

    #[test]
    fn the_quieting_attribute_goes_after_the_crate_docs_where_an_inner_attribute_may_stand() {
        let quiet = quiet_stubs("//! A game.\n//!\n#![forbid(unsafe_code)]\n\nuse x;\nfn f() {}\n");
        assert_eq!(
            quiet,
            format!("//! A game.\n//!\n#![forbid(unsafe_code)]\n\n{QUIET}use x;\nfn f() {{}}\n")
        );
        assert_eq!(
            quiet_stubs("//! Only docs.\n"),
            format!("//! Only docs.\n{QUIET}")
        );
    }

    #[test]
    fn only_the_game_crate_has_tests_so_cargo_test_workspace_tests_the_student_s_crate() {
        let ws = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let handout = plan(ws, "nim", Solutions::Stubbed).unwrap();
        let manifests: Vec<(&PathBuf, toml::Table)> = handout
            .files
            .iter()
            .filter(|(p, _)| p.ends_with("Cargo.toml") && p.parent() != Some(Path::new("")))
            .map(|(p, b)| (p, toml::from_str(std::str::from_utf8(b).unwrap()).unwrap()))
            .collect();
        for dir in SUPPORT {
            let (path, m) = manifests
                .iter()
                .find(|(p, _)| p.parent() == Some(Path::new(dir)))
                .unwrap_or_else(|| panic!("{dir} is in the handout"));
            assert!(m.get("dev-dependencies").is_none(), "{}", path.display());
            let lib = m.get("lib").unwrap_or_else(|| panic!("{}", path.display()));
            assert_eq!(lib.get("test"), Some(&toml::Value::Boolean(false)));
            assert_eq!(lib.get("doctest"), Some(&toml::Value::Boolean(false)));
        }
        let (_, nim) = manifests
            .iter()
            .find(|(p, _)| p.starts_with("crates/nim"))
            .unwrap();
        assert!(
            nim.get("lib").is_none(),
            "the student's crate keeps its tests"
        );
        assert!(nim.get("dev-dependencies").is_some());
    }

    #[test]
    fn misplaced_markers_are_named_with_file_and_line() {
        let e = |text: &str| {
            strip(text, Path::new("a.rs"), Solutions::Stubbed)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            e("x\n// BEGIN SOLUTION\n"),
            "a.rs:2: this solution region has no `// END SOLUTION`"
        );
        assert_eq!(
            e("// END SOLUTION\n"),
            "a.rs:1: `// END SOLUTION` without a `// BEGIN SOLUTION` before it"
        );
        assert_eq!(
            e("// BEGIN SOLUTION\n// BEGIN SOLUTION: x\n// END SOLUTION\n"),
            "a.rs:2: a solution region inside another one"
        );
    }
}
