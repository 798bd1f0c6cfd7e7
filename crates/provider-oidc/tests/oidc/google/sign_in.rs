//! Successful Google sign-ins: how the id_token and userinfo become the identity.

use super::support::*;
use social_login_conformance::{assert_tokens, email_of, fixture};
use social_login_simulator::{Endpoint, IdTokenFault, Provider, SimUser};

#[tokio::test]
async fn a_sign_in_maps_the_verified_id_token_to_the_identity() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    assert_eq!(login.identity, FX.seeded_identity());
    assert_tokens(&login.tokens, "ya29.", false);
}

#[tokio::test]
async fn userinfo_is_called_with_the_bearer_token() {
    let sim = FX.start().await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let userinfo = record(&sim, Endpoint::Userinfo);
    assert_eq!(userinfo.outcome, "ok");
    assert_eq!(userinfo.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_not_vouched_for() {
    let user = SimUser::new("42", "grace").with_email("grace@example.com", false);
    let sim = FX.start_as(user).await;
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(email_of(&identity), Some("grace@example.com"));
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name, None);
}

#[tokio::test]
async fn email_verified_sent_as_a_string_is_understood() {
    let sim = FX.start().await;
    sim.set_id_token_fault(Provider::Google, IdTokenFault::StringBooleans);
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert!(identity.email_verified);
}

#[tokio::test]
async fn both_spellings_of_googles_issuer_are_accepted_by_default() {
    for issuer in ["https://accounts.google.com", "accounts.google.com"] {
        let sim = fixture::start(FX.config([FX.user()]).with_google_issuer(issuer)).await;
        let mut settings = FX.settings(&sim);
        settings.endpoints.issuer = None;
        let login = FX.flow().sign_in(&provider_with(settings)).await;
        assert!(login.is_ok(), "{issuer}: {login:?}");
    }
}

#[tokio::test]
async fn two_sign_ins_through_two_adapter_instances_fetch_the_key_set_once() {
    let sim = FX.start().await;
    let first = provider(&sim);
    let second = provider(&sim);
    for adapter in [&first, &second, &first] {
        FX.flow().sign_in(adapter).await.unwrap();
    }
    assert_eq!(jwks_fetches(&sim), 1);
}
