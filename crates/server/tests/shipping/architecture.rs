//! The dependency rules of docs/architecture.md, checked on `cargo metadata`: a crate that
//! takes a dependency it must not fails this test, naming the rule.

use serde_json::{Value, json};
use std::process::Command;

/// Crates that do I/O; the domain and the provider declarations take none of them, not even
/// for their tests.
const IO_CRATES: &[&str] = &[
    "tokio", "axum", "hyper", "sea-orm", "sqlx", "rusqlite", "reqwest", "redis",
];

/// The crates that implement a port: each stands alone, never on another one.
const ADAPTERS: &[&str] = &[
    "social-login-provider-oauth2",
    "social-login-provider-oidc",
    "social-login-provider-apple",
    "social-login-provider-signals",
    "social-login-persistence",
    "social-login-state-store",
    "social-login-webhooks",
    "social-login-security",
];

/// Crates that must stay free of I/O in every dependency kind.
const NO_IO: &[&str] = &["social-login-domain", "social-login-provider-spec"];

/// Our crates the inner layers may use, normal dependencies only (dev ones are free).
const INNER_LAYERS: &[(&str, &[&str])] = &[
    ("social-login-domain", &[]),
    ("social-login-provider-spec", &["social-login-domain"]),
    ("social-login-ports", &["social-login-domain"]),
    (
        "social-login-app",
        &["social-login-domain", "social-login-ports"],
    ),
];

/// Crates for tests only: a production crate takes them as dev-dependencies.
const TEST_ONLY: &[&str] = &[
    "social-login-simulator",
    "social-login-test-support",
    "social-login-testing",
    "social-login-conformance",
];

/// Not production code: the benchmark, the examples and the test-only crates may depend on
/// anything.
const HARNESSES: &[&str] = &[
    "social-login-bench",
    "social-login-example-embedding",
    "social-login-test-support",
    "social-login-testing",
    "social-login-conformance",
];

const SERVER: &str = "social-login";

/// The simulator imitates providers from their declarations alone: of our crates it may use
/// only these, in any dependency kind, so no adapter can shape what it imitates.
const SIMULATOR: (&str, &[&str]) = (
    "social-login-simulator",
    &["social-login-domain", "social-login-provider-spec"],
);

/// One dependency edge: who, on what, of which kind (`normal`, `dev`, `build`).
struct Edge<'m> {
    from: &'m str,
    to: &'m str,
    kind: &'m str,
    optional: bool,
}

fn edges(metadata: &Value) -> Vec<Edge<'_>> {
    let mut edges = Vec::new();
    for package in metadata["packages"].as_array().expect("packages") {
        let from = package["name"].as_str().expect("a package name");
        for dependency in package["dependencies"].as_array().expect("dependencies") {
            edges.push(Edge {
                from,
                to: dependency["name"].as_str().expect("a dependency name"),
                kind: dependency["kind"].as_str().unwrap_or("normal"),
                optional: dependency["optional"].as_bool().unwrap_or(false),
            });
        }
    }
    edges
}

/// Every broken rule, one line each.
fn violations(metadata: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for edge in edges(metadata) {
        let Edge {
            from,
            to,
            kind,
            optional,
        } = edge;
        let ours = to.starts_with("social-login");
        if NO_IO.contains(&from) && IO_CRATES.contains(&to) {
            found.push(format!("{from} depends on the I/O crate {to} ({kind})"));
        }
        if let Some((_, allowed)) = INNER_LAYERS.iter().find(|(name, _)| *name == from)
            && ours
            && kind == "normal"
            && !allowed.contains(&to)
        {
            found.push(format!(
                "{from} depends on {to}: an inner layer only on {allowed:?}"
            ));
        }
        if from == SIMULATOR.0 && ours && !SIMULATOR.1.contains(&to) {
            found.push(format!(
                "the simulator depends on {to} ({kind}): only on {:?}",
                SIMULATOR.1
            ));
        }
        if ADAPTERS.contains(&from) && ADAPTERS.contains(&to) {
            found.push(format!(
                "the adapter {from} depends on the adapter {to} ({kind})"
            ));
        }
        if to == SERVER && !HARNESSES.contains(&from) {
            found.push(format!("{from} depends on the server crate"));
        }
        // The server's optional `demo` feature embeds the simulator; production images
        // build without it.
        let demo = from == SERVER && to == "social-login-simulator" && optional;
        if TEST_ONLY.contains(&to) && kind != "dev" && !HARNESSES.contains(&from) && !demo {
            found.push(format!(
                "{from} takes the test-only {to} as a {kind} dependency"
            ));
        }
    }
    found
}

