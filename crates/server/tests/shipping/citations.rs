//! What the code and the docs cite is in the repository: no comment, doc or README names a
//! file a user of the repository does not have, and every `docs/<file>.md#<anchor>` they
//! cite (or a docs page links to) is a heading of that page.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every text file of the repository that people read: sources, docs, deploy files, scripts.
fn text_files() -> Vec<PathBuf> {
    const SKIPPED_DIRS: [&str; 3] = ["target", ".git", "node_modules"];
    const TEXT: [&str; 9] = [
        "rs", "md", "toml", "html", "yaml", "yml", "sh", "sql", "json",
    ];
    let mut found = Vec::new();
    let mut pending = vec![repository_root()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable directory") {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_ref()) {
                    pending.push(path);
                }
            } else if name == "justfile"
                || name == "Dockerfile"
                || path.parent().and_then(Path::file_name) == Some(".ci".as_ref())
                || path
                    .extension()
                    .is_some_and(|e| TEXT.contains(&e.to_string_lossy().as_ref()))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Citations of the design notes the project began from, which are not in the repository.
/// Spelled in pieces so that this file does not cite them itself.
fn outside_citations() -> [String; 4] {
    [
        ["CONT", "RACT"].concat(),
        ["PROVIDERS", ".md"].concat(),
        ["spec ", "§"].concat(),
        ["../", "shared"].concat(),
    ]
}

#[test]
fn nothing_cites_a_file_outside_the_repository() {
    let forbidden = outside_citations();
    let mut found = Vec::new();
    for path in text_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if forbidden.iter().any(|f| line.contains(f.as_str())) {
                let relative = path.strip_prefix(repository_root()).unwrap_or(&path);
                found.push(format!("{}:{}: {line}", relative.display(), number + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite docs/api.md or docs/providers.md instead:\n{}",
        found.join("\n")
    );
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown page: its headings outside code blocks, numbered on repeats.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    let mut in_code = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            let base = slug(line.trim_start_matches('#'));
            let mut anchor = base.clone();
            let mut repeat = 0;
            while !anchors.insert(anchor.clone()) {
                repeat += 1;
                anchor = format!("{base}-{repeat}");
            }
        }
    }
    anchors
}

/// `(page, anchor)` of each `<page>.md#<anchor>` in `text`, the page's name without folders.
fn cited_anchors(text: &str) -> Vec<(String, String)> {
    let mut cited = Vec::new();
    for (at, _) in text.match_indices(".md#") {
        let page_start = text[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(0, |i| i + 1);
        let anchor: String = text[at + 4..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .collect();
        cited.push((format!("{}.md", &text[page_start..at]), anchor));
    }
    cited
}

#[test]
fn every_cited_docs_anchor_is_a_heading_of_that_page() {
    let docs = repository_root().join("docs");
    let mut broken = Vec::new();
    for path in text_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (page, anchor) in cited_anchors(&text) {
            let target = docs.join(&page);
            let Ok(markdown) = std::fs::read_to_string(&target) else {
                // Not one of the docs pages (an RFC or a page elsewhere): not ours to check.
                continue;
            };
            if !anchors(&markdown).contains(&anchor) {
                let relative = path.strip_prefix(repository_root()).unwrap_or(&path);
                broken.push(format!("{}: {page}#{anchor}", relative.display()));
            }
        }
    }
    assert!(broken.is_empty(), "no such heading:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_githubs_rules() {
    let page = "# Providers\n## Microsoft (`common`)\n```\n# not a heading\n```\n## X (Twitter)\n## Apple\n## Apple\n";
    let found: Vec<_> = anchors(page).into_iter().collect();
    assert_eq!(
        found,
        [
            "apple",
            "apple-1",
            "microsoft-common",
            "providers",
            "x-twitter"
        ]
    );
    assert_eq!(
        cited_anchors("see docs/api.md#linking-rules, [x](providers.md#apple)."),
        [
            ("api.md".into(), "linking-rules".into()),
            ("providers.md".into(), "apple".into())
        ]
    );
}
