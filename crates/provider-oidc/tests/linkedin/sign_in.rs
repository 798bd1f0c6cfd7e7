//! Successful LinkedIn sign-ins: the request sent, and how the id_token and userinfo
//! (which disagree on types) become the identity.

use crate::support::*;
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_simulator::{ClientAuthKind, Endpoint, IdTokenFault, Provider, SimUser};

#[tokio::test]
async fn a_sign_in_maps_the_id_token_and_userinfo_to_the_identity() {
    let sim = simulator().await;
    let login = sign_in(&provider(&sim)).await.unwrap();
    let identity = &login.identity;
    assert_eq!(identity.provider, ProviderKey::Linkedin);
    assert_eq!(identity.subject.as_str(), "Qx81mZ_a2");
    assert_eq!(email(&login), Some("ada@example.com"));
    // The id_token says `"email_verified": "true"` (a string), userinfo `true`.
    assert!(identity.email_verified);
    assert_eq!(identity.full_name.as_deref(), Some("Ada Lovelace"));
    assert_eq!(identity.avatar_url.as_deref(), Some(PICTURE));
    assert!(login.tokens.access_token.expose().starts_with("AQV"));
    assert_eq!(login.tokens.refresh_token, None);
}

#[tokio::test]
async fn the_authorization_url_asks_for_openid_with_pkce_and_a_nonce() {
    let sim = simulator().await;
    let url = provider(&sim).authorization_url(&request(NONCE));
    assert!(url.starts_with(&sim.linkedin().authorization), "{url}");
    let query = query_of(&url);
    assert_eq!(query["scope"], "openid email profile");
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["state"], STATE);
    assert_eq!(query["nonce"], NONCE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(VERIFIER) && !url.contains(CLIENT_SECRET));
}

#[tokio::test]
async fn the_exchange_sends_credentials_in_the_body_and_userinfo_a_bearer_token() {
    let sim = simulator().await;
    sign_in(&provider(&sim)).await.unwrap();
    let authorize = record(&sim, Endpoint::Authorize);
    assert!(authorize.nonce_present && authorize.code_challenge.is_some());
    let token = record(&sim, Endpoint::Token);
    assert_eq!(token.outcome, "ok");
    assert_eq!(token.client_auth, Some(ClientAuthKind::Body));
    assert_eq!(token.authorization_scheme, None, "never HTTP Basic");
    assert!(token.code_verifier_present);
    let userinfo = record(&sim, Endpoint::Userinfo);
    assert_eq!(userinfo.outcome, "ok");
    assert_eq!(userinfo.authorization_scheme.as_deref(), Some("Bearer"));
}

#[tokio::test]
async fn a_returning_member_gets_the_same_subject() {
    let sim = simulator().await;
    let provider = provider(&sim);
    let first = sign_in(&provider).await.unwrap().identity;
    let second = sign_in(&provider).await.unwrap().identity;
    assert_eq!(first.subject, second.subject);
    assert_eq!(sim.issued_access_tokens().len(), 2);
}

#[tokio::test]
async fn a_member_without_email_signs_in_without_one() {
    let sim = simulator().await;
    let login = sign_in_as(&provider(&sim), "grace").await.unwrap();
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
    let login = sign_in_as(&provider(&sim), "zed").await.unwrap();
    assert_eq!(email(&login), Some("zed@example.com"));
    assert!(!login.identity.email_verified);
}

#[tokio::test]
async fn without_the_email_scope_the_identity_has_no_email() {
    let sim = simulator().await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["openid".into(), "profile".into()]);
    let provider = provider_with(settings, std::time::Duration::from_secs(10));
    let login = sign_in(&provider).await.unwrap();
    assert_eq!(login.identity.email, None);
    assert!(!login.identity.email_verified);
    assert_eq!(login.identity.full_name.as_deref(), Some("Ada Lovelace"));
}

#[tokio::test]
async fn an_id_token_without_nonce_is_accepted_as_linkedin_sends_it() {
    let sim = simulator().await;
    let provider = provider(&sim);
    // The simulated LinkedIn never echoes the nonce; removing it changes nothing.
    sign_in(&provider).await.unwrap();
    sim.set_id_token_fault(Provider::Linkedin, IdTokenFault::MissingNonce);
    assert!(sign_in(&provider).await.is_ok());
}
