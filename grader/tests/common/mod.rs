//! What the grader's integration tests share.

use std::path::{Path, PathBuf};

/// The workspace root (the grader's parent folder).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("grader is in the workspace")
        .to_owned()
}
