//! The zoo: sample submissions (correct, subtly wrong, hostile) that the
//! integration tests grade and the speed benchmark uses.
//!
//! They are kept small and without copy-paste: `grader/zoo/zoo.toml` lists
//! each one as a base implementation plus patches (exact text
//! replacements), extra files, and the outcome it must get. [`materialize`]
//! writes them out as ordinary submission folders.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One zoo submission and what it must get.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Specimen {
    /// Its name (the student's name in reports).
    pub name: String,
    /// The game.
    pub game: String,
    /// The base `lib.rs`, relative to the zoo folder.
    pub base: PathBuf,
    /// What is special about it.
    pub about: String,
    /// Replacements applied to the base.
    #[serde(default)]
    pub patch: Vec<Patch>,
    /// Extra files, relative to the submission folder.
    #[serde(default)]
    pub files: Vec<ExtraFile>,
    /// Exactly the tests that must fail (when it builds).
    pub failing: Option<Vec<String>>,
    /// When it must not build: a phrase its build feedback contains.
    pub build: Option<String>,
}

/// An exact text replacement.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// Text that occurs exactly once in the base.
    pub find: String,
    /// Its replacement.
    pub replace: String,
}

/// A file added to the submission.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraFile {
    /// Where, relative to the submission folder.
    pub path: PathBuf,
    /// Its content.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ZooFile {
    submission: Vec<Specimen>,
}

/// Reads `zoo.toml` from the zoo folder.
///
/// # Errors
/// File, line and column of a problem.
pub fn load(zoo: &Path) -> Result<Vec<Specimen>, String> {
    let path = zoo.join("zoo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file: ZooFile =
        game_api::transcript::parse_toml(&text, &path).map_err(|e| e.to_string())?;
    Ok(file.submission)
}

/// Writes `specimen` as a submission folder `out/<name>`, depending on the
/// workspace's `game-api` by path.
///
/// # Errors
/// When a patch does not apply exactly once, or a file cannot be written.
pub fn materialize(
    zoo: &Path,
    specimen: &Specimen,
    workspace: &Path,
    out: &Path,
) -> Result<PathBuf, String> {
    let base = zoo.join(&specimen.base);
    let mut source =
        std::fs::read_to_string(&base).map_err(|e| format!("{}: {e}", base.display()))?;
    for p in &specimen.patch {
        let found = source.matches(&p.find).count();
        if found != 1 {
            return Err(format!(
                "{}: patch text occurs {found} times in {}: {:?}",
                specimen.name,
                base.display(),
                p.find
            ));
        }
        source = source.replacen(&p.find, &p.replace, 1);
    }
    let dir = out.join(&specimen.name);
    let _ = std::fs::remove_dir_all(&dir);
    let write = |rel: &Path, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("inside the folder"))
            .map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    let manifest = format!(
        "[package]\nname = \"{}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ngame-api = {{ path = \"{}\" }}\n",
        specimen.name,
        workspace.join("crates/game-api").display()
    );
    write(Path::new("Cargo.toml"), &manifest)?;
    write(Path::new("src/lib.rs"), &source)?;
    for f in &specimen.files {
        write(&f.path, &f.text)?;
    }
    Ok(dir)
}
