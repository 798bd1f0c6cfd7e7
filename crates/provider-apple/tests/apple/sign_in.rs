//! Successful Apple sign-ins: the request sent, the first-login name, and how the id_token
//! becomes the identity.

use crate::support::*;
use social_login_conformance::fixture::APPLE_SUB;
use social_login_conformance::{complete, query_of, request};
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_simulator::{AppleKnobs, ClaimStyle, Endpoint, SimUser};

#[tokio::test]
async fn the_first_login_carries_the_posted_name_and_the_id_token_identity() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let identity = login.identity;
    assert_eq!(identity.provider, ProviderKey::APPLE);
    assert_eq!(identity.subject.as_str(), APPLE_SUB);
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
    let sim = FX.start().await;
    let provider = provider(&sim);
    let first = FX.flow().sign_in(&provider).await.unwrap().identity;
    let form = FX.flow().authorize(&provider).await;
    assert_eq!(form.field("user"), None, "Apple posts the name only once");
    let second = complete(&provider, &form.code).await.unwrap().identity;
    assert_eq!(second.full_name, None);
    assert_eq!(second.subject, first.subject);
    assert_eq!(second.email, first.email);
}

#[tokio::test]
async fn the_code_comes_back_by_form_post_and_no_userinfo_is_called() {
    let sim = FX.start().await;
    let provider = provider(&sim);
    let url = provider.authorization_url(&request()).unwrap();
    assert_eq!(query_of(&url)["response_mode"], "form_post");
    FX.flow().sign_in(&provider).await.unwrap();
    assert!(
        sim.requests()
            .iter()
            .all(|r| r.endpoint != Some(Endpoint::Userinfo)),
        "the id_token is enough"
    );
}

#[tokio::test]
async fn email_verified_and_is_private_email_as_strings_or_booleans_both_work() {
    let sim = FX.start().await;
    let provider = provider(&sim);
    for claim_style in [ClaimStyle::Strings, ClaimStyle::Booleans] {
        sim.set_apple_knobs(AppleKnobs {
            claim_style,
            ..AppleKnobs::default()
        });
        let identity = FX.flow().sign_in(&provider).await.unwrap().identity;
        assert!(identity.email_verified, "{claim_style:?}");
    }
}

#[tokio::test]
async fn a_private_relay_email_is_stored_as_received() {
    let sim = FX.start().await;
    sim.set_apple_knobs(AppleKnobs {
        private_relay_email: true,
        ..AppleKnobs::default()
    });
    let provider = provider(&sim);
    let form = FX.flow().authorize(&provider).await;
    let posted: serde_json::Value = serde_json::from_str(form.field("user").unwrap()).unwrap();
    let relay = posted["email"].as_str().unwrap().to_owned();
    assert!(relay.ends_with("@privaterelay.appleid.com"), "{relay}");
    let identity = complete(&provider, &form.code).await.unwrap().identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some(relay.as_str())
    );
    assert!(identity.email_verified);
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_not_vouched_for() {
    let user = SimUser::new(APPLE_SUB, "grace").with_email("grace@example.edu", false);
    let sim = FX.start_as(user).await;
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("grace@example.edu")
    );
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name, None, "no name seeded, none posted");
}
