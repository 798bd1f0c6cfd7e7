//! Every provider beyond GitHub and Google through the whole service: docs/providers.md#apple
//! name-once rule, post_body in both shapes, each provider's profile shape and email rule.

use crate::helpers::*;
use serde_json::{Value, json};
use social_login_simulator::{MicrosoftAccount, SimUser};

/// authorize → Apple's form_post → callback with the posted fields as post_body.
async fn apple_login(app: &TestApp, user_id: &str, user_as_object: bool) -> reqwest::Response {
    let url = app.authorize("apple", None).await;
    assert!(url.contains("response_mode=form_post"));
    let fields = app.approve_at_apple(&url, user_id).await;
    let mut post_body = fields.clone();
    if user_as_object && let Some(Value::String(user)) = fields.get("user") {
        post_body["user"] = serde_json::from_str(user).unwrap();
    }
    let body = json!({"code": fields["code"], "state": fields["state"], "post_body": post_body});
    app.post("/auth/oauth/apple/callback", &body, None).await
}

#[tokio::test]
async fn apple_gives_the_name_once_and_the_stored_name_is_kept() {
    let app = spawn_app().await;
    let first = ok_json(apple_login(&app, "1000001", false).await).await;
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["user"]["full_name"], "Grace Hopper");

    let again = ok_json(apple_login(&app, "1000001", false).await).await;
    assert_returning_with_name(&again, &first);
    app.stop().await;
}

#[tokio::test]
async fn apple_accepts_the_user_member_as_a_json_object_too() {
    let app = spawn_app().await;
    let login = ok_json(apple_login(&app, "583231", true).await).await;
    assert_eq!(login["user"]["full_name"], "Ada Lovelace");
    app.stop().await;
}

#[tokio::test]
async fn post_body_is_ignored_by_providers_other_than_apple() {
    let app = spawn_app().await;
    let approval = app.approval("github", None, "1000002").await;
    let mut body = approval.body();
    body["post_body"] = json!({"user": {"name": {"firstName": "Mallory", "lastName": "X"}}});
    let login: Value = app
        .post("/auth/oauth/github/callback", &body, None)
        .await
        .json()
        .await
        .unwrap();
    assert_ne!(login["user"]["full_name"], "Mallory X");
    app.stop().await;
}

#[tokio::test]
async fn discord_signs_a_user_in_with_its_own_profile_shape() {
    let app = spawn_app().await;
    let login = app.login_at("discord", "583231").await;
    assert_eq!(login["is_new_user"], true);
    let avatar = login["user"]["avatar_url"].as_str().unwrap_or_default();
    assert!(
        avatar.contains("/avatars/") || avatar.contains("/embed/avatars/"),
        "{avatar}"
    );
    app.stop().await;
}

/// Each provider's email rule: Facebook's email never counts as verified, a personal
/// Microsoft account's does, LinkedIn's comes verified from its OIDC userinfo. One fresh app
/// a case: the same person's email would clash across providers.
#[tokio::test]
async fn each_provider_signs_a_user_in_by_its_own_email_rule() {
    let cases = [
        ("facebook", ada(), false),
        ("microsoft", ada(), true),
        ("linkedin", grace(), true),
    ];
    for (provider, person, verified) in cases {
        let app = spawn_app().await;
        let login = app.login_at(provider, &person.id).await;
        let user = &login["user"];
        assert_eq!(
            user["email"],
            person.email.as_deref().unwrap(),
            "{provider}"
        );
        assert_eq!(user["email_verified"], verified, "{provider}");
        assert_eq!(
            user["full_name"],
            person.name.as_deref().unwrap(),
            "{provider}"
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn x_without_the_email_scope_signs_the_user_in_without_email() {
    let app = spawn_app().await;
    let login = app.login_at("twitter", "583231").await;
    assert_eq!(login["user"]["email"], Value::Null);
    assert_eq!(login["user"]["full_name"], "Ada Lovelace");
    let again = app.login_at("twitter", "583231").await;
    assert_returning(&again, &login);
    app.stop().await;
}

#[tokio::test]
async fn a_work_tenant_email_without_xms_edov_never_links_the_noauth_case() {
    let app = spawn_auto_linking_app().await;
    // Ada's account exists with her verified address.
    let ada = app.login("583231").await;
    // An attacker's tenant asserts Ada's address without Microsoft vouching for it.
    let attacker = SimUser::new("666", "attacker")
        .with_email("ada@example.com", true)
        .with_microsoft(MicrosoftAccount::work(
            "11111111-2222-3333-4444-555555555555",
            "ada@example.com",
        ));
    app.assert_no_takeover("microsoft", attacker, &ada).await;
    app.stop().await;
}
