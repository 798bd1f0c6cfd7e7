//! The authorization URL and the token request, as the simulated Discord receives them.

use crate::support::*;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::IdentityProvider;
use social_login_provider_core::ProviderConfigError;
use social_login_provider_oauth2::DiscordProvider;
use social_login_simulator::{ClientAuthKind, Endpoint};
use std::time::Duration;

#[tokio::test]
async fn the_url_carries_client_redirect_scopes_state_and_an_s256_challenge() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    assert_eq!(provider.key(), ProviderKey::Discord);
    let url = provider.authorization_url(&request(VERIFIER));
    assert!(url.starts_with(&sim.discord().authorization), "{url}");
    let query = query_of(&url);
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["scope"], "identify email");
    assert_eq!(query["state"], STATE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert!(!url.contains(VERIFIER) && !url.contains(CLIENT_SECRET));
}

#[tokio::test]
async fn the_token_request_is_a_form_with_body_credentials_and_the_verifier() {
    let sim = simulator(ada()).await;
    sign_in_at(&provider(&sim)).await.unwrap();
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert_eq!(token.outcome, "ok");
    assert_eq!(
        token.content_type.as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(token.client_auth, Some(ClientAuthKind::Body));
    assert!(token.code_verifier_present);
}

#[tokio::test]
async fn with_pkce_off_neither_challenge_nor_verifier_is_sent() {
    // Discord refuses a verifier when no challenge was sent, so both must go together.
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.pkce = false;
    let provider = provider_with(settings, Duration::from_secs(10));
    let query = query_of(&provider.authorization_url(&request(VERIFIER)));
    assert!(!query.contains_key("code_challenge"));
    assert!(sign_in_at(&provider).await.is_ok());
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert!(!token.code_verifier_present);
}

#[tokio::test]
async fn an_invalid_user_endpoint_is_refused_naming_its_field() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.endpoints.userinfo = Some("ftp://discord.example/users/@me".into());
    let error = DiscordProvider::new(settings, reqwest::Client::new()).unwrap_err();
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
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("do-not-print-me");
    let printed = format!("{:?}", provider_with(settings, Duration::from_secs(1)));
    assert!(!printed.contains("do-not-print-me"), "{printed}");
}
