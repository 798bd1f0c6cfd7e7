//! The whole provider flow: authorize → callback → connect → accounts → disconnect.

use crate::helpers::*;
use serde_json::Value;
use social_login_simulator::{ClientAuthKind, Endpoint, SimUser};

#[tokio::test]
async fn a_new_github_user_registers_then_logs_in_again_as_the_same_user() {
    let app = spawn_app().await;

    let url = app.authorize("github", None).await;
    assert!(url.starts_with(&app.sim.github().authorization));
    assert!(url.contains("code_challenge_method=S256"));
    let first = app.login("583231").await;
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["token_type"], "bearer");
    assert_eq!(first["user"]["email"], "ada@example.com");
    assert_eq!(first["user"]["email_verified"], true);
    assert_eq!(first["user"]["full_name"], "Ada Lovelace");
    assert_eq!(first["user"]["has_password"], false);

    let exchanges: Vec<_> = app
        .sim
        .requests()
        .into_iter()
        .filter(|record| record.endpoint == Some(Endpoint::Token))
        .collect();
    assert_eq!(exchanges.len(), 1);
    assert!(exchanges[0].code_verifier_present, "PKCE verifier sent");
    assert_eq!(exchanges[0].client_auth, Some(ClientAuthKind::Body));

    let again = app.login("583231").await;
    assert_returning(&again, &first);

    let me = ok_json(app.get("/users/me", Some(&token(&again))).await).await;
    assert_eq!(me["id"], first["user"]["id"]);
    app.stop().await;
}

#[tokio::test]
async fn a_password_user_connects_lists_and_disconnects_github() {
    let app = spawn_app().await;
    let (registered, bearer) = app.signed_up("pat@example.com").await;

    let connected = app.connect_response(&bearer, "1000001").await;
    assert_eq!(connected.status(), 201);
    let link: Value = connected.json().await.unwrap();
    let mut keys: Vec<_> = link.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["created_at", "email", "id", "provider", "scopes"]);
    assert_eq!(
        link["scopes"],
        serde_json::json!(["read:user", "user:email"])
    );
    assert_eq!(link["provider"], "github");
    assert_eq!(link["email"], "grace@example.com");

    let listed: Value = app.accounts(&bearer).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["id"], link["id"]);

    // Grace's GitHub account now logs in as Pat.
    let via_github = app.login("1000001").await;
    assert_eq!(via_github["user"]["id"], registered["user"]["id"]);
    assert_eq!(via_github["is_new_user"], false);

    let gone = app.disconnect("github", &bearer).await;
    assert_eq!(gone.status(), 204);
    assert!(gone.bytes().await.unwrap().is_empty());
    let listed: Value = app.accounts(&bearer).await;
    assert_eq!(listed, serde_json::json!([]));
    app.stop().await;
}

#[tokio::test]
async fn the_only_login_method_cannot_be_disconnected_and_an_unlinked_one_is_not_found() {
    let app = spawn_app().await;
    let login = app.login("583231").await;
    let response = app.disconnect("github", &token(&login)).await;
    assert_problem(response, 400, "LastLoginMethod").await;
    let listed: Value = app.accounts(&token(&login)).await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "the link stays");

    let registered = app.register("pat@example.com").await;
    let response = app.disconnect("github", &token(&registered)).await;
    assert_problem(response, 404, "OAuthAccountNotFound").await;
    app.stop().await;
}

#[tokio::test]
async fn connecting_an_account_linked_to_someone_else_or_a_second_of_a_provider_is_a_conflict() {
    let app = spawn_app().await;
    let ada = app.login("583231").await;
    let registered = app.register("pat@example.com").await;
    let someone_elses = app.connect_response(&token(&registered), "583231").await;
    assert_problem_in(
        "someone else's",
        someone_elses,
        409,
        "ProviderAlreadyLinked",
    )
    .await;
    let second = app.connect_response(&token(&ada), "1000001").await;
    assert_problem_in("a second GitHub", second, 409, "ProviderAlreadyLinked").await;
    app.stop().await;
}

