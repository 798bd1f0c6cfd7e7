//! Successful Apple sign-ins: the request sent, the first-login name, and how the id_token
//! becomes the identity.

use crate::support::*;
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_simulator::{AppleKnobs, ClaimStyle, ClientAuthKind, Endpoint, SimUser};
use std::collections::HashMap;

#[tokio::test]
async fn the_first_login_carries_the_posted_name_and_the_id_token_identity() {
    let sim = simulator(ada()).await;
    let login = sign_in(&sim, &provider(&sim)).await.unwrap();
    let identity = login.identity;
    assert_eq!(identity.provider, ProviderKey::Apple);
    assert_eq!(identity.subject.as_str(), SUB);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    assert!(identity.email_verified);
    assert_eq!(identity.avatar_url, None);
    assert!(!login.tokens.access_token.expose().is_empty());
    assert!(
        login.tokens.refresh_token.is_some(),
        "Apple sends a refresh token"
    );
}

#[tokio::test]
async fn a_returning_login_has_no_name_and_is_not_an_error() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let first = sign_in(&sim, &provider).await.unwrap().identity;
    let form = authorize(&sim, &provider, NONCE).await;
    assert_eq!(form.field("user"), None, "Apple posts the name only once");
    let second = complete(
        &provider,
        form.field("code").unwrap(),
        VERIFIER,
        NONCE,
        None,
    )
    .await
    .unwrap()
    .identity;
    assert_eq!(second.full_name, None);
    assert_eq!(second.subject, first.subject);
    assert_eq!(second.email, first.email);
}

#[tokio::test]
async fn the_authorization_url_asks_for_form_post_name_email_pkce_and_a_nonce() {
    let sim = simulator(ada()).await;
    let url = provider(&sim).authorization_url(&request(NONCE));
    assert!(url.starts_with(&sim.apple().authorization), "{url}");
    let query: HashMap<String, String> = url::Url::parse(&url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect();
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["response_mode"], "form_post");
    assert_eq!(query["scope"], "name email");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["state"], STATE);
    assert_eq!(query["nonce"], NONCE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(VERIFIER));
}

#[tokio::test]
async fn the_token_request_authenticates_in_the_body_with_the_verifier() {
    let sim = simulator(ada()).await;
    sign_in(&sim, &provider(&sim)).await.unwrap();
    let token = &token_requests(&sim)[0];
    assert_eq!(token.outcome, "ok");
    assert_eq!(token.client_auth, Some(ClientAuthKind::Body));
    assert_eq!(token.authorization_scheme, None, "never HTTP Basic");
    assert!(token.code_verifier_present);
    assert!(
        sim.requests()
            .iter()
            .all(|r| r.endpoint != Some(Endpoint::Userinfo))
    );
}

#[tokio::test]
async fn email_verified_and_is_private_email_as_strings_or_booleans_both_work() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    for claim_style in [ClaimStyle::Strings, ClaimStyle::Booleans] {
        sim.set_apple_knobs(AppleKnobs {
            claim_style,
            ..AppleKnobs::default()
        });
        let identity = sign_in(&sim, &provider).await.unwrap().identity;
        assert!(identity.email_verified, "{claim_style:?}");
    }
}

#[tokio::test]
async fn a_private_relay_email_is_stored_as_received() {
    let sim = simulator(ada()).await;
    sim.set_apple_knobs(AppleKnobs {
        private_relay_email: true,
        ..AppleKnobs::default()
    });
    let provider = provider(&sim);
    let form = authorize(&sim, &provider, NONCE).await;
    let posted: serde_json::Value = serde_json::from_str(form.field("user").unwrap()).unwrap();
    let relay = posted["email"].as_str().unwrap().to_owned();
    assert!(relay.ends_with("@privaterelay.appleid.com"), "{relay}");
    let identity = complete(
        &provider,
        form.field("code").unwrap(),
        VERIFIER,
        NONCE,
        None,
    )
    .await
    .unwrap()
    .identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some(relay.as_str())
    );
    assert!(identity.email_verified);
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_not_vouched_for() {
    let user = SimUser::new(SUB, "grace").with_email("grace@example.edu", false);
    let sim = simulator(user).await;
    let identity = sign_in(&sim, &provider(&sim)).await.unwrap().identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("grace@example.edu")
    );
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name, None, "no name seeded, none posted");
}

#[tokio::test]
async fn without_the_email_scope_the_identity_has_no_email() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["name".into()]);
    let provider = build(
        settings,
        FIXTURE_SIGNING,
        ManualClock::starting_at(time::Duration::ZERO),
        std::time::Duration::from_secs(10),
    );
    let identity = sign_in(&sim, &provider).await.unwrap().identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
}

#[tokio::test]
async fn with_pkce_off_no_challenge_is_sent_and_the_sign_in_works() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.pkce = false;
    let provider = build(
        settings,
        FIXTURE_SIGNING,
        ManualClock::starting_at(time::Duration::ZERO),
        std::time::Duration::from_secs(10),
    );
    assert!(
        !provider
            .authorization_url(&request(NONCE))
            .contains("code_challenge")
    );
    assert!(sign_in(&sim, &provider).await.is_ok());
    assert!(!token_requests(&sim)[0].code_verifier_present);
}
