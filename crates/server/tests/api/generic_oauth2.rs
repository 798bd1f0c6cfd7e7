//! A provider of `kind = "oauth2"` from configuration (docs/providers.md): `corp`, the
//! simulator's standard OAuth 2.0 provider, configured by its endpoints and by JSON
//! Pointers into its nested user document (`{"data": {"id": 583231, "attributes": …}}`).

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login_simulator::{Provider, SimUser};

fn standard() -> Options {
    Options {
        with_simulator: with_standard_providers,
        ..Options::default()
    }
}

#[tokio::test]
async fn the_nested_user_document_is_read_by_its_pointers_with_a_numeric_subject() {
    let app = spawn_app_with(standard()).await;
    app.sim.add_user(
        SimUser::new("424242", "turing")
            .with_name("Alan Turing")
            .with_email("alan@example.com", true)
            .with_avatar_url("https://corp.example/avatars/alan.png"),
    );
    let first = app.login_response_at("corp", "424242").await;
    assert_eq!(first.status(), StatusCode::OK);
    let first: Value = first.json().await.unwrap();
    let user = &first["user"];
    assert_eq!(user["full_name"], "Alan Turing");
    assert_eq!(user["email"], "alan@example.com");
    assert_eq!(
        user["email_verified"], true,
        "\"true\" in mail_confirmed, vouched for"
    );
    assert_eq!(user["avatar_url"], "https://corp.example/avatars/alan.png");
    // The numeric id is the subject: the same person again, another one apart.
    let again: Value = app
        .login_response_at("corp", "424242")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["user"]["id"], user["id"]);
    let ada: Value = app
        .login_response_at("corp", "583231")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ada["is_new_user"], true);
    assert_ne!(ada["user"]["id"], user["id"]);
    app.stop().await;
}

#[tokio::test]
async fn disconnecting_revokes_the_grant_and_id_tokens_are_not_offered() {
    let app = spawn_app_with(standard()).await;
    let pat = token(&app.register("pat@example.com").await);
    let linked = app.connect_response_at("corp", &pat, "583231").await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let unlinked = app.delete("/auth/oauth/corp/disconnect", Some(&pat)).await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let revocations = app.sim.revocations();
    assert_eq!(revocations.len(), 1, "{revocations:?}");
    assert_eq!(revocations[0].provider, Provider::StandardOauth2);
    assert_eq!(
        revocations[0].hint.as_deref(),
        Some("refresh_token"),
        "the refresh token ends the grant"
    );
    let native = json!({"id_token": "a.b.c", "nonce": "n"});
    let response = app.post("/auth/oauth/corp/id-token", &native, None).await;
    assert_problem(response, 400, "IdTokenNotSupported").await;
    app.stop().await;
}