/// Without auto-link any provider email that a password user has is refused; with it, too,
/// as a password registration is unverified: linking to it would be the pre-registration
/// takeover.
#[tokio::test]
async fn a_github_email_that_matches_a_password_user_is_refused_with_or_without_auto_link() {
    for (auto_link_by_email, registered) in [(false, "Ada@Example.com"), (true, "ada@example.com")]
    {
        let app = spawn_app_with(Options {
            auto_link_by_email,
            ..Options::default()
        })
        .await;
        app.register(registered).await;
        let response = app.login_response("583231").await;
        let case = format!("auto_link_by_email = {auto_link_by_email}");
        assert_problem_in(&case, response, 409, "EmailAlreadyRegistered").await;
        app.stop().await;
    }
}

#[tokio::test]
async fn auto_link_never_adds_a_second_account_of_the_same_provider() {
    let app = spawn_auto_linking_app().await;
    let first = app.login("583231").await;
    // Another GitHub account claims Ada's verified address: it is not Ada's account.
    let impostor = SimUser::new("1000003", "impostor").with_email("ada@example.com", true);
    app.assert_no_takeover("github", impostor, &first).await;
    app.stop().await;
}

#[tokio::test]
async fn a_github_account_without_a_verified_email_never_links_and_registers_without_email() {
    let app = spawn_auto_linking_app().await;
    let ada = app.login("583231").await;
    // Same address, but GitHub does not vouch for it: it is not used at all.
    let other = app.login("1000002").await;
    assert_eq!(other["is_new_user"], true);
    assert_ne!(other["user"]["id"], ada["user"]["id"]);
    assert_eq!(other["user"]["email"], Value::Null);
    assert_eq!(other["user"]["email_verified"], false);
    app.stop().await;
}

#[tokio::test]
async fn a_disabled_provider_is_not_configured() {
    let app = spawn_app_with(Options {
        github_enabled: false,
        ..Options::default()
    })
    .await;
    let response = app.get("/auth/oauth/github/authorize", None).await;
    assert_problem(response, 404, "OAuthProviderNotConfigured").await;
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_provider_key_is_not_configured_on_every_endpoint() {
    let app = spawn_app().await;
    let (_, bearer) = app.signed_in("583231").await;
    let body = serde_json::json!({"code": "c", "state": "s"});
    for response in [
        app.get("/auth/oauth/gitlab/authorize", None).await,
        app.post("/auth/oauth/gitlab/callback", &body, None).await,
        app.post("/auth/oauth/GitHub/connect", &body, Some(&bearer))
            .await,
        app.disconnect("gitlab", &bearer).await,
    ] {
        assert_problem(response, 404, "OAuthProviderNotConfigured").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn connecting_the_callers_own_account_again_renews_it_with_200() {
    let app = spawn_app().await;
    let (_, bearer) = app.signed_in("583231").await;
    let first = app.link("google", &bearer, "1000001").await;

    let again = app.connect_response_at("google", &bearer, "1000001").await;

    assert_eq!(again.status(), 200);
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["id"], first["id"], "the same link");
    assert_eq!(app.accounts(&bearer).await.as_array().unwrap().len(), 2);
    app.stop().await;
}

#[tokio::test]
async fn purpose_login_starts_a_login_even_with_a_valid_bearer() {
    let app = spawn_app().await;
    let (pat, bearer) = app.signed_up("pat@example.com").await;
    let path = "/auth/oauth/github/authorize?purpose=login";
    let url = authorization_url(app.get(path, Some(&bearer)).await).await;
    let approval = app.approve_at_provider(&url, "583231").await;
    let login = ok_json(app.callback("github", &approval).await).await;
    assert_eq!(
        login["is_new_user"], true,
        "a login of its own, not Pat's connect"
    );
    assert_ne!(login["user"]["id"], pat["user"]["id"]);

    // Without a purpose the same bearer still makes it a connect.
    let url = app.authorize("github", Some(&bearer)).await;
    let approval = app.approve_at_provider(&url, "1000001").await;
    app.assert_state_refused("github", &approval).await;
    app.stop().await;
}
