//! Flows that need a second provider: state bound to its provider, connecting Google to a
//! GitHub user, the last-login-method check across providers, verified auto-linking.

use crate::helpers::*;

#[tokio::test]
async fn a_state_minted_for_one_provider_is_refused_by_another_and_spent() {
    let app = spawn_app().await;
    let approval = app.approval("github", None, "583231").await;
    app.assert_state_refused("google", &approval).await;
    app.assert_state_refused("github", &approval).await;
    app.stop().await;
}

#[tokio::test]
async fn a_github_user_connects_google_and_may_then_drop_github_but_not_both() {
    let app = spawn_app().await;
    let (login, bearer) = app.signed_in("583231").await;
    app.link("google", &bearer, "1000001").await;
    let accounts = app.accounts(&bearer).await;
    assert_eq!(strings(&accounts, "provider"), ["github", "google"]);

    let dropped = app.disconnect("github", &bearer).await;
    assert_eq!(dropped.status(), 204);
    let last = app.disconnect("google", &bearer).await;
    assert_problem(last, 400, "LastLoginMethod").await;

    // Google now signs the same user in.
    let via_google = ok_json(app.login_response_at("google", "1000001").await).await;
    assert_eq!(via_google["user"]["id"], login["user"]["id"]);
    app.stop().await;
}

#[tokio::test]
async fn with_auto_link_a_verified_google_email_links_to_the_verified_github_user() {
    let app = spawn_auto_linking_app().await;
    let github = app.login("583231").await;
    let google = ok_json(app.login_response_at("google", "583231").await).await;
    assert_returning(&google, &github);
    let accounts = app.accounts(&token(&github)).await;
    assert_eq!(accounts.as_array().unwrap().len(), 2);
    app.stop().await;
}

#[tokio::test]
async fn without_auto_link_the_same_verified_email_is_a_conflict() {
    let app = spawn_app().await;
    app.login("583231").await;
    let google = app.login_response_at("google", "583231").await;
    assert_problem(google, 409, "EmailAlreadyRegistered").await;
    app.stop().await;
}
