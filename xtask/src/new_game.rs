//! `cargo xtask new-game <name> [--type T]`: scaffolds a reference game.
//!
//! It writes the crate `crates/<name>/` (`Game` and `Configurable` with every
//! function a documented `todo!`, the conformance kit and a rules test in
//! `tests/`, ignored until the game is implemented), one example fixture in
//! `fixtures/<name>/`, and registers the game: its line in the registry
//! (`crates/registry`), its dependency in the workspace and the registry,
//! and its `[games.<name>]` section in `fixtures/grading.toml`.
//!
//! [`plan`] only reads the workspace and returns every file to write, so it
//! is tested on a copy; [`write`] writes them.

use std::path::{Path, PathBuf};
use thiserror::Error;

/// The files of a new game: each path (relative to the workspace) with its
/// whole new text, and whether it is created or changed.
#[derive(Debug)]
pub struct Plan {
    /// `(path, text, created)`, in the order they are written.
    pub files: Vec<(PathBuf, String, bool)>,
}

/// Why a game cannot be scaffolded.
#[derive(Debug, Error)]
pub enum NewGameError {
    /// The name cannot be a game's.
    #[error("`{name}` is not a valid game name: {why}")]
    Invalid {
        /// The name, escaped.
        name: String,
        /// The rule it breaks.
        why: &'static str,
    },
    /// The name is taken.
    #[error("`{name}` already exists: {what}; choose another name")]
    Exists {
        /// The name.
        name: String,
        /// Where it is taken.
        what: String,
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

/// Names a crate may not have: Rust's keywords and the built-in crates.
const RESERVED: &[&str] = &[
    "abstract",
    "alloc",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "core",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "proc_macro",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "std",
    "struct",
    "super",
    "test",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
];

/// Checks that `name` can be a game's name and its crate's: lowercase ASCII
/// letters, digits and single hyphens, starting with a letter, at most 40
/// characters, not a keyword or a built-in crate.
///
/// # Errors
/// [`NewGameError::Invalid`] with the rule it breaks.
pub fn check_name(name: &str) -> Result<(), NewGameError> {
    let invalid = |why| NewGameError::Invalid {
        name: game_api::echo(name).to_string(),
        why,
    };
    if name.is_empty() {
        return Err(invalid("it is empty"));
    }
    if name.len() > 40 {
        return Err(invalid("it is longer than 40 characters"));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(invalid(
            "use only lowercase letters a-z, digits and hyphens (a crate name, e.g. `tictactoe` or `dots-and-boxes`)",
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Err(invalid("it must start with a letter"));
    }
    if name.ends_with('-') || name.contains("--") {
        return Err(invalid("hyphens go between words, one at a time"));
    }
    if RESERVED.contains(&name.replace('-', "_").as_str()) {
        return Err(invalid("it is a Rust keyword or a built-in crate"));
    }
    Ok(())
}

/// `tic-tac-toe` → `TicTacToe`.
pub fn type_name(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        })
        .collect()
}

fn read(ws: &Path, path: &str) -> Result<String, NewGameError> {
    std::fs::read_to_string(ws.join(path)).map_err(|e| NewGameError::Workspace {
        path: path.into(),
        message: format!("cannot read: {e}"),
    })
}

fn unexpected(path: &str, message: &str) -> NewGameError {
    NewGameError::Workspace {
        path: path.into(),
        message: message.to_owned(),
    }
}

/// `tic-tac-toe` → `Tic tac toe`, for prose.
fn title(name: &str) -> String {
    let words = name.replace('-', " ");
    let mut c = words.chars();
    c.next().map_or(String::new(), |f| {
        f.to_ascii_uppercase().to_string() + c.as_str()
    })
}

/// Inserts `line` after the last line of `text` that `after` accepts, within
/// the section whose header line is `section`.
fn insert_after_last(
    text: &str,
    section: &str,
    after: impl Fn(&str) -> bool,
    line: &str,
) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim() == section)?;
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with('['))
        .map_or(lines.len(), |i| start + 1 + i);
    let at = (start + 1..end).rev().find(|&i| after(lines[i]))?;
    let mut out: Vec<&str> = lines[..=at].to_vec();
    out.push(line);
    out.extend(&lines[at + 1..]);
    Some(out.join("\n") + "\n")
}

