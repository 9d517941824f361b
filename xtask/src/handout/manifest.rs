//! Manifests of a handout: the course's, without the crates a handout does
//! not carry.

use super::{read, HandoutError};
use std::path::{Path, PathBuf};

/// The workspace dependencies that are path crates outside the handout.
pub(super) fn dropped_crates(root: &toml::Table, kept: &[PathBuf]) -> Vec<String> {
    root.get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(toml::Value::as_table)
        .map(|deps| {
            deps.iter()
                .filter(|(_, spec)| {
                    spec.get("path")
                        .and_then(toml::Value::as_str)
                        .is_some_and(|p| !kept.iter().any(|k| Path::new(p) == k))
                })
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// A crate's manifest without dependencies on `dropped` crates (and the
/// features that need them); unless `tests`, without dev-dependencies and
/// with its library's unit and doc tests off.
pub(super) fn manifest(
    ws: &Path,
    dir: &Path,
    dropped: &[String],
    tests: bool,
) -> Result<String, HandoutError> {
    let path = dir.join("Cargo.toml");
    let mut t: toml::Table =
        toml::from_str(&read(ws, &path)?).map_err(|e| HandoutError::Workspace {
            path: ws.join(&path),
            message: e.to_string(),
        })?;
    if tests {
        if let Some(dev) = t
            .get_mut("dev-dependencies")
            .and_then(toml::Value::as_table_mut)
        {
            dev.retain(|name, _| !dropped.iter().any(|d| d == name));
        }
    } else {
        // Their tests stay home, and their unit and doc tests need
        // dev-dependencies the handout does not have: `cargo test
        // --workspace` in a handout tests the student's crate only.
        t.remove("dev-dependencies");
        if ws.join(dir).join("src/lib.rs").is_file() {
            let lib = t
                .entry("lib")
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            if let Some(lib) = lib.as_table_mut() {
                lib.insert("test".into(), toml::Value::Boolean(false));
                lib.insert("doctest".into(), toml::Value::Boolean(false));
            }
        }
    }
    let mut gone: Vec<String> = Vec::new();
    if let Some(deps) = t
        .get_mut("dependencies")
        .and_then(toml::Value::as_table_mut)
    {
        deps.retain(|name, _| {
            let keep = !dropped.iter().any(|d| d == name);
            if !keep {
                gone.push(name.to_owned());
            }
            keep
        });
    }
    if let Some(features) = t.get_mut("features").and_then(toml::Value::as_table_mut) {
        let needs_gone = |v: &toml::Value| {
            v.as_str().is_some_and(|s| {
                gone.iter()
                    .any(|g| s == format!("dep:{g}") || s == g || s.starts_with(&format!("{g}/")))
            })
        };
        let removed: Vec<String> = features
            .iter()
            .filter(|(_, list)| list.as_array().is_some_and(|l| l.iter().any(needs_gone)))
            .map(|(name, _)| name.clone())
            .collect();
        features.retain(|name, _| !removed.iter().any(|r| r == name));
        for (_, list) in features.iter_mut() {
            let Some(list) = list.as_array_mut() else {
                continue;
            };
            list.retain(|v| v.as_str().is_none_or(|s| !removed.iter().any(|r| r == s)));
        }
        if !removed.is_empty() {
            // The code behind a removed feature stays, never compiled:
            // declared, its `cfg` draws no warning.
            let values: Vec<String> = removed.iter().map(|r| format!("{r:?}")).collect();
            let mut lint = toml::Table::new();
            lint.insert("level".into(), toml::Value::String("warn".into()));
            lint.insert(
                "check-cfg".into(),
                toml::Value::Array(vec![toml::Value::String(format!(
                    "cfg(feature, values({}))",
                    values.join(", ")
                ))]),
            );
            let mut rust = toml::Table::new();
            rust.insert("unexpected_cfgs".into(), toml::Value::Table(lint));
            let mut lints = toml::Table::new();
            lints.insert("rust".into(), toml::Value::Table(rust));
            t.insert("lints".into(), toml::Value::Table(lints));
        }
    }
    Ok(toml::to_string(&t).expect("a table serialises"))
}
