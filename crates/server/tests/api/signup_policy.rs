//! The sign-up policy (docs/api.md#sign-up-policy) through the code flow: `allow_signup`
//! and `allowed_email_domains` of a built-in provider (github) and of a provider from
//! configuration (acme-sso, by callback and by id_token), what they never refuse (a linked
//! account, auto-link, connect), and `[signup] password`. Google's `hd`: `signup_google.rs`.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::json;
use social_login::settings::{ProviderConfig, Settings};
use social_login::simulated::ACME_SSO;
use social_login_domain::ProviderKey;
use social_login_simulator::{Provider, SimUser};

pub fn table(settings: &mut Settings, key: ProviderKey) -> &mut ProviderConfig {
    settings.oauth_providers.get_mut(key).expect("configured")
}

/// A verified address of the allowed domain (Google also names the Workspace: `hd`).
pub fn acme_member() -> SimUser {
    SimUser::new("2000001", "ada-acme")
        .with_email("ada@acme.com", true)
        .with_hosted_domain("acme.com")
}

/// An address of the allowed domain the provider does not vouch for.
pub fn acme_unverified() -> SimUser {
    SimUser::new("2000004", "dee-acme").with_email("dee@acme.com", false)
}

/// Options with auto-linking by email on and `tune` applied to the settings.
pub fn auto_linking(tune: fn(&mut Settings)) -> Options {
    Options {
        auto_link_by_email: true,
        tune,
        ..Options::default()
    }
}

fn github_signup_off(settings: &mut Settings) {
    table(settings, ProviderKey::GITHUB).allow_signup = false;
}

#[tokio::test]
async fn with_sign_up_off_a_new_account_is_refused_and_nothing_is_stored() {
    let app = spawn_app_tuned(github_signup_off).await;
    let refused = app.login_response("583231").await;
    let problem = assert_problem(refused, 403, "SignupNotAllowed").await;
    assert!(!problem.to_string().contains("ada@example.com"));
    // Nothing keeps the grant its code was exchanged for: it is revoked at once.
    app.assert_one_live_revocation(Provider::Github);

    // No user holds the verified address, and the account is linked to nobody: it can be
    // connected, which sign-up off never refuses.
    let pat = app.register("ada@example.com").await;
    app.link("github", &token(&pat), "583231").await;
    let again = app.login("583231").await;
    // A linked account signs its user in.
    assert_returning(&again, &pat);
    app.stop().await;
}

#[tokio::test]
async fn with_sign_up_off_auto_linking_still_signs_an_existing_user_in() {
    let app = spawn_app_with(auto_linking(github_signup_off)).await;
    let ada = app.login_at("google", "583231").await;
    let linked = app.login("583231").await;
    assert_returning(&linked, &ada);
    let events = app
        .get_json("/users/me/events", Some(&token(&linked)))
        .await;
    assert_eq!(events[1]["type"], "account.linked");
    assert_eq!(events[1]["provider"], "github");

    // Nobody has Grace's address: her GitHub account would be a new user.
    let grace = app.login_response("1000001").await;
    assert_problem(grace, 403, "SignupNotAllowed").await;
    app.stop().await;
}

#[tokio::test]
async fn a_domain_list_admits_only_new_users_with_a_verified_email_of_its_domains() {
    let app = spawn_app_with(auto_linking(|settings| {
        table(settings, ProviderKey::GITHUB).allowed_email_domains = vec!["acme.com".into()]
    }))
    .await;
    app.sim.add_user(acme_member());
    app.sim.add_user(acme_unverified());
    let member = app.login("2000001").await;
    assert_eq!(member["is_new_user"], true);
    assert_eq!(member["user"]["email"], "ada@acme.com");
    for (user, why) in [("583231", "another domain"), ("2000004", "not verified")] {
        let refused = app.login_response(user).await;
        let problem = assert_problem(refused, 403, "EmailDomainNotAllowed").await;
        assert!(!problem.to_string().contains("@"), "{why}: no address told");
    }

    // Not sign-ups: auto-linking to a user of another domain, and connecting.
    let grace = app.login_at("google", "1000001").await;
    let linked = app.login("1000001").await;
    assert_returning(&linked, &grace);
    let pat = token(&app.register("pat@example.com").await);
    let connected = app.connect_response(&pat, "583231").await;
    assert_eq!(connected.status(), StatusCode::CREATED);
    app.stop().await;
}

#[tokio::test]
async fn a_provider_from_configuration_applies_its_domain_list_to_callbacks_and_id_tokens() {
    let app = spawn_app_with(Options {
        tune: |settings| {
            table(settings, ACME_SSO).allowed_email_domains = vec!["acme.com".into()];
        },
        ..Options::standard()
    })
    .await;
    let consumer = SimUser::new("2000002", "bob-acme").with_email("Bob@ACME.com", true);
    app.sim.add_user(acme_member());
    app.sim.add_user(consumer.clone());
    let member = app.login_at("acme-sso", "2000001").await;
    assert_eq!(member["is_new_user"], true);
    let outsider = app.login_response_at("acme-sso", "583231").await;
    assert_problem(outsider, 403, "EmailDomainNotAllowed").await;

    let path = "/auth/oauth/acme-sso/id-token";
    let body = app.native_body(Provider::StandardOidc, &consumer);
    let signed_up = app.post(path, &body, None).await;
    assert_eq!(signed_up.status(), StatusCode::OK, "case is ignored");
    let body = app.native_body(Provider::StandardOidc, &grace());
    let refused = app.post(path, &body, None).await;
    assert_problem(refused, 403, "EmailDomainNotAllowed").await;
    app.stop().await;
}

#[tokio::test]
async fn password_sign_up_turned_off_refuses_registration_and_keeps_password_logins() {
    let mut app = spawn_app().await;
    app.register("pat@example.com").await;
    app.restart_with(|settings| settings.signup.password = false)
        .await;
    let body = json!({"email": "sam@example.com", "password": PASSWORD});
    let refused = app.post("/auth/register", &body, None).await;
    assert_problem(refused, 403, "SignupNotAllowed").await;
    let login = json!({"email": "pat@example.com", "password": PASSWORD});
    let pat = app.post("/auth/login", &login, None).await;
    assert_eq!(pat.status(), StatusCode::OK, "existing users log in");
    let provider = app.login("583231").await;
    assert_eq!(provider["is_new_user"], true, "provider sign-up is its own");

    // Nothing of the refused registration was kept: the address is free.
    app.restart_with(|settings| settings.signup.password = true)
        .await;
    app.register("sam@example.com").await;
    app.stop().await;
}

#[tokio::test]
async fn the_openapi_document_names_the_sign_up_refusals() {
    let app = spawn_app().await;
    let document = app.get_json("/openapi.json", None).await;
    let forbidden = |path: &str| {
        document["paths"][path]["post"]["responses"]["403"]["description"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} documents a 403"))
            .to_owned()
    };
    for path in [
        "/auth/oauth/{provider}/callback",
        "/auth/oauth/{provider}/id-token",
    ] {
        let described = forbidden(path);
        assert!(described.contains("SignupNotAllowed"), "{path}");
        assert!(described.contains("EmailDomainNotAllowed"), "{path}");
    }
    assert!(forbidden("/auth/register").contains("SignupNotAllowed"));
    app.stop().await;
}
