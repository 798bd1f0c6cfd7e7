//! Reading `deploy/`: the YAML documents (merge keys applied), the Dockerfile's stages, and
//! the values the deployment would inject for its secrets.

use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The repository's `deploy/` directory.
pub fn deploy_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy")
}

pub fn read(relative: &str) -> String {
    let path = deploy_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Every `*.yaml` / `*.yml` under `deploy/`, relative to it, sorted.
pub fn yaml_files() -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![deploy_dir()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("deploy/ is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            ) {
                let relative = path.strip_prefix(deploy_dir()).expect("under deploy/");
                found.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

/// The documents of one YAML file, with `<<` merge keys resolved (docker compose does).
pub fn yaml_documents(relative: &str) -> Vec<Value> {
    let text = read(relative);
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|document| {
            let mut value = serde_yaml_ng::Value::deserialize(document)
                .unwrap_or_else(|error| panic!("{relative}: not valid YAML: {error}"));
            resolve_merges(&mut value, relative);
            serde_json::to_value(&value)
                .unwrap_or_else(|error| panic!("{relative}: not JSON-like data: {error}"))
        })
        .filter(|document| !document.is_null())
        .collect()
}

/// `apply_merge` resolves one level per pass: a merged mapping may itself carry a `<<`
/// (an anchor built on another anchor), so repeat until none is left.
fn resolve_merges(value: &mut serde_yaml_ng::Value, file: &str) {
    for _ in 0..8 {
        if !has_merge_key(value) {
            return;
        }
        value
            .apply_merge()
            .unwrap_or_else(|error| panic!("{file}: bad merge key: {error}"));
    }
    assert!(!has_merge_key(value), "{file}: merge keys nested too deep");
}

fn has_merge_key(value: &serde_yaml_ng::Value) -> bool {
    match value {
        serde_yaml_ng::Value::Mapping(mapping) => {
            mapping.contains_key("<<") || mapping.values().any(has_merge_key)
        }
        serde_yaml_ng::Value::Sequence(items) => items.iter().any(has_merge_key),
        serde_yaml_ng::Value::Tagged(tagged) => has_merge_key(&tagged.value),
        _ => false,
    }
}

/// A string at `pointer` (RFC 6901), or a panic naming where it was expected.
pub fn text<'a>(value: &'a Value, pointer: &str, context: &str) -> &'a str {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{context}: no string at {pointer}"))
}

/// A list of strings (an exec-form command), or a panic naming where.
pub fn strings(value: &Value, context: &str) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("{context}: expected a list, got {value}"))
        .iter()
        .map(|item| {
            item.as_str()
                .unwrap_or_else(|| panic!("{context}: expected strings, got {item}"))
                .to_owned()
        })
        .collect()
}

/// A fresh key, as `social-login gen-secret` makes it: what an operator injects.
pub fn generated_secret_key() -> String {
    social_login_security::generate_secret_key()
}