pub(crate) fn workspace_metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn the_workspace_keeps_its_dependency_rules() {
    let metadata = workspace_metadata();
    let names: Vec<&str> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|package| package["name"].as_str())
        .collect();
    for expected in ADAPTERS.iter().chain(TEST_ONLY).chain([&SERVER]) {
        assert!(
            names.contains(expected),
            "{expected} is not in the workspace"
        );
    }
    let found = violations(&metadata);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// `(dependency, kind, optional)` of a crafted package.
type Dependency<'a> = (&'a str, &'a str, bool);

/// A workspace of `(package, dependencies)`, as cargo metadata shows it.
fn workspace(packages: &[(&str, &[Dependency])]) -> Value {
    let packages: Vec<Value> = packages
        .iter()
        .map(|(name, dependencies)| {
            let dependencies: Vec<Value> = dependencies
                .iter()
                .map(|(to, kind, optional)| {
                    let kind = (*kind != "normal").then_some(*kind);
                    json!({"name": to, "kind": kind, "optional": optional})
                })
                .collect();
            json!({"name": name, "dependencies": dependencies})
        })
        .collect();
    json!({ "packages": packages })
}

#[test]
fn each_rule_names_the_dependency_that_breaks_it() {
    // (package, the one non-optional dependency it gains, its kind, what the rule says)
    let cases = [
        ("social-login-domain", "tokio", "dev", "I/O crate tokio"),
        (
            "social-login-domain",
            "social-login-ports",
            "normal",
            "inner layer",
        ),
        (
            "social-login-app",
            "social-login-persistence",
            "normal",
            "inner layer",
        ),
        (
            "social-login-provider-apple",
            "social-login-provider-oidc",
            "normal",
            "the adapter social-login-provider-apple depends on the adapter",
        ),
        (
            "social-login-provider-core",
            SERVER,
            "dev",
            "on the server crate",
        ),
        (
            "social-login-provider-oauth2",
            "social-login-simulator",
            "normal",
            "test-only social-login-simulator",
        ),
        (SERVER, "social-login-test-support", "normal", "test-only"),
    ];
    for (from, to, kind, expected) in cases {
        let found = violations(&workspace(&[(from, &[(to, kind, false)])]));
        assert_eq!(found.len(), 1, "{from}: {found:?}");
        assert!(found[0].contains(expected), "{from}: {found:?}");
    }
}

#[test]
fn dev_dependencies_on_the_simulator_and_the_demo_feature_are_allowed() {
    let allowed = workspace(&[
        (
            "social-login-provider-oidc",
            &[
                ("social-login-simulator", "dev", false),
                ("social-login-conformance", "dev", false),
                ("social-login-id-token", "normal", false),
            ],
        ),
        (SERVER, &[("social-login-simulator", "normal", true)]),
        ("social-login-bench", &[(SERVER, "normal", false)]),
        ("social-login-app", &[("tokio", "dev", false)]),
    ]);
    assert_eq!(violations(&allowed), Vec::<String>::new());
}

#[test]
fn the_declarations_stay_inner_and_the_simulator_reads_only_them_and_the_domain() {
    const SPEC: &str = "social-login-provider-spec";
    const SIM: &str = "social-login-simulator";
    for (from, to, kind, expected) in [
        (SPEC, "reqwest", "dev", "I/O crate reqwest"),
        (SPEC, "social-login-ports", "normal", "inner layer"),
        (
            SIM,
            "social-login-provider-core",
            "dev",
            "the simulator depends on",
        ),
    ] {
        let found = violations(&workspace(&[(from, &[(to, kind, false)])]));
        assert_eq!(found.len(), 1, "{from} on {to}: {found:?}");
        assert!(found[0].contains(expected), "{found:?}");
    }
    let simulator: &[Dependency] = &[(SPEC, "normal", false), ("tokio", "normal", false)];
    let allowed = workspace(&[
        (SIM, simulator),
        (SPEC, &[("social-login-domain", "normal", false)]),
    ]);
    assert_eq!(violations(&allowed), Vec::<String>::new());
}
