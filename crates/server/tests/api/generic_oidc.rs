//! A provider of `kind = "oidc"` from configuration (docs/providers.md): `acme-sso`, the
//! simulator's standard OpenID provider, configured by its issuer alone. Sign-in, connect,
//! disconnect with revocation, native sign-in, the userinfo subject rule, and what
//! `trust_email_verified` decides.

use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login::settings::{ProviderConfig, Settings};
use social_login::simulated::ACME_SSO;
use social_login_simulator::{Provider, SimUser, StandardKnobs};

const IOS_CLIENT: &str = "com.acme.ios";

fn acme(settings: &mut Settings) -> &mut ProviderConfig {
    settings
        .oauth_providers
        .get_mut(ACME_SSO)
        .expect("configured")
}

#[tokio::test]
async fn a_person_registers_then_logs_in_again_with_a_provider_from_configuration() {
    let app = spawn_app_with(Options::standard()).await;
    let listed = app.get_json("/auth/oauth/providers", None).await;
    assert_eq!(
        listed.as_array().unwrap()[8..],
        [
            json!({"key": "acme-sso", "display_name": "Acme SSO", "kind": "oidc", "id_token": true}),
            json!({"key": "corp", "display_name": "Corp OAuth", "kind": "oauth2", "id_token": false}),
        ],
        "after the eight, in configuration order"
    );
    let first = app.login_at("acme-sso", "583231").await;
    assert_eq!(first["is_new_user"], true);
    assert_eq!(first["user"]["email"], "ada@example.com");
    assert_eq!(
        first["user"]["email_verified"], true,
        "the operator vouches"
    );
    assert_eq!(first["user"]["full_name"], "Ada Lovelace");
    let again = app.login_at("acme-sso", "583231").await;
    assert_eq!(
        (&again["is_new_user"], &again["user"]["id"]),
        (&json!(false), &first["user"]["id"])
    );
    app.stop().await;
}

/// Both kinds: `acme-sso` here, `corp` of `kind = "oauth2"` the same way.
#[tokio::test]
async fn connecting_then_disconnecting_revokes_the_grant_at_the_provider() {
    let app = spawn_app_with(Options::standard()).await;
    let pat = token(&app.register("pat@example.com").await);
    let kinds = [
        ("acme-sso", "1000001", Provider::StandardOidc),
        ("corp", "583231", Provider::StandardOauth2),
    ];
    for (key, user, provider) in kinds {
        let linked = app.connect_response_at(key, &pat, user).await;
        assert_eq!(linked.status(), StatusCode::CREATED, "{key}");
        let accounts = app.accounts(&pat).await;
        assert_eq!(accounts[0]["provider"], key);
        let unlinked = app.disconnect(key, &pat).await;
        assert_eq!(unlinked.status(), StatusCode::NO_CONTENT, "{key}");
        let last = app.sim.revocations().pop().expect("a revocation");
        // The refresh token where there is one (it ends the grant), else the access token.
        assert_eq!(last.provider, provider);
        assert!(last.kind.is_some(), "a live token of this client");
    }
    assert_eq!(app.sim.revocations().len(), 2);
    app.stop().await;
}

#[tokio::test]
async fn an_app_signs_in_once_with_an_id_token_for_another_client_id_and_its_hashed_nonce() {
    let app = spawn_app_with(Options {
        tune: |settings| acme(settings).client_ids = vec![IOS_CLIENT.into()],
        ..Options::standard()
    })
    .await;
    let raw_nonce = "acme-native-nonce-1";
    let hashed = hex::encode(Sha256::digest(raw_nonce.as_bytes()));
    let mint = |user: SimUser| {
        app.sim
            .mint_id_token(Provider::StandardOidc, &user, IOS_CLIENT, Some(&hashed))
    };
    let body = json!({"id_token": mint(ada()), "nonce": raw_nonce});
    let path = "/auth/oauth/acme-sso/id-token";
    let signed_in = ok_json(app.post(path, &body, None).await).await;
    assert_eq!(signed_in["user"]["email"], "ada@example.com");
    // The same token again: single use, as for any provider.
    let replay = app.post(path, &body, None).await;
    assert_problem(replay, 502, "OAuthUserInfoFailed").await;
    // The raw nonce is what the app sends; the hash itself does not match.
    let wrong = json!({"id_token": mint(grace()), "nonce": hashed});
    let hash_sent = app.post(path, &wrong, None).await;
    assert_problem(hash_sent, 502, "OAuthUserInfoFailed").await;
    app.stop().await;
}

#[tokio::test]
async fn a_userinfo_answer_about_another_subject_is_a_bad_gateway() {
    let app = spawn_app_with(Options::standard()).await;
    app.sim.set_standard_knobs(StandardKnobs {
        userinfo_sub: Some("someone-else".into()),
        ..StandardKnobs::default()
    });
    let response = app.login_response_at("acme-sso", "583231").await;
    assert_problem(response, 502, "OAuthUserInfoFailed").await;
    app.stop().await;
}

