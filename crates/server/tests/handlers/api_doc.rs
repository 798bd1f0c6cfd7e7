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

/// Checks `document` with the reference validator of OpenAPI 3.1 (Python's
/// `openapi-spec-validator`, which `.ci/run` installs); its verdict, or `None` when it is
/// not installed here (a developer machine: skipped loudly; under `CI` that fails).
fn validator_verdict(document: &serde_json::Value) -> Option<Result<(), String>> {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), document.to_string()).expect("write the document");
    let script = "import json, sys\n\
        from openapi_spec_validator import validate\n\
        from openapi_spec_validator.validation.exceptions import OpenAPIValidationError\n\
        try:\n    validate(json.load(open(sys.argv[1])))\n\
        except OpenAPIValidationError as error:\n    print(error); sys.exit(1)\n";
    let ran = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(file.path())
        .output();
    let missing = match &ran {
        Err(_) => true,
        Ok(output) => String::from_utf8_lossy(&output.stderr).contains("ModuleNotFoundError"),
    };
    if missing {
        let why = "python3 with openapi-spec-validator is not installed \
                   (pip install openapi-spec-validator)";
        assert!(std::env::var_os("CI").is_none(), "{why}, and CI is set");
        social_login_test_support::skipped(why);
        return None;
    }
    let output = ran.expect("ran");
    Some(match output.status.success() {
        true => Ok(()),
        false => Err(format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )),
    })
}

#[tokio::test]
async fn the_served_document_is_valid_openapi_3_1() {
    let (_, _, document) = send(&app(github()), get("/openapi.json")).await;
    assert_eq!(document["openapi"], "3.1.0");
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                assert!(
                    response.get("description").is_some() || response.get("$ref").is_some(),
                    "{method} {path} {status} has no description"
                );
            }
        }
    }
    if let Some(verdict) = validator_verdict(&document) {
        assert_eq!(verdict, Ok(()), "the OpenAPI 3.1 validator's verdict");
    }
}

#[tokio::test]
async fn a_session_is_described_as_one_flat_object() {
    let (_, _, document) = send(&app(github()), get("/openapi.json")).await;
    let session = &document["components"]["schemas"]["SessionRead"];
    assert_eq!(session["type"], "object", "{session}");
    let fields: Vec<&str> = session["properties"]
        .as_object()
        .expect("its own properties, no allOf")
        .keys()
        .map(String::as_str)
        .collect();
    let expected = ["created_at", "current", "id", "last_used_at", "provider"];
    assert_eq!(fields, expected);
}
