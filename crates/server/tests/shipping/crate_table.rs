//! The crate table of docs/architecture.md against `cargo metadata`: every crate of the
//! workspace has a row, and every crate of ours it depends on (normal dependencies; dev
//! ones are free) is in that row's "may depend on" column, so the table cannot drift.

use serde_json::Value;
use std::collections::BTreeMap;

/// What a row allows: any crate of ours, or these.
#[derive(Debug)]
enum Allowed {
    Anything,
    These(Vec<String>),
}

/// The package name a table cell's short name stands for.
fn package(short: &str) -> String {
    match short.trim_end_matches('/') {
        "examples/embedding" => "social-login-example-embedding".to_owned(),
        name if name.starts_with("social-login") => name.to_owned(),
        name => format!("social-login-{name}"),
    }
}

/// The rows of the table: each crate it names (a row may name two), and what it allows.
fn rows(docs: &str) -> BTreeMap<String, Allowed> {
    let mut rows = BTreeMap::new();
    let table = docs
        .lines()
        .skip_while(|line| !line.starts_with("| crate | job |"));
    for line in table.skip(2).take_while(|line| line.starts_with('|')) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let (named, allowed) = (cells[0], cells[cells.len() - 1]);
        let crates = backticked(named);
        // `server` (`social-login`): the package is the last name of the cell.
        let names: Vec<String> = if named.contains('(') {
            crates
                .last()
                .map(|last| package(last))
                .into_iter()
                .collect()
        } else {
            crates.iter().map(|name| package(name)).collect()
        };
        let allowed = parse_allowed(allowed);
        for name in names {
            let copy = match &allowed {
                Allowed::Anything => Allowed::Anything,
                Allowed::These(these) => Allowed::These(these.clone()),
            };
            rows.insert(name, copy);
        }
    }
    rows
}

/// The names between backticks in `cell`.
fn backticked(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// A "may depend on" cell: "everything above" and "anything" allow any crate; otherwise the
/// crates it names outside parentheses.
fn parse_allowed(cell: &str) -> Allowed {
    let mut plain = String::new();
    let mut depth = 0;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    if plain.contains("everything") || plain.contains("anything") {
        return Allowed::Anything;
    }
    let words = plain
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '/'))
        .filter(|word| !word.is_empty() && *word != "and" && *word != "at" && *word != "most");
    let known = [
        "domain",
        "ports",
        "app",
        "persistence",
        "migrations",
        "webhooks",
        "state-store",
        "security",
        "provider-spec",
        "provider-core",
        "id-token",
        "provider-oauth2",
        "provider-oidc",
        "provider-apple",
        "provider-signals",
        "simulator",
        "test-support",
        "conformance",
        "testing",
    ];
    Allowed::These(
        words
            .filter(|word| known.contains(&word.trim_end_matches('/')))
            .map(package)
            .collect(),
    )
}

#[test]
fn every_crate_depends_only_on_what_the_crate_table_allows() {
    let docs = include_str!("../../../../docs/architecture.md");
    let rows = rows(docs);
    let metadata: Value = super::architecture::workspace_metadata();
    let packages = metadata["packages"].as_array().unwrap();
    let ours: Vec<&str> = packages
        .iter()
        .filter_map(|package| package["name"].as_str())
        .collect();
    let mut drift = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap();
        let Some(allowed) = rows.get(name) else {
            drift.push(format!("{name} has no row in the crate table"));
            continue;
        };
        let Allowed::These(allowed) = allowed else {
            continue;
        };
        for dependency in package["dependencies"].as_array().unwrap() {
            let on = dependency["name"].as_str().unwrap();
            let normal = dependency["kind"].is_null();
            if normal && ours.contains(&on) && !allowed.iter().any(|a| a == on) {
                drift.push(format!(
                    "{name} depends on {on}, which its row does not list"
                ));
            }
        }
    }
    assert!(
        drift.is_empty(),
        "docs/architecture.md: {}",
        drift.join("; ")
    );
}

#[test]
fn a_row_names_its_crates_and_what_they_may_use() {
    let docs = "| crate | job | may depend on (ours) |\n|---|---|---|\n\
                | `ports` | traits | domain |\n\
                | `persistence` + `migrations/` | stores | domain, ports, migrations |\n\
                | `server` (`social-login`) | all | everything above |\n\
                | `simulator` | fake | nothing of ours yet; at most domain and provider-spec (a dev-dependency) |\n";
    let rows = rows(docs);
    let names: Vec<&String> = rows.keys().collect();
    assert_eq!(
        names,
        [
            "social-login",
            "social-login-migrations",
            "social-login-persistence",
            "social-login-ports",
            "social-login-simulator"
        ]
    );
    assert!(matches!(rows["social-login"], Allowed::Anything));
    let Allowed::These(simulator) = &rows["social-login-simulator"] else {
        panic!("a list");
    };
    assert_eq!(
        simulator,
        &["social-login-domain", "social-login-provider-spec"]
    );
}
