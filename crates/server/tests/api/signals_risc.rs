//! Google's Cross-Account Protection, end to end: 202 for what verifies, RFC 8935's error
//! body for what does not, a hijacked account locked out until Google gives it back, and
//! the same Security Event Token acting once.

#[path = "../common/event_counts.rs"]
mod event_counts;

use super::{deliver, refreshed, resigned_with_the_wrong_key, signal};
use crate::helpers::{TestApp, assert_problem, spawn_app, spawn_app_tuned, token};
use reqwest::StatusCode;
use serde_json::Value;
use social_login_domain::ProviderKey;
use social_login_simulator::SignalDelivery;

/// Ada through Google, answered 200: the login result.
async fn google_login(app: &TestApp) -> Value {
    app.login_at("google", "583231").await
}

/// An app where Ada has signed in through Google, and the Security Event Token `kind` about
/// her that Google would send: the app, her login result and the token.
async fn ada_on_google_and(kind: &str) -> (TestApp, Value, SignalDelivery) {
    let app = spawn_app().await;
    let login = google_login(&app).await;
    let set = signal(&app, kind, "583231").await;
    (app, login, set)
}

/// Whether the user of `login` sees, in their export, their link disabled.
async fn link_disabled(app: &TestApp, login: &Value) -> Value {
    let export = app.get_json("/users/me/export", Some(&token(login))).await;
    export["linked_accounts"][0]["disabled"].clone()
}

#[tokio::test]
async fn a_hijacked_google_account_logs_nobody_in_until_google_enables_it() {
    let (app, login, hijacked) = ada_on_google_and("report_hijacking").await;
    let response = deliver(&app, &hijacked).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert!(
        response.text().await.unwrap().is_empty(),
        "202 with no body"
    );

    assert_eq!(
        refreshed(&app, login["refresh_token"].as_str().unwrap()).await,
        None
    );
    let refused = app.login_response_at("google", "583231").await;
    assert_problem(refused, 403, "ProviderAccountDisabled").await;
    // The signal's event is in the user's activity.
    let events: Value = app.events(&token(&login)).await;
    assert_eq!(events[0]["type"], "provider.security_event");
    assert_eq!(events[0]["provider"], "google");
    assert_eq!(
        link_disabled(&app, &login).await,
        true,
        "the export says why"
    );

    let recovered = signal(&app, "recover_google_account", "583231").await;
    assert_eq!(
        deliver(&app, &recovered).await.status(),
        StatusCode::ACCEPTED
    );
    let again: Value = google_login(&app).await;
    assert_eq!(again["user"]["id"], login["user"]["id"]);
    assert_eq!(link_disabled(&app, &again).await, false);
    app.stop().await;
}

#[tokio::test]
async fn the_same_set_delivered_twice_acts_once() {
    let (app, login, revoked) = ada_on_google_and("revoke_google_sessions").await;
    for _ in 0..2 {
        assert_eq!(deliver(&app, &revoked).await.status(), StatusCode::ACCEPTED);
    }
    let events: Value = app.events(&token(&login)).await;
    let security_events = event_counts::count_of_type(&events, "provider.security_event");
    assert_eq!(security_events, 1, "{events}");
    app.stop().await;
}

#[tokio::test]
async fn a_forged_or_unreadable_set_is_refused_with_its_rfc_8935_error_and_changes_nothing() {
    let (app, login, real) = ada_on_google_and("report_hijacking").await;
    let cases = [
        (
            SignalDelivery {
                body: resigned_with_the_wrong_key(&real.body),
                ..real.clone()
            },
            "invalid_key",
        ),
        (
            SignalDelivery {
                body: real.body[..real.body.len() / 2].to_owned(),
                ..real.clone()
            },
            "invalid_request",
        ),
        (
            SignalDelivery {
                content_type: "application/json".into(),
                ..real.clone()
            },
            "invalid_request",
        ),
    ];
    for (forged, err) in cases {
        let response = deliver(&app, &forged).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(response.headers()["content-type"], "application/json");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["err"], err, "{body}");
    }
    let oversized = SignalDelivery {
        body: "A".repeat(70_000),
        ..real.clone()
    };
    assert_problem(deliver(&app, &oversized).await, 413, "PayloadTooLarge").await;
    assert!(
        refreshed(&app, login["refresh_token"].as_str().unwrap())
            .await
            .is_some()
    );
    app.stop().await;
}

#[tokio::test]
async fn a_set_whose_key_set_cannot_be_fetched_is_503_for_google_to_send_again() {
    // Port 1 of loopback: nothing listens, so Google's RISC key set cannot be fetched.
    let app = spawn_app_tuned(|settings| {
        let google = settings.oauth_providers.get_mut(ProviderKey::GOOGLE);
        google.expect("google is enabled").endpoints.risc_jwks =
            Some("http://127.0.0.1:1/risc-jwks".into());
    })
    .await;
    let login = google_login(&app).await;
    let hijacked = signal(&app, "report_hijacking", "583231").await;
    let response = deliver(&app, &hijacked).await;
    assert_problem(response, 503, "ServiceUnavailable").await;
    assert!(
        refreshed(&app, login["refresh_token"].as_str().unwrap())
            .await
            .is_some(),
        "nothing acted: the session lives"
    );
    app.stop().await;
}