/// Every file the game `name` (type `ty`) needs, read from the workspace `ws`.
///
/// # Errors
/// An invalid or taken name, or a workspace file that is not as expected.
pub fn plan(ws: &Path, name: &str, ty: &str) -> Result<Plan, NewGameError> {
    check_name(name)?;
    if !ty.starts_with(|c: char| c.is_ascii_uppercase())
        || !ty.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return Err(NewGameError::Invalid {
            name: game_api::echo(ty).to_string(),
            why: "a type name is a letter A-Z then letters and digits, e.g. `TicTacToe`",
        });
    }
    let krate = name.replace('-', "_");
    let exists = |what: String| NewGameError::Exists {
        name: name.to_owned(),
        what,
    };
    for folder in [format!("crates/{name}"), format!("fixtures/{name}")] {
        if ws.join(&folder).exists() {
            return Err(exists(format!("the folder {folder}/ is there")));
        }
    }
    let root = read(ws, "Cargo.toml")?;
    let deps: toml::Table =
        toml::from_str(&root).map_err(|e| unexpected("Cargo.toml", &format!("not TOML: {e}")))?;
    let dep_names = deps
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.as_table())
        .ok_or_else(|| unexpected("Cargo.toml", "no [workspace.dependencies]"))?;
    if dep_names.keys().any(|k| k.replace('-', "_") == krate) {
        return Err(exists(format!(
            "a crate `{name}` is a workspace dependency (Cargo.toml)"
        )));
    }
    for member in ["grader", "xtask"] {
        if member == name {
            return Err(exists(format!(
                "the folder {member}/ is a workspace member"
            )));
        }
    }
    let grading = read(ws, "fixtures/grading.toml")?;
    if grading
        .lines()
        .any(|l| l.trim() == format!("[games.{name}]"))
    {
        return Err(exists(format!(
            "fixtures/grading.toml has a [games.{name}] section"
        )));
    }
    let registry = read(ws, "crates/registry/src/lib.rs")?;
    if registry
        .lines()
        .any(|l| l.trim().starts_with(&format!("{krate}::")))
    {
        return Err(exists(format!(
            "a game of the crate `{krate}` is registered in crates/registry/src/lib.rs"
        )));
    }
    let registry_manifest = read(ws, "crates/registry/Cargo.toml")?;

    let fill = |template: &str| {
        template
            .replace("{{name}}", name)
            .replace("{{krate}}", &krate)
            .replace("{{Type}}", ty)
            .replace("{{Title}}", &title(name))
    };
    let mut files = vec![
        (
            format!("crates/{name}/Cargo.toml"),
            fill(include_str!("new_game/Cargo.toml.txt")),
            true,
        ),
        (
            format!("crates/{name}/src/lib.rs"),
            fill(include_str!("new_game/lib.rs.txt")),
            true,
        ),
        (
            format!("crates/{name}/tests/conformance.rs"),
            fill(include_str!("new_game/conformance.rs.txt")),
            true,
        ),
        (
            format!("crates/{name}/tests/rules.rs"),
            fill(include_str!("new_game/rules.rs.txt")),
            true,
        ),
        (
            format!("fixtures/{name}/example.toml"),
            fill(include_str!("new_game/fixture.toml.txt")),
            true,
        ),
    ];
    let root = insert_after_last(
        &root,
        "[workspace.dependencies]",
        |l| l.contains("{ path = \"crates/"),
        &format!("{name} = {{ path = \"crates/{name}\" }}"),
    )
    .ok_or_else(|| {
        unexpected(
            "Cargo.toml",
            "no `<crate> = { path = \"crates/...\" }` line in [workspace.dependencies]",
        )
    })?;
    files.push(("Cargo.toml".into(), root, false));
    let registry_manifest = insert_after_last(
        &registry_manifest,
        "[dependencies]",
        |l| l.ends_with(".workspace = true"),
        &format!("{name}.workspace = true"),
    )
    .ok_or_else(|| {
        unexpected(
            "crates/registry/Cargo.toml",
            "no `<crate>.workspace = true` line in [dependencies]",
        )
    })?;
    files.push((
        "crates/registry/Cargo.toml".into(),
        registry_manifest,
        false,
    ));
    let registry = register(&registry, &format!("    {krate}::{ty},")).ok_or_else(|| {
        unexpected(
            "crates/registry/src/lib.rs",
            "no `register! {` block ending with a line `}`",
        )
    })?;
    files.push(("crates/registry/src/lib.rs".into(), registry, false));
    let mut grading = grading;
    if !grading.ends_with('\n') {
        grading.push('\n');
    }
    grading += &format!("\n[games.{name}]\nreference = \"crates/{name}\"\ntype = \"{ty}\"\n");
    files.push(("fixtures/grading.toml".into(), grading, false));
    Ok(Plan {
        files: files
            .into_iter()
            .map(|(p, t, c)| (PathBuf::from(p), t, c))
            .collect(),
    })
}

/// `text` with `line` added as the last line of its `register! { ... }` call.
fn register(text: &str, line: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "register! {")?;
    let end = start + 1 + lines[start + 1..].iter().position(|l| l.trim() == "}")?;
    let mut out: Vec<&str> = lines[..end].to_vec();
    out.push(line);
    out.extend(&lines[end..]);
    Some(out.join("\n") + "\n")
}

