//! `docs/api.md` and `/openapi.json` describe the same endpoints: a route added to one and
//! not the other fails here, whichever side it was added to.

use super::{app, get, github, send};
use std::collections::BTreeSet;

/// `METHOD /path` of every operation in the OpenAPI document.
fn openapi_operations(document: &serde_json::Value) -> BTreeSet<String> {
    let mut operations = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            operations.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    operations
}

/// `METHOD /path` of every row of the endpoint table under `## Endpoints` in `docs/api.md`.
/// A row may name several paths of one method: `` `GET /healthz`, `/readyz` ``.
fn documented_operations(api_md: &str) -> BTreeSet<String> {
    let table = api_md
        .split("\n## Endpoints\n")
        .nth(1)
        .expect("docs/api.md has a `## Endpoints` section");
    let mut operations = BTreeSet::new();
    for row in table.lines().skip_while(|l| !l.starts_with('|')) {
        if !row.starts_with('|') {
            break;
        }
        let first_cell = row.split('|').nth(1).unwrap_or_default();
        let mut method = None;
        for item in first_cell.split('`').skip(1).step_by(2) {
            let (verb, path) = match item.split_once(' ') {
                Some((verb, path)) => (Some(verb), path),
                None => (None, item),
            };
            if let Some(verb) = verb {
                method = Some(verb.to_owned());
            }
            if let (Some(method), true) = (&method, path.starts_with('/')) {
                operations.insert(format!("{method} {path}"));
            }
        }
    }
    operations
}

#[tokio::test]
async fn every_openapi_operation_is_in_docs_api_md_and_every_documented_one_is_served() {
    let api_md = include_str!("../../../../docs/api.md");
    let (_, _, document) = send(&app(github()), get("/openapi.json")).await;
    let served = openapi_operations(&document);
    let documented = documented_operations(api_md);
    assert!(served.len() > 20, "{served:?}");
    let undocumented: Vec<_> = served.difference(&documented).collect();
    let unserved: Vec<_> = documented.difference(&served).collect();
    assert!(
        undocumented.is_empty() && unserved.is_empty(),
        "in /openapi.json but not in docs/api.md#endpoints: {undocumented:?}; \
         in docs/api.md#endpoints but not in /openapi.json: {unserved:?}"
    );
}

#[test]
fn the_table_reader_takes_several_paths_of_one_method_from_one_row() {
    let md = "x\n## Endpoints\n\n| a | b |\n|---|---|\n| `GET /healthz`, `/readyz` | none |\n| `POST /auth/login` | x |\n\nafter\n| `GET /not-in-table` |\n";
    let found: Vec<_> = documented_operations(md).into_iter().collect();
    assert_eq!(found, ["GET /healthz", "GET /readyz", "POST /auth/login"]);
}
