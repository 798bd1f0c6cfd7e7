//! `DELETE /users/me` (docs/api.md#account-deletion-and-revocation): the account, its links and sessions are gone, its
//! tokens refused from then on, and it needs a recent login.

use crate::helpers::{PUBLIC_URL, SECRET_KEY, assert_problem, spawn_app, token, user_id};
use reqwest::StatusCode;
use social_login::settings::Settings;
use social_login::wiring::session_tokens;
use social_login_ports::SessionTokens as _;

#[tokio::test]
async fn deleting_the_account_ends_every_token_and_frees_the_provider_account() {
    let app = spawn_app().await;
    let (ada, bearer) = app.signed_in("583231").await;
    let first_id = ada["user"]["id"].clone();

    app.delete_account(&bearer).await;

    for path in ["/users/me", "/auth/oauth/accounts", "/users/me/events"] {
        assert_problem(app.get(path, Some(&bearer)).await, 401, "Unauthorized").await;
    }
    assert_problem(
        app.delete("/users/me", Some(&bearer)).await,
        401,
        "Unauthorized",
    )
    .await;
    app.assert_refresh_refused(&ada["refresh_token"]).await;

    // The provider account is free: signing in with it again registers a new user.
    let again = app.login("583231").await;
    assert_eq!(again["is_new_user"], true);
    assert_ne!(again["user"]["id"], first_id);
    app.stop().await;
}

#[tokio::test]
async fn a_token_from_an_old_login_cannot_delete_the_account() {
    let app = spawn_app().await;
    let pat = app.register("pat@example.com").await;
    let user = user_id(&pat).parse().unwrap();
    // A valid token of the same service, issued by a login six minutes ago.
    let mut settings = Settings::with_secret_key(SECRET_KEY);
    settings.server.public_url = Some(PUBLIC_URL.into());
    let six_minutes_ago = time::OffsetDateTime::now_utc() - time::Duration::minutes(6);
    let old = session_tokens(&settings)
        .issue_access(
            social_login_ports::AccessIssue {
                user,
                session: social_login_domain::FamilyId::new(),
                auth_time: six_minutes_ago,
            },
            six_minutes_ago,
        )
        .unwrap();
    let old = old.value.expose();
    assert_eq!(
        app.get("/users/me", Some(old)).await.status(),
        StatusCode::OK
    );

    let refused = app.delete("/users/me", Some(old)).await;
    assert_problem(refused, 401, "ReauthenticationRequired").await;
    assert_eq!(
        app.get("/users/me", Some(&token(&pat))).await.status(),
        StatusCode::OK
    );
    app.stop().await;
}
