//! Submissions: vetting a student's crate, staging it, and building the
//! driver that questions it.
//!
//! ## The contract a submission meets
//!
//! A submission is a folder holding one Cargo package (a library crate):
//!
//! - `Cargo.toml` with a `[package]` name and a dependency on `game-api`
//!   (any spelling: a path, a git URL or a version; the grader points it at
//!   the course's `game-api`);
//! - `src/lib.rs` declaring `pub type Submission = YourGame;` where
//!   `YourGame` implements `game_api::Game` and `game_api::Configurable`.
//!   The grader builds it with `Submission::from_options`, which is how
//!   options such as the board size reach it;
//! - no build script, no procedural macro, no `unsafe` code, no
//!   `include_str!`-like macros or `#[path]` (they read files at build
//!   time), and only dependencies from the allow-list of
//!   `fixtures/grading.toml`.
//!
//! Vetting refuses anything else with a clear message *before* anything is
//! compiled: build scripts and proc-macros run arbitrary code at build time.
//! Only `Cargo.toml`'s essentials and the `.rs` files under `src/` are
//! staged; the manifest is written anew (so nothing unexpected in it takes
//! effect) with `unsafe_code = "forbid"`.

use game_api::transcript::line_column;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a submission is refused before it is built.
#[derive(Debug, Error, PartialEq)]
pub enum Refusal {
    /// No `Cargo.toml`.
    #[error("no Cargo.toml in {0}: a submission is a folder holding one Cargo package")]
    NoManifest(PathBuf),
    /// `Cargo.toml` is not valid.
    #[error("{0}")]
    BadManifest(String),
    /// A build script.
    #[error(
        "{0}: build scripts are not allowed (they run arbitrary code at build time); remove it"
    )]
    BuildScript(String),
    /// A procedural macro crate.
    #[error("Cargo.toml: `proc-macro = true` is not allowed (procedural macros run arbitrary code at build time)")]
    ProcMacro,
    /// A dependency that is not allowed.
    #[error("Cargo.toml: dependency `{name}` is not allowed: {why}")]
    Dependency {
        /// The dependency.
        name: String,
        /// Why.
        why: String,
    },
    /// No `src/lib.rs`.
    #[error("no src/lib.rs: a submission is a library crate whose src/lib.rs declares `pub type Submission = YourGame;`")]
    NoLib,
    /// Source that reads files at build time or uses forbidden features.
    #[error("{file}:{line}: `{what}` is not allowed in submissions ({why})")]
    Source {
        /// The file, relative to the submission.
        file: String,
        /// Its line, from 1.
        line: usize,
        /// The construct.
        what: String,
        /// Why it is refused.
        why: String,
    },
    /// A symbolic link, or anything else that is not a plain file or folder.
    #[error("{0}: not a plain file or folder (a symbolic link?): hand in the files themselves")]
    NotPlain(String),
    /// A file could not be read or copied.
    #[error("{0}")]
    Io(String),
}

/// The largest source or manifest file read from a submission.
const MAX_FILE: u64 = 1 << 20;

/// Reads a submission's file, refusing anything but a plain file (a
/// symbolic link could point anywhere on the grading machine) and files
/// over [`MAX_FILE`]. `shown` names it in messages.
fn read_plain(path: &Path, shown: &str) -> Result<String, Refusal> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => Refusal::NotPlain(shown.to_owned()),
            _ => Refusal::Io(format!("{shown}: {e}")),
        })?;
    let meta = file
        .metadata()
        .map_err(|e| Refusal::Io(format!("{shown}: {e}")))?;
    if !meta.is_file() {
        return Err(Refusal::NotPlain(shown.to_owned()));
    }
    if meta.len() > MAX_FILE {
        return Err(Refusal::Io(format!(
            "{shown}: larger than {} KiB",
            MAX_FILE >> 10
        )));
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_FILE), &mut text)
        .map_err(|e| Refusal::Io(format!("{shown}: {e}")))?;
    Ok(text)
}

/// Whether `path` is a folder itself (not a link to one).
fn is_plain_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// A submission that passed vetting.
#[derive(Clone, Debug, PartialEq)]
pub struct Vetted {
    /// The folder.
    pub dir: PathBuf,
    /// The package name.
    pub package: String,
    /// The Rust edition.
    pub edition: String,
    /// Allowed dependencies with their cleaned-up specifications.
    pub dependencies: Vec<(String, toml::Value)>,
    /// The `.rs` files under `src/`, relative to `src/`.
    pub sources: Vec<PathBuf>,
}

