//! `cargo xtask gradescope`: the autograder zip Gradescope expects, so a
//! course on Gradescope needs no script of its own.
//!
//! The zip holds, at its root (where Gradescope looks):
//! - `setup.sh`: installs the Rust toolchain this bundle was made with
//!   (rustup), then runs `build.sh`;
//! - `build.sh`: fetches every crate the course locks (grading builds
//!   offline), builds the grader, and grades the reference crate once,
//!   which builds the course's part of every driver and checks the bundle
//!   (full marks, or setup fails);
//! - `run_autograder`: grades `/autograder/submission` with
//!   `grader gradescope` and always writes `results/results.json`;
//! - `course.env`: the game and the toolchain;
//! - `course/`: the course workspace (every crate, the grader, the fixtures
//!   with the hidden ones, the answer keys, `grading.toml`), without build
//!   output or hidden files.
//!
//! The scripts are the files in `grader/gradescope/`, as they are.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One file of the bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path in the zip (`/`-separated).
    pub path: String,
    /// Its content.
    pub bytes: Vec<u8>,
    /// Whether it is a program (mode 755, else 644).
    pub executable: bool,
}

/// The scripts, at the zip's root.
const SCRIPTS: [(&str, &str); 3] = [
    ("setup.sh", include_str!("../../grader/gradescope/setup.sh")),
    ("build.sh", include_str!("../../grader/gradescope/build.sh")),
    (
        "run_autograder",
        include_str!("../../grader/gradescope/run_autograder"),
    ),
];

/// Every file of the bundle for `game`, in a stable order. The course's
/// files are checked first (settings, fixtures, keys up to date), as
/// `cargo xtask grade` checks them, so a bundle never carries a broken course.
///
/// # Errors
/// A broken course, an unknown game, an unreadable file, or no `rustc`.
pub fn bundle(ws: &Path, game: &str) -> Result<Vec<Entry>> {
    grader::class::Prepared::of_course(ws, game)?;
    let mut entries: Vec<Entry> = SCRIPTS
        .iter()
        .map(|(path, text)| Entry {
            path: (*path).to_owned(),
            bytes: text.as_bytes().to_vec(),
            executable: true,
        })
        .collect();
    entries.push(Entry {
        path: "course.env".into(),
        bytes: format!(
            "# Read by setup.sh, build.sh and run_autograder.\nGAME='{game}'\nRUST_TOOLCHAIN='{}'\n",
            toolchain()?
        )
        .into_bytes(),
        executable: false,
    });
    let mut files = Vec::new();
    course_files(ws, &mut files)?;
    files.sort();
    for file in files {
        let rel = file.strip_prefix(ws).expect("below the workspace");
        let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
        let mode =
            std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&file)?.permissions());
        entries.push(Entry {
            path: format!("course/{}", rel.to_string_lossy()),
            bytes,
            executable: mode & 0o111 != 0,
        });
    }
    Ok(entries)
}

/// The course's files below `dir`: no hidden file or folder, no `target`
/// folder, no pending answer key (`*.snap.new`), no symbolic link.
fn course_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        if name.starts_with('.') || name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
            continue;
        }
        if kind.is_dir() && name != "target" {
            course_files(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// The version of the `rustc` building this bundle (`1.95.0`): the one the
/// course was tested with, so the one `setup.sh` installs.
fn toolchain() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = std::process::Command::new(&rustc)
        .arg("--version")
        .output()
        .with_context(|| format!("running {} --version", rustc.to_string_lossy()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.split_whitespace().nth(1) {
        Some(v) if v.chars().all(|c| c.is_ascii_digit() || c == '.') => Ok(v.to_owned()),
        _ => bail!(
            "`rustc --version` said {:?}: a stable toolchain is needed, for setup.sh to install the same",
            text.trim()
        ),
    }
}

/// Writes `entries` as a zip file at `out` (through a temporary file, so a
/// failed run leaves no half zip).
///
/// # Errors
/// When the file cannot be written.
pub fn write_zip(entries: &[Entry], out: &Path) -> Result<()> {
    use zip::write::SimpleFileOptions;
    let tmp = out.with_extension("zip.tmp");
    let file =
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    for e in entries {
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(if e.executable { 0o755 } else { 0o644 });
        zip.start_file(e.path.as_str(), options)?;
        zip.write_all(&e.bytes)?;
    }
    zip.finish()?;
    std::fs::rename(&tmp, out).with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}
