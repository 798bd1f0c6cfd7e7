//! Successful LinkedIn sign-ins: the request sent, and how the id_token and userinfo
//! (which disagree on types) become the identity.

use super::support::*;
use social_login_conformance::assert_tokens;
use social_login_simulator::{Endpoint, IdTokenFault, Provider, SimUser};

#[tokio::test]
async fn a_sign_in_maps_the_id_token_and_userinfo_to_the_identity() {
    let sim = simulator().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    // The id_token says `"email_verified": "true"` (a string), userinfo `true`.
    assert_eq!(login.identity, FX.seeded_identity());
    assert_tokens(&login.tokens, "AQV", false);
}

#[tokio::test]
async fn userinfo_gets_a_bearer_token_and_authorize_a_nonce_and_challenge() {
    let sim = simulator().await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let authorize = record(&sim, Endpoint::Authorize);
    assert!(authorize.nonce_present && authorize.code_challenge.is_some());
    let userinfo = record(&sim, Endpoint::Userinfo);
    assert_eq!(userinfo.outcome, "ok");
    assert_eq!(userinfo.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn a_member_without_email_signs_in_without_one() {
    let sim = simulator().await;
    let login = signed_in_as(&sim, "grace").await;
    assert_eq!(login.identity.subject.as_str(), "Hq02bW_k7");
    assert_eq!(login.identity.email, None);
    assert!(!login.identity.email_verified);
    assert_eq!(login.identity.full_name.as_deref(), Some("Grace Hopper"));
    assert_eq!(login.identity.avatar_url, None);
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_not_vouched_for() {
    let sim = simulator().await;
    sim.add_user(SimUser::new("Zz9_unverified", "zed").with_email("zed@example.com", false));
    let login = FX.flow().sign_in_as(&provider(&sim), "zed").await.unwrap();
    assert_eq!(email(&login), Some("zed@example.com"));
    assert!(!login.identity.email_verified);
}

#[tokio::test]
async fn an_id_token_without_nonce_is_accepted_as_linkedin_sends_it() {
    let sim = simulator().await;
    let provider = provider(&sim);
    // The simulated LinkedIn never echoes the nonce; removing it changes nothing.
    FX.flow().sign_in(&provider).await.unwrap();
    sim.set_id_token_fault(Provider::Linkedin, IdTokenFault::MissingNonce);
    assert!(FX.flow().sign_in(&provider).await.is_ok());
}
