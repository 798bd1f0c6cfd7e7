//! The authorization URL, as the simulated GitHub receives it.

use crate::support::*;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::IdentityProvider;
use social_login_provider_core::ProviderConfigError;
use social_login_provider_oauth2::GithubProvider;
use social_login_simulator::Endpoint;

#[tokio::test]
async fn the_url_carries_client_redirect_scopes_state_and_an_s256_challenge() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    assert_eq!(provider.key(), ProviderKey::Github);
    let url = provider.authorization_url(&request(VERIFIER));
    assert!(url.starts_with(&sim.github().authorization), "{url}");
    let query = query_of(&url);
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert_eq!(query["scope"], "read:user user:email");
    assert_eq!(query["state"], STATE);
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["code_challenge"].len(), 43);
    assert!(!url.contains(VERIFIER) && !url.contains(CLIENT_SECRET));

    // The simulator accepts it and verifies the challenge at the exchange.
    let code = authorize(&provider, VERIFIER).await;
    assert!(complete(&provider, &code, VERIFIER).await.is_ok());
}

#[tokio::test]
async fn with_pkce_off_no_challenge_is_sent_and_no_verifier_either() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.pkce = false;
    let provider = provider_with(settings, std::time::Duration::from_secs(10));
    let query = query_of(&provider.authorization_url(&request(VERIFIER)));
    assert!(!query.contains_key("code_challenge") && !query.contains_key("code_challenge_method"));

    assert!(sign_in(&provider).await.is_ok());
    let token = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Token))
        .unwrap();
    assert!(!token.code_verifier_present);
}

#[tokio::test]
async fn configured_scopes_replace_the_defaults() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.scopes = Some(vec!["user:email".into()]);
    let provider = provider_with(settings, std::time::Duration::from_secs(10));
    assert_eq!(
        query_of(&provider.authorization_url(&request(VERIFIER)))["scope"],
        "user:email"
    );
}

#[tokio::test]
async fn an_invalid_endpoint_is_refused_naming_its_field() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.endpoints.emails = Some("not a url".into());
    let error = GithubProvider::new(settings, reqwest::Client::new()).unwrap_err();
    assert_eq!(
        error,
        ProviderConfigError::InvalidUrl {
            field: "endpoints.emails"
        }
    );
}

#[tokio::test]
async fn the_adapter_debug_output_hides_the_secret() {
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.client_secret = SecretText::new("do-not-print-me");
    let printed = format!(
        "{:?}",
        provider_with(settings, std::time::Duration::from_secs(1))
    );
    assert!(!printed.contains("do-not-print-me"), "{printed}");
}
