//! Successful Google sign-ins: the request sent, and how the answers become the identity.

use crate::support::*;
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_simulator::{ClientAuthKind, Endpoint, IdTokenFault, Provider, SimUser};

#[tokio::test]
async fn a_sign_in_maps_the_verified_id_token_to_the_identity() {
    let sim = simulator(ada()).await;
    let login = sign_in(&provider(&sim)).await.unwrap();
    let identity = login.identity;
    assert_eq!(identity.provider, ProviderKey::Google);
    assert_eq!(identity.subject.as_str(), "110248495921238986420");
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    assert!(identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(
        identity.avatar_url.as_deref(),
        Some("https://lh3.googleusercontent.com/a/ada=s96-c")
    );
    assert!(login.tokens.access_token.expose().starts_with("ya29."));
    assert_eq!(login.tokens.refresh_token, None);
}

#[tokio::test]
async fn the_authorization_url_asks_for_openid_with_pkce_and_a_nonce() {
    let sim = simulator(ada()).await;
    let url = provider(&sim).authorization_url(&request(VERIFIER, NONCE));
    assert!(url.starts_with(&sim.google().authorization), "{url}");
    let query = query_of(&url);
    assert_eq!(query["scope"], "openid email profile");
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["nonce"], NONCE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(VERIFIER) && !url.contains(CLIENT_SECRET));
}

#[tokio::test]
async fn the_exchange_and_userinfo_calls_authenticate_as_google_expects() {
    let sim = simulator(ada()).await;
    sign_in(&provider(&sim)).await.unwrap();
    let records = sim.requests();
    let find = |endpoint| {
        records
            .iter()
            .find(|r| r.provider == Some(Provider::Google) && r.endpoint == Some(endpoint))
            .unwrap()
    };
    assert!(find(Endpoint::Authorize).nonce_present);
    let token = find(Endpoint::Token);
    assert_eq!(token.outcome, "ok");
    assert_eq!(token.client_auth, Some(ClientAuthKind::Body));
    assert!(token.code_verifier_present);
    let userinfo = find(Endpoint::Userinfo);
    assert_eq!(userinfo.outcome, "ok");
    assert_eq!(userinfo.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn a_returning_user_gets_the_same_subject() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let first = sign_in(&provider).await.unwrap().identity;
    let second = sign_in(&provider).await.unwrap().identity;
    assert_eq!(first.subject, second.subject);
    assert_eq!(
        sim.issued_access_tokens().len(),
        2,
        "each sign-in gets its own access token"
    );
}

#[tokio::test]
async fn an_unverified_email_is_kept_but_not_vouched_for() {
    let user = SimUser::new("42", "grace").with_email("grace@example.com", false);
    let sim = simulator(user).await;
    let identity = sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("grace@example.com")
    );
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name, None);
}

#[tokio::test]
async fn email_verified_sent_as_a_string_is_understood() {
    let sim = simulator(ada()).await;
    sim.set_id_token_fault(Provider::Google, IdTokenFault::StringBooleans);
    let identity = sign_in(&provider(&sim)).await.unwrap().identity;
    assert!(identity.email_verified);
}

#[tokio::test]
async fn both_spellings_of_googles_issuer_are_accepted_by_default() {
    for issuer in ["https://accounts.google.com", "accounts.google.com"] {
        let sim = start(config(ada()).with_google_issuer(issuer)).await;
        let mut settings = settings(&sim);
        settings.endpoints.issuer = None;
        let provider = provider_with(settings, ManualClock::starting_now());
        assert!(sign_in(&provider).await.is_ok(), "{issuer}");
    }
}

#[tokio::test]
async fn without_the_email_scope_the_identity_has_no_email() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["openid".into(), "profile".into()]);
    let identity = sign_in(&provider_with(settings, ManualClock::starting_now()))
        .await
        .unwrap()
        .identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
}

#[tokio::test]
async fn two_sign_ins_through_two_adapter_instances_fetch_the_key_set_once() {
    let sim = simulator(ada()).await;
    let first = provider(&sim);
    let second = provider(&sim);
    sign_in(&first).await.unwrap();
    sign_in(&second).await.unwrap();
    sign_in(&first).await.unwrap();
    assert_eq!(jwks_fetches(&sim), 1);
}
