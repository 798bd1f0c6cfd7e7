//! A provider of `kind = "oidc"` from configuration (docs/providers.md): `acme-sso`, the
//! simulator's standard OpenID provider, configured by its issuer alone. Sign-in, connect,
//! disconnect with revocation, native sign-in, the userinfo subject rule, and what
//! `trust_email_verified` decides.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login::settings::Settings;
use social_login::simulated::ACME_SSO;
use social_login_simulator::{Provider, SimulatorHandle, StandardKnobs};

const IOS_CLIENT: &str = "com.acme.ios";

fn acme(settings: &mut Settings) -> &mut social_login::settings::ProviderConfig {
    settings
        .oauth_providers
        .get_mut(ACME_SSO)
        .expect("configured")
}

fn standard() -> Options {
    Options {
        with_simulator: with_standard_providers,
        ..Options::default()
    }
}

#[tokio::test]
async fn a_person_registers_then_logs_in_again_with_a_provider_from_configuration() {
    let app = spawn_app_with(standard()).await;
    let listed: Vec<Value> = app
        .get("/auth/oauth/providers", None)
        .await
        .json()
        .await
        .unwrap();
    let last = &listed[listed.len() - 2..];
    assert_eq!(
        last,
        [
            json!({"key": "acme-sso", "display_name": "Acme SSO", "kind": "oidc", "id_token": true}),
            json!({"key": "corp", "display_name": "Corp OAuth", "kind": "oauth2", "id_token": false}),
        ],
        "after the eight, in configuration order"
    );
    let first = app.login_response_at("acme-sso", "583231").await;
    assert_eq!(first.status(), StatusCode::OK);
    let first: Value = first.json().await.unwrap();
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["user"]["email"], "ada@example.com");
    assert_eq!(
        first["user"]["email_verified"], true,
        "the operator vouches"
    );
    assert_eq!(first["user"]["full_name"], "Ada Lovelace");
    let again: Value = app
        .login_response_at("acme-sso", "583231")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["is_new_user"], false);
    assert_eq!(again["user"]["id"], first["user"]["id"]);
    app.stop().await;
}

#[tokio::test]
async fn connecting_then_disconnecting_revokes_the_grant_at_the_provider() {
    let app = spawn_app_with(standard()).await;
    let pat = token(&app.register("pat@example.com").await);
    let linked = app.connect_response_at("acme-sso", &pat, "1000001").await;
    assert_eq!(linked.status(), StatusCode::CREATED);
    let accounts: Value = app
        .get("/auth/oauth/accounts", Some(&pat))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(accounts[0]["provider"], "acme-sso");
    assert_eq!(accounts[0]["email"], "grace@example.com");

    let unlinked = app
        .delete("/auth/oauth/acme-sso/disconnect", Some(&pat))
        .await;
    assert_eq!(unlinked.status(), StatusCode::NO_CONTENT);
    let revocations = app.sim.revocations();
    assert_eq!(revocations.len(), 1, "{revocations:?}");
    assert_eq!(revocations[0].provider, Provider::StandardOidc);
    assert!(revocations[0].kind.is_some(), "a live token of this client");
    app.stop().await;
}

fn with_ios_client(settings: &mut Settings, sim: &SimulatorHandle) {
    with_standard_providers(settings, sim);
    acme(settings).client_ids = vec![IOS_CLIENT.into()];
}

#[tokio::test]
async fn an_app_signs_in_once_with_an_id_token_for_another_client_id_and_its_hashed_nonce() {
    let app = spawn_app_with(Options {
        with_simulator: with_ios_client,
        ..Options::default()
    })
    .await;
    let raw_nonce = "acme-native-nonce-1";
    let hashed = hex::encode(Sha256::digest(raw_nonce.as_bytes()));
    let id_token = app
        .sim
        .mint_id_token(Provider::StandardOidc, &ada(), IOS_CLIENT, Some(&hashed));
    let body = json!({"id_token": id_token, "nonce": raw_nonce});
    let path = "/auth/oauth/acme-sso/id-token";
    let signed_in = app.post(path, &body, None).await;
    assert_eq!(signed_in.status(), StatusCode::OK);
    let signed_in: Value = signed_in.json().await.unwrap();
    assert_eq!(signed_in["user"]["email"], "ada@example.com");
    // The same token again: single use, as for any provider.
    assert_problem(
        app.post(path, &body, None).await,
        502,
        "OAuthUserInfoFailed",
    )
    .await;
    // The raw nonce is what the app sends; the hash itself does not match.
    let other = app
        .sim
        .mint_id_token(Provider::StandardOidc, &grace(), IOS_CLIENT, Some(&hashed));
    let wrong = json!({"id_token": other, "nonce": hashed});
    assert_problem(
        app.post(path, &wrong, None).await,
        502,
        "OAuthUserInfoFailed",
    )
    .await;
    app.stop().await;
}

fn userinfo_about_someone_else(settings: &mut Settings, sim: &SimulatorHandle) {
    with_standard_providers(settings, sim);
    sim.set_standard_knobs(StandardKnobs {
        userinfo_sub: Some("someone-else".into()),
        ..StandardKnobs::default()
    });
}

#[tokio::test]
async fn a_userinfo_answer_about_another_subject_is_a_bad_gateway() {
    let app = spawn_app_with(Options {
        with_simulator: userinfo_about_someone_else,
        ..Options::default()
    })
    .await;
    let response = app.login_response_at("acme-sso", "583231").await;
    assert_problem(response, 502, "OAuthUserInfoFailed").await;
    app.stop().await;
}

fn untrusted(settings: &mut Settings, sim: &SimulatorHandle) {
    with_standard_providers(settings, sim);
    acme(settings).trust_email_verified = Some(false);
}

#[tokio::test]
async fn an_email_nobody_vouched_for_is_unverified_and_never_claims_a_held_address() {
    let app = spawn_app_with(Options {
        auto_link_by_email: true,
        with_simulator: untrusted,
        ..Options::default()
    })
    .await;
    // Ada's address is held, verified, by her Google sign-in.
    let held = app.login_response_at("google", "583231").await;
    assert_eq!(held.status(), StatusCode::OK);
    let response = app.login_response_at("acme-sso", "583231").await;
    assert_problem(response, 409, "EmailAlreadyRegistered").await;
    let grace: Value = app
        .login_response_at("acme-sso", "1000001")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(grace["user"]["email"], "grace@example.com");
    assert_eq!(grace["user"]["email_verified"], false);
    app.stop().await;
}

#[tokio::test]
async fn a_vouched_for_verified_email_links_to_the_account_that_holds_it() {
    let app = spawn_app_with(Options {
        auto_link_by_email: true,
        ..standard()
    })
    .await;
    let held = app.login_response_at("google", "583231").await;
    let registered: Value = held.json().await.unwrap();
    let response = app.login_response_at("acme-sso", "583231").await;
    assert_eq!(response.status(), StatusCode::OK);
    let login: Value = response.json().await.unwrap();
    assert_eq!(login["is_new_user"], false);
    assert_eq!(login["user"]["id"], registered["user"]["id"]);
    let accounts: Value = app
        .get("/auth/oauth/accounts", Some(&token(&login)))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(accounts[1]["provider"], "acme-sso", "{accounts}");
    app.stop().await;
}
