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
    let login = ok_json(app.password_login("PAT@example.com", PASSWORD).await).await;
    assert_returning(&login, &registered);
    app.stop().await;
}

/// A weak password or a bad email is refused before anyone registers; once Pat has, their
/// email again (in any case) is a conflict, and a wrong password is the same invalid
/// credentials as an unknown email.
#[tokio::test]
async fn bad_registrations_and_logins_are_refused_with_their_problem() {
    let app = spawn_app().await;
    let invalid = [
        json!({"email": "pat@example.com", "password": "short"}),
        json!({"email": "not-an-email", "password": PASSWORD}),
    ];
    assert_each_refused(&app, "/auth/register", &invalid, 422, "ValidationError").await;
    app.register("pat@example.com").await;
    let again = [json!({"email": "Pat@Example.com", "password": PASSWORD})];
    assert_each_refused(
        &app,
        "/auth/register",
        &again,
        409,
        "EmailAlreadyRegistered",
    )
    .await;
    let wrong = [
        json!({"email": "pat@example.com", "password": "wrong password"}),
        json!({"email": "nobody@example.com", "password": PASSWORD}),
    ];
    assert_each_refused(&app, "/auth/login", &wrong, 401, "InvalidCredentials").await;
    app.stop().await;
}

#[tokio::test]
async fn refresh_rotates_and_a_reused_token_revokes_the_session() {
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    let first = registered["refresh_token"].clone();
    let rotated = ok_json(app.refresh(&first).await).await;
    assert_ne!(rotated["refresh_token"], first);
    assert_eq!(
        app.get("/users/me", Some(&token(&rotated))).await.status(),
        200
    );

    // The reuse, and then its successor too.
    app.assert_refresh_refused(&first).await;
    app.assert_refresh_refused(&rotated["refresh_token"]).await;
    app.stop().await;
}

#[tokio::test]
async fn logout_ends_the_refresh_token() {
    let app = spawn_app().await;
    let registered = app.register("pat@example.com").await;
    let out = app.logout(&registered["refresh_token"]).await;
    assert_eq!(out.status(), 204);
    app.assert_refresh_refused(&registered["refresh_token"])
        .await;
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
