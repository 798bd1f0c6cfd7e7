//! A recent login (docs/configuration.md `tokens.reauthentication_seconds`): deleting the
//! account and linking a provider account need the session's login, not its last refresh,
//! to be recent. The passing of time is played by moving the session's stored login time
//! back, as the database would hold it ten minutes later.

use crate::helpers::*;
use reqwest::StatusCode;
use sea_orm::sea_query::{Alias, Query};
use serde_json::Value;
use social_login_simulator::Provider;

/// Every session of the app now says its login happened ten minutes ago.
async fn age_every_session(app: &TestApp) {
    let ten_minutes_ago = time::OffsetDateTime::now_utc() - time::Duration::minutes(10);
    let update = Query::update()
        .table(Alias::new("refresh_families"))
        .value(Alias::new("auth_time"), ten_minutes_ago)
        .to_owned();
    let aged = app.write_behind(|backend| backend.build(&update)).await;
    assert!(aged > 0, "there were sessions to age");
}

/// A refresh of `login`'s session: a valid new access token, of the same old login.
async fn refreshed(app: &TestApp, login: &Value) -> String {
    let response = app.refresh(&login["refresh_token"]).await;
    assert_eq!(response.status(), StatusCode::OK);
    token(&response.json().await.unwrap())
}

#[tokio::test]
async fn a_refreshed_token_of_an_old_login_cannot_delete_the_account_until_the_user_logs_in_again()
{
    let app = spawn_app().await;
    let ada = app.login("583231").await;
    age_every_session(&app).await;
    let bearer = refreshed(&app, &ada).await;

    let refused = app.delete("/users/me", Some(&bearer)).await;
    assert_problem(refused, 401, "ReauthenticationRequired").await;
    let me = app.get("/users/me", Some(&bearer)).await;
    assert_eq!(
        me.status(),
        StatusCode::OK,
        "the session itself still works"
    );

    let again = app.login("583231").await;
    assert_eq!(again["user"]["id"], ada["user"]["id"]);
    app.delete_account(&token(&again)).await;
    app.stop().await;
}

#[tokio::test]
async fn a_refreshed_token_of_an_old_login_can_neither_start_nor_finish_a_connect() {
    let app = spawn_app().await;
    let pat = app.register("pat@example.com").await;
    // The connect flow started while the login was fresh, the provider approved...
    let approval = app.approval("github", Some(&token(&pat)), "583231").await;
    // ...and the token that finishes it is a refresh of a login ten minutes old.
    age_every_session(&app).await;
    let stale = refreshed(&app, &pat).await;

    let finished = app.connect("github", &approval, &stale).await;
    assert_problem(finished, 401, "ReauthenticationRequired").await;
    let started = app.get("/auth/oauth/github/authorize", Some(&stale)).await;
    assert_problem(started, 401, "ReauthenticationRequired").await;
    assert!(app.linked_providers(&stale).await.is_empty());

    // The same approval completes once the user has logged in again: nothing was spent.
    let login = app.password_login("pat@example.com", PASSWORD).await;
    let fresh = token(&login.json().await.unwrap());
    let linked = app.connect("github", &approval, &fresh).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    app.stop().await;
}

#[tokio::test]
async fn a_refreshed_token_of_an_old_login_cannot_link_an_id_token() {
    let app = spawn_app().await;
    let pat = app.register("pat@example.com").await;
    age_every_session(&app).await;
    let stale = refreshed(&app, &pat).await;
    // The thief's own Google account, signed for this client.
    let body = app.native_body(Provider::Google, &grace());

    let connect = "/auth/oauth/google/id-token/connect";
    let refused = app.post(connect, &body, Some(&stale)).await;
    assert_problem(refused, 401, "ReauthenticationRequired").await;
    assert!(app.linked_providers(&stale).await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn a_refreshed_token_of_an_old_login_cannot_finish_a_link_until_the_user_logs_in_again() {
    let app = spawn_app().await;
    let ada = app.register("ada@example.com").await;
    // Ada's Google login meets her password account: a link token is offered.
    let refused = app.login_response_at("google", "583231").await;
    let problem = assert_problem_in("google login", refused, 409, "EmailAlreadyRegistered").await;
    let link = serde_json::json!({ "link_token": problem["link_token"] });
    age_every_session(&app).await;
    let stale = refreshed(&app, &ada).await;

    let finished = app.post("/auth/link/complete", &link, Some(&stale)).await;
    assert_problem(finished, 401, "ReauthenticationRequired").await;
    assert!(app.linked_providers(&stale).await.is_empty());

    // Nothing was spent: the same token completes once she has logged in again.
    let login = app.password_login("ada@example.com", PASSWORD).await;
    let fresh = token(&login.json().await.unwrap());
    let linked = app.post("/auth/link/complete", &link, Some(&fresh)).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    app.stop().await;
}
