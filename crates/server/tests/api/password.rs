//! Password accounts and session tokens over HTTP (docs/api.md#register).

use crate::helpers::*;
use serde_json::{Value, json};

#[tokio::test]
async fn register_then_log_in_with_the_password() {
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    assert_eq!(registered["is_new_user"], true);
    assert_eq!(registered["user"]["has_password"], true);
    assert_eq!(registered["user"]["email_verified"], false);
    let login = app.password_login("PAT@example.com", PASSWORD).await;
    assert_eq!(login.status(), 200);
    let login: Value = login.json().await.unwrap();
    assert_eq!(login["is_new_user"], false);
    assert_eq!(login["user"]["id"], registered["user"]["id"]);
    app.stop().await;
}

#[tokio::test]
async fn registering_an_existing_email_is_a_conflict() {
    let app = spawn_app().await;
    app.register("pat@example.com").await;
    let again = app
        .post(
            "/auth/register",
            &json!({"email": "Pat@Example.com", "password": PASSWORD}),
            None,
        )
        .await;
    assert_problem(again, 409, "EmailAlreadyRegistered").await;
    app.stop().await;
}

#[tokio::test]
async fn a_weak_password_or_bad_email_is_a_validation_error() {
    let app = spawn_app().await;
    for body in [
        json!({"email": "pat@example.com", "password": "short"}),
        json!({"email": "not-an-email", "password": PASSWORD}),
    ] {
        let response = app.post("/auth/register", &body, None).await;
        assert_problem(response, 422, "ValidationError").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn wrong_password_and_unknown_email_are_the_same_invalid_credentials() {
    let app = spawn_app().await;
    app.register("pat@example.com").await;
    for body in [
        json!({"email": "pat@example.com", "password": "wrong password"}),
        json!({"email": "nobody@example.com", "password": PASSWORD}),
    ] {
        let response = app.post("/auth/login", &body, None).await;
        assert_problem(response, 401, "InvalidCredentials").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn refresh_rotates_and_a_reused_token_revokes_the_session() {
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    let first = registered["refresh_token"].clone();
    let rotated = app.refresh(&first).await;
    assert_eq!(rotated.status(), 200);
    let rotated: Value = rotated.json().await.unwrap();
    assert_ne!(rotated["refresh_token"], first);
    assert_eq!(
        app.get("/users/me", Some(&token(&rotated))).await.status(),
        200
    );

    let reuse = app.refresh(&first).await;
    assert_problem(reuse, 401, "InvalidCredentials").await;
    let successor = app.refresh(&rotated["refresh_token"]).await;
    assert_problem(successor, 401, "InvalidCredentials").await;
    app.stop().await;
}

#[tokio::test]
async fn logout_ends_the_refresh_token() {
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    let refresh = json!({"refresh_token": registered["refresh_token"]});
    let out = app.post("/auth/logout", &refresh, None).await;
    assert_eq!(out.status(), 204);
    let after = app.post("/auth/refresh", &refresh, None).await;
    assert_problem(after, 401, "InvalidCredentials").await;
    app.stop().await;
}

#[tokio::test]
async fn me_shows_the_user_read_fields() {
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    let me: Value = app.get_json("/users/me", Some(&token(&registered))).await;
    let mut keys: Vec<_> = me.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "avatar_url",
            "created_at",
            "email",
            "email_verified",
            "full_name",
            "has_password",
            "id"
        ]
    );
    assert!(
        time::OffsetDateTime::parse(
            me["created_at"].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339
        )
        .is_ok()
    );
    app.stop().await;
}