/// Writes the plan's files under `ws`.
///
/// # Errors
/// The first file that cannot be written.
pub fn write(ws: &Path, plan: &Plan) -> std::io::Result<()> {
    for (path, text, _) in &plan.files {
        let path = ws.join(path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(())
}

/// What to do next, printed after the files are written.
pub fn next_steps(name: &str) -> String {
    format!(
        "next:\n\
         1. implement crates/{name}/src/lib.rs (every `todo!` says what it must do; `cargo doc --open -p game-api` walks through a game);\n\
         2. delete the `#[ignore]` lines in crates/{name}/tests/ and run `cargo test -p {name}`;\n\
         3. write fixtures in fixtures/{name}/ and record their answer keys: `cargo xtask keys --game {name}`;\n\
         4. play it: `cargo run --release --bin games -- play {name}`.\n\
         Until step 1 is done, the commands that use every game (`games list`, the answer-key test) stop at the first `todo!`.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the files `plan` reads, and the folders of the existing
    /// games, in a fresh temporary folder.
    fn copy(test: &str) -> PathBuf {
        let ws = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let dir =
            std::env::temp_dir().join(format!("xtask-new-game-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for file in [
            "Cargo.toml",
            "fixtures/grading.toml",
            "crates/registry/Cargo.toml",
            "crates/registry/src/lib.rs",
        ] {
            std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
            std::fs::copy(ws.join(file), dir.join(file)).unwrap();
        }
        for folder in [
            "crates/nim",
            "crates/connect4",
            "crates/game-api",
            "fixtures/nim",
        ] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
        }
        dir
    }

    #[test]
    fn names_that_cannot_be_crates_are_refused_with_the_rule_they_break() {
        for (name, why) in [
            ("", "it is empty"),
            ("Tic", "use only lowercase letters"),
            ("tic_tac", "use only lowercase letters"),
            ("tic tac", "use only lowercase letters"),
            ("x\u{1b}", "use only lowercase letters"),
            ("3d-chess", "it must start with a letter"),
            ("tic-", "hyphens go between words"),
            ("tic--tac", "hyphens go between words"),
            ("self", "it is a Rust keyword or a built-in crate"),
            ("std", "it is a Rust keyword or a built-in crate"),
            ("test", "it is a Rust keyword or a built-in crate"),
        ] {
            let e = check_name(name).unwrap_err().to_string();
            assert!(e.contains(why), "{name}: {e}");
        }
        let e = check_name("x\u{1b}").unwrap_err().to_string();
        assert!(e.starts_with("`x\\u{1b}` is not a valid game name"), "{e}");
        assert!(check_name("dots-and-boxes2").is_ok());
    }

    #[test]
    fn names_already_taken_by_a_game_a_crate_a_folder_or_a_section_are_refused() {
        let dir = copy("taken");
        std::fs::write(
            dir.join("fixtures/grading.toml"),
            read(&dir, "fixtures/grading.toml").unwrap()
                + "\n[games.orphan]\nreference = \"crates/orphan\"\ntype = \"Orphan\"\n",
        )
        .unwrap();
        for (name, what) in [
            (
                "nim",
                "`nim` already exists: the folder crates/nim/ is there; choose another name",
            ),
            ("game-api", "the folder crates/game-api/ is there"),
            (
                "proptest",
                "a crate `proptest` is a workspace dependency (Cargo.toml)",
            ),
            ("registry", "the folder crates/registry/ is there"),
            ("players", "a crate `players` is a workspace dependency"),
            ("grader", "the folder grader/ is a workspace member"),
            (
                "orphan",
                "fixtures/grading.toml has a [games.orphan] section",
            ),
        ] {
            let e = plan(&dir, name, &type_name(name)).unwrap_err().to_string();
            assert!(e.contains(what), "{name}: {e}");
        }
        std::fs::create_dir_all(dir.join("fixtures/stray")).unwrap();
        let e = plan(&dir, "stray", "Stray").unwrap_err().to_string();
        assert!(e.contains("the folder fixtures/stray/ is there"), "{e}");
        let e = plan(&dir, "fine", "not-a-type").unwrap_err().to_string();
        assert!(e.contains("a type name is a letter A-Z"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_new_game_gets_its_crate_its_fixture_and_one_line_of_registration() {
        let dir = copy("new");
        let plan = plan(&dir, "tic-tac-toe", "TicTacToe").unwrap();
        let mut shown = String::new();
        for (path, text, created) in &plan.files {
            if *created {
                shown += &format!("===== {} (new)\n{text}", path.display());
            } else {
                // Only what changed: the plan only inserts lines, so the
                // original is a subsequence of the new text; the rest is added.
                let before = read(&dir, path.to_str().unwrap()).unwrap();
                let mut old = before.lines().peekable();
                let mut added = Vec::new();
                for line in text.lines() {
                    if old.peek() == Some(&line) {
                        old.next();
                    } else if !line.trim().is_empty() {
                        added.push(line);
                    }
                }
                assert_eq!(old.next(), None, "{} lost a line", path.display());
                shown += &format!(
                    "===== {} (added lines)\n{}\n",
                    path.display(),
                    added.join("\n")
                );
            }
        }
        insta::assert_snapshot!(shown);
        write(&dir, &plan).unwrap();
        let registry = read(&dir, "crates/registry/src/lib.rs").unwrap();
        assert!(
            registry.contains("    connect4::Connect4,\n")
                && registry.contains("    tic_tac_toe::TicTacToe,\n}"),
            "{registry}"
        );
        // A second time, the name is taken.
        let e = super::plan(&dir, "tic-tac-toe", "TicTacToe")
            .unwrap_err()
            .to_string();
        assert!(e.contains("already exists"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