#[tokio::test]
async fn a_document_issuer_with_a_trailing_slash_accepts_tokens_without_it() {
    let app = spawn_app_with(Options {
        with_simulator: |settings, sim| {
            with_standard_providers(settings, sim);
            let announced = format!("{}/oidc/", sim.base_url());
            sim.set_standard_knobs(StandardKnobs {
                announced_issuer: Some(announced),
                ..StandardKnobs::default()
            });
        },
        ..Options::default()
    })
    .await;
    // The document says `…/oidc/`, the tokens `…/oidc`: the same issuer.
    let login = app.login_at("acme-sso", "583231").await;
    assert_eq!(login["user"]["email"], "ada@example.com");
    app.stop().await;
}

/// Ada's address held, verified, by her Google sign-in; then Ada signs in with Acme SSO,
/// whose `trust_email_verified` is `trust`, with `auto_link_by_email` on.
async fn ada_held_then_acme(trust: bool) -> (TestApp, Value, reqwest::Response) {
    let tune: fn(&mut Settings) = match trust {
        true => |_| {},
        false => |settings| acme(settings).trust_email_verified = Some(false),
    };
    let app = spawn_app_with(Options {
        auto_link_by_email: true,
        tune,
        ..Options::standard()
    })
    .await;
    let held = app.login_at("google", "583231").await;
    let response = app.login_response_at("acme-sso", "583231").await;
    (app, held, response)
}

#[tokio::test]
async fn an_email_nobody_vouched_for_is_unverified_and_never_claims_a_held_address() {
    let (app, _, response) = ada_held_then_acme(false).await;
    assert_problem(response, 409, "EmailAlreadyRegistered").await;
    let grace = app.login_at("acme-sso", "1000001").await;
    assert_eq!(grace["user"]["email"], "grace@example.com");
    assert_eq!(grace["user"]["email_verified"], false);
    app.stop().await;
}

#[tokio::test]
async fn a_vouched_for_verified_email_links_to_the_account_that_holds_it() {
    let (app, held, response) = ada_held_then_acme(true).await;
    assert_eq!(response.status(), StatusCode::OK);
    let login: Value = response.json().await.unwrap();
    assert_returning(&login, &held);
    let accounts = app.accounts(&token(&login)).await;
    assert_eq!(accounts[1]["provider"], "acme-sso", "{accounts}");
    app.stop().await;
}

/// OpenID RP conformance `rp-key-rotation-op-sign-key`: the provider starts signing with a
/// new key between two logins a second apart; the second login follows it at once.
#[tokio::test]
async fn a_provider_that_rotates_its_signing_key_between_two_logins_a_second_apart_signs_both_in() {
    let app = spawn_app_with(Options::standard()).await;
    let providers = [("acme-sso", "583231"), ("google", "1000001")];
    let mut firsts = Vec::new();
    for (key, user) in providers {
        firsts.push(app.login_at(key, user).await);
    }
    app.sim.rotate_signing_key();
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    for ((key, user), first) in providers.into_iter().zip(firsts) {
        let again = app.login_response_at(key, user).await;
        assert_eq!(again.status(), StatusCode::OK, "{key}");
        let again: Value = again.json().await.unwrap();
        assert_eq!(again["user"]["id"], first["user"]["id"], "{key}");
    }
    app.stop().await;
}

#[tokio::test]
async fn its_userinfo_says_whether_a_relayed_401_ends_a_grant_without_a_refresh_token() {
    let app = spawn_app_with(Options {
        with_simulator: |settings, sim| {
            with_standard_providers(settings, sim);
            acme(settings).relay_base_urls = Some(vec![sim.api_base(Provider::StandardOidc)]);
        },
        tune: |settings| settings.relay.enabled = true,
        ..Options::default()
    })
    .await;
    // No `offline_access` asked for: the grant has no refresh token.
    let (_, bearer) = app.pat_linked("acme-sso").await;
    let relay = |path: &'static str| {
        let url = app.url(&format!("/relay/acme-sso/{path}"));
        app.http.get(url).bearer_auth(&bearer).send()
    };
    let one_endpoint = relay("status/401").await.unwrap();
    assert_eq!(
        one_endpoint.status(),
        StatusCode::UNAUTHORIZED,
        "passed back"
    );
    assert_eq!(relay("me").await.unwrap().status(), StatusCode::OK);
    app.sim.expire_access_tokens();
    let dead = relay("me").await.unwrap();
    assert_problem(dead, 409, "ProviderReauthorizationRequired").await;
    app.stop().await;
}
