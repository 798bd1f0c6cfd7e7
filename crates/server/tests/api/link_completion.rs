//! Finishing a link after 409 (docs/api.md#finishing-a-link): a provider login that meets
//! the account holding its verified email is answered with a link token; that account's
//! user, signed in, completes the link with it, once, with the tokens of the first exchange.

use crate::helpers::{TestApp, assert_problem_in, logs, spawn_app, spawn_app_tuned, token};
use reqwest::StatusCode;
use serde_json::{Value, json};
use social_login::settings::{LinkingConfig, Settings};
use social_login_domain::ProviderKey;

/// A password account with Ada's address (the simulator's 583231 has it, verified, at every
/// provider); its bearer token.
async fn password_ada(app: &TestApp) -> String {
    token(&app.register("ada@example.com").await)
}

/// Ada's Google login, refused for her email: its problem body.
async fn refused_google_login(app: &TestApp) -> Value {
    let refused = app.login_response_at("google", "583231").await;
    assert_problem_in("google login", refused, 409, "EmailAlreadyRegistered").await
}

/// A fresh app with [`password_ada`] in it, offered a link by [`refused_google_login`]: the
/// app, her bearer and the link token.
async fn ada_offered_google() -> (TestApp, String, Value) {
    let app = spawn_app().await;
    let bearer = password_ada(&app).await;
    let link_token = refused_google_login(&app).await["link_token"].clone();
    (app, bearer, link_token)
}

async fn complete(app: &TestApp, link_token: &Value, bearer: &str) -> reqwest::Response {
    let body = json!({ "link_token": link_token });
    app.post("/auth/link/complete", &body, Some(bearer)).await
}

#[tokio::test]
async fn the_owner_of_the_email_completes_the_link_once_with_the_first_exchange() {
    let app = spawn_app().await;
    let bearer = password_ada(&app).await;
    let refused = refused_google_login(&app).await;
    let link_token = refused["link_token"].clone();
    assert!(
        link_token.as_str().is_some_and(|t| t.len() > 32),
        "{refused}"
    );

    let calls_before = app.sim.requests().len();
    let linked = complete(&app, &link_token, &bearer).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let linked: Value = linked.json().await.unwrap();
    assert_eq!(linked["provider"], "google");
    assert_eq!(linked["email"], "ada@example.com");
    assert_eq!(
        app.sim.requests().len(),
        calls_before,
        "no second trip to the provider"
    );
    assert_eq!(app.linked_providers(&bearer).await, ["google"]);
    let events = app.events(&bearer).await;
    assert_eq!(events[0]["type"], "account.linked");
    assert_eq!(events[0]["provider"], "google");
    assert_eq!(events[0]["via"], "link_token");

    // Google now signs Ada's account in.
    let me = app.get_json("/users/me", Some(&bearer)).await;
    let login = app.login_at("google", "583231").await;
    assert_eq!(login["user"]["id"], me["id"]);

    // Used once: the same token again is refused and changes nothing.
    let again = complete(&app, &link_token, &bearer).await;
    assert_problem_in("used", again, 400, "InvalidLinkToken").await;
    // Never logged.
    assert!(!logs().contains(link_token.as_str().unwrap()));
    app.stop().await;
}

#[tokio::test]
async fn another_users_bearer_is_refused_and_leaves_the_token_to_its_owner() {
    let (app, bearer, link_token) = ada_offered_google().await;
    let (_, grace) = app.signed_up("grace@example.org").await;

    let stolen = complete(&app, &link_token, &grace).await;
    assert_problem_in("another user", stolen, 403, "LinkTokenNotForYou").await;
    assert!(app.linked_providers(&grace).await.is_empty());

    let linked = complete(&app, &link_token, &bearer).await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    app.stop().await;
}

#[tokio::test]
async fn a_tampered_garbage_or_missing_token_is_refused_and_changes_nothing() {
    let (app, bearer, link_token) = ada_offered_google().await;
    let mut tampered = link_token.as_str().unwrap().as_bytes().to_vec();
    let middle = tampered.len() / 2;
    tampered[middle] = if tampered[middle] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    for bad in [json!(tampered), json!("garbage"), json!("x".repeat(20_000))] {
        let refused = complete(&app, &bad, &bearer).await;
        assert_problem_in("bad token", refused, 400, "InvalidLinkToken").await;
    }
    let missing = app
        .post("/auth/link/complete", &json!({}), Some(&bearer))
        .await;
    assert_problem_in("no token", missing, 422, "ValidationError").await;
    let anonymous = app
        .post("/auth/link/complete", &json!({"link_token": "x"}), None)
        .await;
    assert_problem_in("no bearer", anonymous, 401, "Unauthorized").await;
    assert!(app.linked_providers(&bearer).await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn a_provider_account_linked_meanwhile_is_a_conflict() {
    let (app, bearer, link_token) = ada_offered_google().await;
    // Ada connects that very Google account the usual way first.
    app.link("google", &bearer, "583231").await;
    let late = complete(&app, &link_token, &bearer).await;
    assert_problem_in("linked meanwhile", late, 409, "ProviderAlreadyLinked").await;
    app.stop().await;
}

#[tokio::test]
async fn an_unverified_provider_email_meets_nobody_and_is_offered_nothing() {
    let app = spawn_app().await;
    let bearer = password_ada(&app).await;
    // 1000002 says ada@example.com too, unverified: it claims nothing, so it meets nobody
    // and no link to Ada is offered; it is a user of its own.
    let login = app.login_at("github", "1000002").await;
    assert_eq!(login["is_new_user"], true);
    assert!(login.get("link_token").is_none());
    assert!(app.linked_providers(&bearer).await.is_empty());
    app.stop().await;
}

fn google_linking(settings: &mut Settings, linking: LinkingConfig) {
    let google = settings
        .oauth_providers
        .get_mut(ProviderKey::GOOGLE)
        .unwrap();
    google.linking = Some(linking);
}

#[tokio::test]
async fn linking_never_offers_nothing_and_auto_links_a_verified_owner_at_once() {
    let never = spawn_app_tuned(|settings| google_linking(settings, LinkingConfig::Never)).await;
    password_ada(&never).await;
    let refused = refused_google_login(&never).await;
    assert!(refused.get("link_token").is_none(), "{refused}");
    never.stop().await;

    let auto = spawn_app_tuned(|settings| google_linking(settings, LinkingConfig::Auto)).await;
    // GitHub registers Ada with her verified address; Google then joins her at once.
    let first = auto.login_at("github", "583231").await;
    let joined = auto.login_at("google", "583231").await;
    assert_eq!(joined["user"]["id"], first["user"]["id"]);
    assert_eq!(joined["is_new_user"], false);
    auto.stop().await;
}

#[tokio::test]
async fn a_token_whose_user_is_gone_completes_nothing() {
    let (app, bearer, link_token) = ada_offered_google().await;
    let deleted = app.delete("/users/me", Some(&bearer)).await;
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let refused = complete(&app, &link_token, &bearer).await;
    assert_problem_in("deleted owner", refused, 401, "Unauthorized").await;
    // The Google account is linked to nobody: its login now registers a new user.
    let login = app.login_at("google", "583231").await;
    assert_eq!(login["is_new_user"], true);
    app.stop().await;
}
