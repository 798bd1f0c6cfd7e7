//! Google's sign-up policy (docs/api.md#sign-up-policy): with `allowed_email_domains`, a new
//! user needs Google's `hd` (the Workspace domain) in the list as well as a verified email of
//! it, by callback and by native id_token alike; connect and id-token connect are never
//! refused; with `allow_signup = false` a native sign-in registers nobody but still signs in
//! a linked or auto-linked account.

use crate::helpers::*;
use crate::signup_policy::{acme_member, auto_linking, table};
use reqwest::StatusCode;
use social_login::settings::Settings;
use social_login_domain::ProviderKey;
use social_login_simulator::{Provider, SimUser};

const NATIVE: &str = "/auth/oauth/google/id-token";
const NATIVE_CONNECT: &str = "/auth/oauth/google/id-token/connect";

fn acme_only(settings: &mut Settings) {
    table(settings, ProviderKey::GOOGLE).allowed_email_domains = vec!["acme.com".into()];
}

/// A consumer Google account with an address of the allowed domain: no `hd`.
fn consumer() -> SimUser {
    SimUser::new("2000002", "bob-acme").with_email("bob@acme.com", true)
}

/// An account of another organisation's Workspace that uses an acme.com address.
fn other_workspace() -> SimUser {
    consumer().with_hosted_domain("other.com")
}

async fn spawn_with_people(options: Options) -> TestApp {
    let app = spawn_app_with(options).await;
    app.sim.add_user(acme_member());
    app
}

/// An app whose Google sign-up takes acme.com's Workspace only.
async fn spawn_acme_only() -> TestApp {
    spawn_with_people(Options {
        tune: acme_only,
        ..Options::default()
    })
    .await
}

#[tokio::test]
async fn a_google_callback_signs_up_only_an_account_whose_hosted_domain_is_listed() {
    let app = spawn_acme_only().await;
    let member = app.login_at("google", "2000001").await;
    assert_eq!(member["is_new_user"], true);
    assert_eq!(member["user"]["email"], "ada@acme.com");
    // No `hd` (a consumer account), then another organisation's `hd`.
    for person in [consumer(), other_workspace()] {
        app.sim.add_user(person.clone());
        let refused = app.login_response_at("google", &person.id).await;
        assert_problem(refused, 403, "EmailDomainNotAllowed").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_google_id_token_signs_up_only_an_account_whose_hosted_domain_is_listed() {
    let app = spawn_acme_only().await;
    let member = app
        .post(
            NATIVE,
            &app.native_body(Provider::Google, &acme_member()),
            None,
        )
        .await;
    assert_eq!(member.status(), StatusCode::OK);
    for person in [consumer(), other_workspace()] {
        let body = app.native_body(Provider::Google, &person);
        let refused = app.post(NATIVE, &body, None).await;
        assert_problem(refused, 403, "EmailDomainNotAllowed").await;
    }
    app.stop().await;
}

#[tokio::test]
async fn connecting_a_google_account_is_never_a_sign_up() {
    let app = spawn_with_people(Options {
        tune: |settings| {
            acme_only(settings);
            table(settings, ProviderKey::GOOGLE).allow_signup = false;
        },
        ..Options::default()
    })
    .await;
    app.sim.add_user(consumer());
    let pat = token(&app.register("pat@example.com").await);
    let by_code = app.connect_response_at("google", &pat, "2000002").await;
    assert_eq!(by_code.status(), StatusCode::CREATED);
    let sam = token(&app.register("sam@example.com").await);
    let body = app.native_body(Provider::Google, &grace());
    let by_id_token = app.post(NATIVE_CONNECT, &body, Some(&sam)).await;
    assert_eq!(by_id_token.status(), StatusCode::CREATED);

    // Each linked account now signs its user in, by either flow.
    let again = app.login_at("google", "2000002").await;
    assert_eq!(again["is_new_user"], false);
    let body = app.native_body(Provider::Google, &grace());
    let native: serde_json::Value = app.post(NATIVE, &body, None).await.json().await.unwrap();
    assert_eq!(native["is_new_user"], false);
    assert_eq!(native["user"]["email"], "sam@example.com");
    app.stop().await;
}

#[tokio::test]
async fn with_sign_up_off_a_google_id_token_registers_nobody_but_auto_links() {
    let app = spawn_with_people(auto_linking(|settings| {
        table(settings, ProviderKey::GOOGLE).allow_signup = false;
    }))
    .await;
    let body = app.native_body(Provider::Google, &acme_member());
    let refused = app.post(NATIVE, &body, None).await;
    assert_problem(refused, 403, "SignupNotAllowed").await;

    // Ada's verified address belongs to her GitHub user: the id_token joins it.
    let ada = app.login("583231").await;
    let body = app.native_body(Provider::Google, &crate::helpers::ada());
    let linked = ok_json(app.post(NATIVE, &body, None).await).await;
    assert_returning(&linked, &ada);
    app.stop().await;
}
