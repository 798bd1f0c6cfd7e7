//! The discovery of a provider of `kind = "oidc"` from configuration (docs/providers.md):
//! when it fails the service still starts, that provider's sign-ins answer 503 before any
//! state is used, everything else (its links included) keeps working, and it serves as
//! soon as a background retry succeeds, without a restart.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login::settings::Settings;
use social_login_simulator::{Endpoint, Fault, Provider, SimulatorHandle, StandardKnobs};
use std::time::{Duration, Instant};

/// Long enough for several retries (the first comes a second after start-up).
const HEALING_LIMIT: Duration = Duration::from_secs(30);

fn discovery_down() -> Fault {
    Fault::new(Provider::StandardOidc, Endpoint::Discovery).status(503)
}

fn down_at_start(settings: &mut Settings, sim: &SimulatorHandle) {
    with_standard_providers(settings, sim);
    sim.set_fault(discovery_down());
}

/// A well-formed state value nobody issued.
const SOME_STATE: &str = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

#[tokio::test]
async fn a_provider_undiscovered_at_start_answers_503_then_serves_without_a_restart() {
    let app = spawn_app_with(Options {
        with_simulator: down_at_start,
        ..Options::default()
    })
    .await;
    let listed: Vec<Value> = app
        .get("/auth/oauth/providers", None)
        .await
        .json()
        .await
        .unwrap();
    assert!(
        listed.iter().any(|row| row["key"] == "acme-sso"),
        "listed all the same"
    );
    let authorize = app.get("/auth/oauth/acme-sso/authorize", None).await;
    assert_problem(authorize, 503, "ServiceUnavailable").await;
    // Before the state is looked at: a value nobody issued is not even judged.
    let body = json!({"code": "c", "state": SOME_STATE});
    let callback = app.post("/auth/oauth/acme-sso/callback", &body, None).await;
    assert_problem(callback, 503, "ServiceUnavailable").await;
    let native = json!({"id_token": "a.b.c", "nonce": "n"});
    let id_token = app
        .post("/auth/oauth/acme-sso/id-token", &native, None)
        .await;
    assert_problem(id_token, 503, "ServiceUnavailable").await;
    // The other providers serve meanwhile.
    assert_eq!(app.login_response("583231").await.status(), StatusCode::OK);

    app.sim.clear_faults();
    let started = Instant::now();
    loop {
        let response = app.get("/auth/oauth/acme-sso/authorize", None).await;
        if response.status() == StatusCode::OK {
            break;
        }
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            started.elapsed() < HEALING_LIMIT,
            "still undiscovered after {HEALING_LIMIT:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let login = app.login_response_at("acme-sso", "1000001").await;
    assert_eq!(login.status(), StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn links_of_an_undiscovered_provider_are_listed_disconnected_and_deleted() {
    let mut app = spawn_app_with(Options {
        with_simulator: with_standard_providers,
        ..Options::default()
    })
    .await;
    let pat = token(&app.register("pat@example.com").await);
    let linked = app.connect_response_at("acme-sso", &pat, "1000001").await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let also = app.connect_response_at("corp", &pat, "583231").await;
    assert_eq!(also.status(), StatusCode::CREATED);
    // A restart while the provider's discovery document is unreachable.
    app.sim.set_fault(discovery_down());
    app.restart_with(|_| {}).await;
    let authorize = app.get("/auth/oauth/acme-sso/authorize", None).await;
    assert_problem(authorize, 503, "ServiceUnavailable").await;

    let accounts: Value = app
        .get("/auth/oauth/accounts", Some(&pat))
        .await
        .json()
        .await
        .unwrap();
    let providers: Vec<&str> = accounts
        .as_array()
        .unwrap()
        .iter()
        .map(|account| account["provider"].as_str().unwrap())
        .collect();
    assert_eq!(providers, ["acme-sso", "corp"]);
    let unlinked = app
        .delete("/auth/oauth/acme-sso/disconnect", Some(&pat))
        .await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let events: Value = app
        .get("/users/me/events", Some(&pat))
        .await
        .json()
        .await
        .unwrap();
    let failed = events.as_array().unwrap().iter().any(|event| {
        event["type"] == "provider.revocation_failed" && event["provider"] == "acme-sso"
    });
    assert!(
        failed,
        "revocation had nowhere to go, best effort: {events}"
    );
    let deleted = app.delete("/users/me", Some(&pat)).await;
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    app.stop().await;
}

fn another_issuer(settings: &mut Settings, sim: &SimulatorHandle) {
    with_standard_providers(settings, sim);
    sim.set_standard_knobs(StandardKnobs {
        announced_issuer: Some("https://sso.evil.example".into()),
        ..StandardKnobs::default()
    });
}

#[tokio::test]
async fn a_discovery_document_of_another_issuer_is_refused_and_the_provider_stays_unavailable() {
    let app = spawn_app_with(Options {
        with_simulator: another_issuer,
        ..Options::default()
    })
    .await;
    let authorize = app.get("/auth/oauth/acme-sso/authorize", None).await;
    assert_problem(authorize, 503, "ServiceUnavailable").await;
    assert!(
        logs().contains(r#"issuer is \"https://sso.evil.example\""#),
        "the log names the mismatch"
    );
    app.stop().await;
}