/// Source constructs refused in submissions, and why.
/// The rarer names are refused even without `!`, so that a `macro_rules!`
/// cannot call them by a name passed in (`m!(include_str)`).
const FORBIDDEN: [(&str, &str); 6] = [
    ("include_str", "it reads a file at build time"),
    ("include_bytes", "it reads a file at build time"),
    ("include!", "it reads a file at build time"),
    ("env!", "it reads the build environment"),
    ("option_env", "it reads the build environment"),
    ("#[path", "it reads a file from anywhere at build time"),
];

/// Checks a submission folder against the contract.
///
/// # Errors
/// The first [`Refusal`] met.
pub fn vet(dir: &Path, allowed: &[String]) -> Result<Vetted, Refusal> {
    if !is_plain_dir(dir) {
        return Err(Refusal::NotPlain("the submission folder".into()));
    }
    let manifest_path = dir.join("Cargo.toml");
    if std::fs::symlink_metadata(&manifest_path).is_err() {
        return Err(Refusal::NoManifest(dir.to_owned()));
    }
    let text = read_plain(&manifest_path, "Cargo.toml")?;
    let manifest: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let (line, column) = e.span().map_or((1, 1), |s| line_column(&text, s.start));
        Refusal::BadManifest(format!(
            "Cargo.toml:{line}:{column}: {}",
            e.message().trim()
        ))
    })?;
    let bad = |m: &str| Refusal::BadManifest(format!("Cargo.toml: {m}"));
    let package = manifest
        .get("package")
        .and_then(toml::Value::as_table)
        .ok_or_else(|| bad("expected a [package] table"))?;
    let name = package
        .get("name")
        .and_then(toml::Value::as_str)
        .filter(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
        .ok_or_else(|| bad("expected `name` in [package]: letters, digits, - and _"))?;
    let edition = match package.get("edition").and_then(toml::Value::as_str) {
        Some(e @ ("2015" | "2018" | "2021" | "2024")) => e.to_owned(),
        _ => "2021".to_owned(),
    };
    if dir.join("build.rs").exists() {
        return Err(Refusal::BuildScript("build.rs".into()));
    }
    if let Some(build) = package.get("build") {
        if build.as_bool() != Some(false) {
            return Err(Refusal::BuildScript(format!(
                "Cargo.toml: `build = {build}`"
            )));
        }
    }
    if manifest
        .get("lib")
        .and_then(|l| l.get("proc-macro").or_else(|| l.get("proc_macro")))
        .and_then(toml::Value::as_bool)
        == Some(true)
    {
        return Err(Refusal::ProcMacro);
    }
    for section in ["build-dependencies", "build_dependencies"] {
        if let Some(name) = manifest
            .get(section)
            .and_then(toml::Value::as_table)
            .and_then(|t| t.keys().next())
        {
            return Err(Refusal::Dependency {
                name: name.clone(),
                why: "build dependencies only serve build scripts, which are not allowed".into(),
            });
        }
    }
    if manifest.contains_key("target") {
        return Err(bad(
            "platform-specific [target] tables are not supported: use [dependencies]",
        ));
    }
    let mut dependencies = Vec::new();
    for (dep, spec) in manifest
        .get("dependencies")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flatten()
    {
        if dep == "game-api" || dep == "game_api" {
            continue;
        }
        let refuse = |why: &str| Refusal::Dependency {
            name: dep.clone(),
            why: why.to_owned(),
        };
        if !allowed.iter().any(|a| a == dep) {
            return Err(refuse(&format!(
                "the allow-list has only game-api{}{}",
                if allowed.is_empty() { "" } else { ", " },
                allowed.join(", ")
            )));
        }
        dependencies.push((dep.clone(), clean_spec(spec).map_err(|why| refuse(&why))?));
    }
    if std::fs::symlink_metadata(dir.join("src/lib.rs")).is_err() {
        return Err(Refusal::NoLib);
    }
    if !is_plain_dir(&dir.join("src")) {
        return Err(Refusal::NotPlain("src".into()));
    }
    let sources = rust_files(&dir.join("src"))?;
    for file in &sources {
        let text = read_plain(
            &dir.join("src").join(file),
            &format!("src/{}", file.display()),
        )?;
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
            if let Some((what, why)) = FORBIDDEN.iter().find(|(what, _)| mentions(&squeezed, what))
            {
                return Err(Refusal::Source {
                    file: format!("src/{}", file.display()),
                    line: i + 1,
                    what: (*what).to_owned(),
                    why: (*why).to_owned(),
                });
            }
        }
    }
    Ok(Vetted {
        dir: dir.to_owned(),
        package: name.to_owned(),
        edition,
        dependencies,
        sources,
    })
}

