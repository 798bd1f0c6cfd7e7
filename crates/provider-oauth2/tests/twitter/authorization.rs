//! The authorization URL and the token request, as the simulated X receives them.

use crate::support::*;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::IdentityProvider;
use social_login_provider_core::ProviderConfigError;
use social_login_provider_oauth2::TwitterProvider;
use social_login_simulator::{ClientAuthKind, Endpoint};
use std::time::Duration;

#[tokio::test]
async fn the_url_carries_client_redirect_default_scopes_state_and_an_s256_challenge() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    assert_eq!(provider.key(), ProviderKey::Twitter);
    let url = provider.authorization_url(&request(VERIFIER));
    assert!(url.starts_with(&sim.twitter().authorization), "{url}");
    let query = query_of(&url);
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "tweet.read users.read offline.access");
    assert_eq!(query["state"], STATE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(VERIFIER) && !url.contains(CLIENT_SECRET));
}

#[tokio::test]
async fn a_confidential_client_authenticates_with_http_basic_only() {
    let sim = simulator(ada()).await;
    sign_in_at(&provider(&sim)).await.unwrap();
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(token.outcome, "ok");
    assert_eq!(token.client_auth, Some(ClientAuthKind::Basic));
    assert_eq!(token.authorization_scheme.as_deref(), Some("Basic"));
    assert!(token.code_verifier_present);
}

#[tokio::test]
async fn a_public_client_without_secret_sends_its_client_id_in_the_body() {
    let sim = start(config(ada(), "")).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("");
    let provider = provider_with(settings, Duration::from_secs(10));
    sign_in_at(&provider).await.unwrap();
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(token.client_auth, Some(ClientAuthKind::None));
    assert_eq!(token.client_id.as_deref(), Some(CLIENT_ID));
}

#[tokio::test]
async fn pkce_cannot_be_turned_off_because_x_requires_it() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.pkce = false;
    let provider = provider_with(settings, Duration::from_secs(10));
    let query = query_of(&provider.authorization_url(&request(VERIFIER)));
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(sign_in_at(&provider).await.is_ok());
}

#[tokio::test]
async fn an_invalid_user_endpoint_is_refused_naming_its_field() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.endpoints.userinfo = Some("not a url".into());
    let error = TwitterProvider::new(settings, reqwest::Client::new()).unwrap_err();
    assert_eq!(
        error,
        ProviderConfigError::InvalidUrl {
            field: "endpoints.userinfo"
        }
    );
}

#[tokio::test]
async fn the_adapter_debug_output_hides_the_secret() {
    let sim = simulator(ada()).await;
    let printed = format!("{:?}", provider(&sim));
    assert!(!printed.contains(CLIENT_SECRET), "{printed}");
}
