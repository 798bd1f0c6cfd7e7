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

/// An app whose `acme-sso` could not be discovered at start-up, made so by `break_it`.
async fn undiscovered_at_start(break_it: fn(&mut Settings, &SimulatorHandle)) -> TestApp {
    let options = Options {
        with_simulator: break_it,
        ..Options::default()
    };
    let app = spawn_app_with(options).await;
    let authorize = app.get("/auth/oauth/acme-sso/authorize", None).await;
    assert_problem(authorize, 503, "ServiceUnavailable").await;
    app
}

#[tokio::test]
async fn a_provider_undiscovered_at_start_answers_503_then_serves_without_a_restart() {
    let app = undiscovered_at_start(|settings, sim| {
        with_standard_providers(settings, sim);
        sim.set_fault(discovery_down());
    })
    .await;
    let listed = app.get_json("/auth/oauth/providers", None).await;
    assert_eq!(listed[8]["key"], "acme-sso", "listed all the same");
    // Before the state is looked at: a value nobody issued is not even judged.
    let nobody_issued = json!({"code": "c", "state": "A".repeat(43)});
    let callback = app.post("/auth/oauth/acme-sso/callback", &nobody_issued, None);
    assert_problem(callback.await, 503, "ServiceUnavailable").await;
    let native = json!({"id_token": "a.b.c", "nonce": "n"});
    let id_token = app.post("/auth/oauth/acme-sso/id-token", &native, None);
    assert_problem(id_token.await, 503, "ServiceUnavailable").await;
    // The other providers serve meanwhile.
    app.login("583231").await;

    app.sim.clear_faults();
    let started = Instant::now();
    loop {
        let response = app.get("/auth/oauth/acme-sso/authorize", None).await;
        if response.status() == StatusCode::OK {
            break;
        }
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let waited = started.elapsed();
        assert!(waited < HEALING_LIMIT, "undiscovered after {waited:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.login_at("acme-sso", "1000001").await;
    app.stop().await;
}

#[tokio::test]
async fn links_of_an_undiscovered_provider_are_listed_disconnected_and_deleted() {
    let mut app = spawn_app_with(Options::standard()).await;
    let pat = token(&app.register("pat@example.com").await);
    for (provider, user) in [("acme-sso", "1000001"), ("corp", "583231")] {
        let linked = app.connect_response_at(provider, &pat, user).await;
        assert_eq!(linked.status(), StatusCode::CREATED, "{provider}");
    }
    // A restart while the provider's discovery document is unreachable.
    app.sim.set_fault(discovery_down());
    app.restart_with(|_| {}).await;
    let authorize = app.get("/auth/oauth/acme-sso/authorize", None).await;
    assert_problem(authorize, 503, "ServiceUnavailable").await;

    let accounts = app.accounts(&pat).await;
    let providers: Vec<&Value> = accounts
        .as_array()
        .unwrap()
        .iter()
        .map(|account| &account["provider"])
        .collect();
    assert_eq!(providers, [&json!("acme-sso"), &json!("corp")]);
    let unlinked = app.delete("/auth/oauth/acme-sso/disconnect", Some(&pat));
    assert_eq!(unlinked.await.status(), StatusCode::NO_CONTENT);
    let events = app.events(&pat).await;
    let failed = events.as_array().unwrap().iter().any(|event| {
        event["type"] == "provider.revocation_failed" && event["provider"] == "acme-sso"
    });
    assert!(
        failed,
        "revocation had nowhere to go, best effort: {events}"
    );
    app.delete_account(&pat).await;
    app.stop().await;
}

#[tokio::test]
async fn a_discovery_document_of_another_issuer_is_refused_and_the_provider_stays_unavailable() {
    let app = undiscovered_at_start(|settings, sim| {
        with_standard_providers(settings, sim);
        sim.set_standard_knobs(StandardKnobs {
            announced_issuer: Some("https://sso.evil.example".into()),
            ..StandardKnobs::default()
        });
    })
    .await;
    assert!(
        logs().contains(r#"issuer is \"https://sso.evil.example\""#),
        "the log names the mismatch"
    );
    app.stop().await;
}