/// Whether `code` (whitespace removed) uses the macro or attribute `what`
/// (so `env!` is found, but not inside `my_env!`).
fn mentions(code: &str, what: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(what).any(|(at, _)| {
        what.starts_with('#')
            || (!code[..at].chars().next_back().is_some_and(word)
                && !code[at + what.len()..].chars().next().is_some_and(word))
    }) || (what == "#[path" && code.contains("#![path"))
}

/// Keeps only the registry keys of a dependency's specification.
fn clean_spec(spec: &toml::Value) -> Result<toml::Value, String> {
    match spec {
        toml::Value::String(_) => Ok(spec.clone()),
        toml::Value::Table(t) => {
            let mut clean = toml::Table::new();
            for (k, v) in t {
                match k.as_str() {
                    "version" | "features" | "default-features" | "default_features" => {
                        clean.insert(k.clone(), v.clone());
                    }
                    "path" | "git" | "registry" | "package" => {
                        return Err(format!("`{k}` is not allowed: only crates.io versions"));
                    }
                    _ => {}
                }
            }
            Ok(toml::Value::Table(clean))
        }
        _ => Err("expected a version or a table".into()),
    }
}

/// `sha256:` of a submission's `Cargo.toml`, `build.rs` and `.rs` files
/// under `src/`: a new hand-in gets a new version, so it is regraded.
#[must_use]
pub fn submission_version(dir: &Path) -> String {
    let mut bytes = Vec::new();
    let files = rust_files(&dir.join("src")).unwrap_or_default();
    // Links are not followed: their target is not the student's to hand in.
    let read = |path: &Path| {
        read_plain(path, "")
            .map(String::into_bytes)
            .unwrap_or_default()
    };
    let named = ["Cargo.toml", "build.rs"].into_iter().map(PathBuf::from);
    for rel in named.chain(files.into_iter().map(|f| Path::new("src").join(f))) {
        bytes.extend_from_slice(rel.to_string_lossy().as_bytes());
        bytes.push(0);
        bytes.extend(read(&dir.join(&rel)));
        bytes.push(0);
    }
    crate::fixture::content_version(&bytes)
}

/// The `.rs` files beneath `src` (relative to it); a link or any other
/// file that is neither plain nor a folder is refused.
fn rust_files(src: &Path) -> Result<Vec<PathBuf>, Refusal> {
    let mut found = Vec::new();
    let mut stack = vec![PathBuf::new()];
    let io = |rel: &Path, e: std::io::Error| Refusal::Io(format!("src/{}: {e}", rel.display()));
    while let Some(rel) = stack.pop() {
        for entry in std::fs::read_dir(src.join(&rel)).map_err(|e| io(&rel, e))? {
            let entry = entry.map_err(|e| io(&rel, e))?;
            let kind = entry.file_type().map_err(|e| io(&rel, e))?;
            let path = rel.join(entry.file_name());
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_symlink() {
                return Err(Refusal::NotPlain(format!("src/{}", path.display())));
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Where the course's crates are, for staged manifests and drivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workspace {
    /// The workspace root (holds `Cargo.lock`, `crates/game-api`, `grader`).
    pub root: PathBuf,
}

impl Workspace {
    fn game_api(&self) -> PathBuf {
        self.root.join("crates/game-api")
    }
}

/// Copies the vetted sources into `staged` with a fresh manifest.
///
/// # Errors
/// A message when a file cannot be copied or written.
pub fn stage(v: &Vetted, staged: &Path, ws: &Workspace) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(staged);
    for file in &v.sources {
        let to = staged.join("src").join(file);
        std::fs::create_dir_all(to.parent().expect("a file has a parent"))
            .map_err(|e| e.to_string())?;
        let shown = format!("src/{}", file.display());
        let text = read_plain(&v.dir.join("src").join(file), &shown).map_err(|e| e.to_string())?;
        std::fs::write(&to, text).map_err(|e| format!("{shown}: {e}"))?;
    }
    let mut deps = vec![("game-api".to_owned(), path_dep(&ws.game_api(), None))];
    deps.extend(v.dependencies.iter().cloned());
    let manifest = format!(
        "[package]\nname = {}\nversion = \"0.0.0\"\nedition = \"{}\"\npublish = false\n\n[lib]\npath = \"src/lib.rs\"\n\n\
         [dependencies]\n{}\n[lints.rust]\nunsafe_code = \"forbid\"\n",
        toml::Value::String(v.package.clone()),
        v.edition,
        dependency_lines(&deps)
    );
    std::fs::write(staged.join("Cargo.toml"), manifest).map_err(|e| e.to_string())
}

/// `[dependencies]` lines, one inline table or version per dependency.
fn dependency_lines(deps: &[(String, toml::Value)]) -> String {
    deps.iter()
        .map(|(name, spec)| format!("{} = {spec}\n", toml::Value::String(name.clone())))
        .collect()
}

fn path_dep(path: &Path, package: Option<&str>) -> toml::Value {
    let mut t = toml::Table::new();
    t.insert(
        "path".into(),
        toml::Value::String(path.display().to_string()),
    );
    if let Some(p) = package {
        t.insert("package".into(), toml::Value::String(p.to_owned()));
    }
    toml::Value::Table(t)
}

/// The crate a driver is built against: a staged submission or a
/// reference crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Its folder.
    pub dir: PathBuf,
    /// Its package name.
    pub package: String,
    /// The type implementing `Game`, as a path inside the crate.
    pub type_name: String,
}

/// Writes the driver crate for `target` into `dir`; its binary is named
/// `grader-driver-<slug>`.
///
/// # Errors
/// A message when a file cannot be written.
pub fn write_driver(
    dir: &Path,
    slug: &str,
    target: &Target,
    ws: &Workspace,
) -> Result<String, String> {
    let bin = format!("grader-driver-{slug}");
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let deps = [
        (
            "student".to_owned(),
            path_dep(&target.dir, Some(&target.package)),
        ),
        (
            "grader-driver".to_owned(),
            path_dep(&ws.root.join("grader/driver"), None),
        ),
    ];
    // Everything at opt-level 0: building dominates grading (a cold cache
    // takes 30 s instead of 190 s at opt-level 2, a submission 2 s instead
    // of 6 s) while judging one stays under a second. Overflow checks on, as
    // in the students' own `cargo test`.
    let manifest = format!(
        "[package]\nname = \"{bin}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\n{}\n[workspace]\n\n\
         [profile.release]\nopt-level = 0\ndebug = false\nincremental = false\noverflow-checks = true\n",
        dependency_lines(&deps)
    );
    let main = format!(
        "// Generated by the grader: the driver of one submission.\n\
         fn main() {{\n    grader_driver::run::<student::{}>()\n}}\n",
        target.type_name
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("src/main.rs"), main).map_err(|e| e.to_string())?;
    // The workspace's lock file pins the same versions as the course's own
    // build, so everything is already in Cargo's cache (offline builds).
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(ws.root.join("Cargo.lock"), dir.join("Cargo.lock"))
            .map_err(|e| e.to_string())?;
    }
    Ok(bin)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder holding `files`, removed when dropped.
    struct Folder(PathBuf);

    impl std::ops::Deref for Folder {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl AsRef<Path> for Folder {
        fn as_ref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn folder(name: &str, files: &[(&str, &str)]) -> Folder {
        let dir = std::env::temp_dir().join(format!("grader-vet-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Folder(dir)
    }

    const MANIFEST: &str = "[package]\nname = \"mine\"\nedition = \"2021\"\n[dependencies]\ngame-api = { path = \"../game-api\" }\n";

    #[test]
    fn a_plain_crate_passes_and_is_staged_with_a_fresh_manifest() {
        let dir = folder(
            "plain",
            &[
                ("Cargo.toml", MANIFEST),
                ("src/lib.rs", "pub type Submission = u8;\n"),
                ("src/a/b.rs", ""),
            ],
        );
        let v = vet(&dir, &[]).unwrap();
        assert_eq!(v.package, "mine");
        assert_eq!(
            v.sources,
            [PathBuf::from("a/b.rs"), PathBuf::from("lib.rs")]
        );
        let staged = dir.join("staged");
        stage(&v, &staged, &Workspace { root: "/ws".into() }).unwrap();
        let m = std::fs::read_to_string(staged.join("Cargo.toml")).unwrap();
        assert!(
            m.contains("\n[dependencies]\n\"game-api\" = { path = \"/ws/crates/game-api\" }\n"),
            "{m}"
        );
        assert!(m.contains("unsafe_code = \"forbid\""), "{m}");
        assert!(staged.join("src/a/b.rs").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_submission_version_changes_with_its_sources_only() {
        let dir = folder(
            "version",
            &[
                ("Cargo.toml", MANIFEST),
                ("src/lib.rs", "pub fn a() {}\n"),
                ("notes.txt", "x"),
            ],
        );
        let v = submission_version(&dir);
        std::fs::write(dir.join("notes.txt"), "y").unwrap();
        assert_eq!(submission_version(&dir), v);
        std::fs::write(dir.join("src/lib.rs"), "pub fn b() {}\n").unwrap();
        assert_ne!(submission_version(&dir), v);
    }

    #[test]
    fn build_scripts_proc_macros_and_unlisted_dependencies_are_refused() {
        let lib = ("src/lib.rs", "");
        let d = folder(
            "bs",
            &[("Cargo.toml", MANIFEST), ("build.rs", "fn main() {}"), lib],
        );
        assert_eq!(vet(&d, &[]), Err(Refusal::BuildScript("build.rs".into())));
        let d = folder(
            "bs2",
            &[
                ("Cargo.toml", &format!("{MANIFEST}\n[package.metadata]\n")),
                lib,
            ],
        );
        assert!(vet(&d, &[]).is_ok());
        let m = "[package]\nname = \"x\"\nbuild = \"gen.rs\"\n";
        assert!(matches!(
            vet(&folder("bs3", &[("Cargo.toml", m), lib]), &[]),
            Err(Refusal::BuildScript(_))
        ));
        let m = "[package]\nname = \"x\"\n[lib]\nproc-macro = true\n";
        assert_eq!(
            vet(&folder("pm", &[("Cargo.toml", m), lib]), &[]),
            Err(Refusal::ProcMacro)
        );
        let m = "[package]\nname = \"x\"\n[dependencies]\nrand = \"0.8\"\n";
        let e = vet(&folder("dep", &[("Cargo.toml", m), lib]), &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "Cargo.toml: dependency `rand` is not allowed: the allow-list has only game-api"
        );
        assert!(vet(&folder("dep2", &[("Cargo.toml", m), lib]), &["rand".into()]).is_ok());
        let m = "[package]\nname = \"x\"\n[dependencies]\nrand = { path = \"/etc\" }\n";
        assert!(vet(&folder("dep3", &[("Cargo.toml", m), lib]), &["rand".into()]).is_err());
    }

    #[test]
    fn sources_that_read_files_at_build_time_are_refused_with_their_line() {
        let src = "pub fn f() {}\n// include_str!(\"x\") in a comment is fine\nconst K: &str = include_str! (\"/etc/passwd\");\n";
        let d = folder("inc", &[("Cargo.toml", MANIFEST), ("src/lib.rs", src)]);
        let e = vet(&d, &[]).unwrap_err().to_string();
        assert_eq!(e, "src/lib.rs:3: `include_str` is not allowed in submissions (it reads a file at build time)");
        let d = folder(
            "path",
            &[
                ("Cargo.toml", MANIFEST),
                ("src/lib.rs", "#[ path = \"/x.rs\"]\nmod m;\n"),
            ],
        );
        assert!(vet(&d, &[])
            .unwrap_err()
            .to_string()
            .starts_with("src/lib.rs:1: `#[path`"));
        let d = folder(
            "macro",
            &[
                ("Cargo.toml", MANIFEST),
                ("src/lib.rs", "macro_rules! m { ($i:ident) => { $i!(\"/etc/passwd\") } }\nconst K: &str = m!(include_str);\n"),
            ],
        );
        assert!(vet(&d, &[])
            .unwrap_err()
            .to_string()
            .starts_with("src/lib.rs:2: `include_str`"));
        let d = folder(
            "ok",
            &[
                ("Cargo.toml", MANIFEST),
                (
                    "src/lib.rs",
                    "macro_rules! my_env { () => {} }\nmy_env!();\n",
                ),
            ],
        );
        assert!(vet(&d, &[]).is_ok());
    }

    #[test]
    fn a_broken_manifest_is_located() {
        let d = folder(
            "bad",
            &[
                ("Cargo.toml", "[package]\nname = \"x\nedition = 2021\n"),
                ("src/lib.rs", ""),
            ],
        );
        assert!(
            vet(&d, &[])
                .unwrap_err()
                .to_string()
                .starts_with("Cargo.toml:2:"),
            "{:?}",
            vet(&d, &[])
        );
        let d = folder("none", &[("src/lib.rs", "")]);
        assert!(matches!(vet(&d, &[]), Err(Refusal::NoManifest(_))));
        let d = folder("nolib", &[("Cargo.toml", MANIFEST), ("src/main.rs", "")]);
        assert_eq!(vet(&d, &[]), Err(Refusal::NoLib));
    }
}
