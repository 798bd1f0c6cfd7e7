//! A simulator with one GitHub app, an adapter pointed at it, and a browser stand-in.

use social_login_domain::{ProviderKey, Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderLogin,
};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oauth2::GithubProvider;
use social_login_simulator::{
    Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::collections::HashMap;
use std::time::Duration;

pub const CLIENT_ID: &str = "gh-client";
pub const CLIENT_SECRET: &str = "gh-client-secret-value";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/github";
pub const STATE: &str = "state-0123456789abcdef";
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789-abc";

pub fn ada() -> SimUser {
    SimUser::new("583231", "adalovelace")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
        .with_avatar_url("https://avatars.example/u/583231")
}

pub async fn simulator(identity: SimUser) -> SimulatorHandle {
    let config = SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Github,
            CLIENT_ID,
            CLIENT_SECRET,
            CALLBACK,
        ))
        .with_user(identity);
    Simulator::start(config).await.expect("simulator starts")
}

pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.github();
    ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new(CLIENT_SECRET),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            userinfo: Some(endpoints.user),
            emails: Some(endpoints.emails),
            ..EndpointOverrides::default()
        },
    }
}

pub fn provider_with(settings: ProviderSettings, timeout: Duration) -> GithubProvider {
    GithubProvider::new(settings, build_http_client(timeout).unwrap()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> GithubProvider {
    provider_with(settings(sim), Duration::from_secs(10))
}

pub fn request(verifier: &str) -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse(STATE).unwrap(),
        pkce_verifier: SecretText::new(verifier),
        nonce: SecretText::new("unused-by-github"),
    }
}

pub fn query_of(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

/// Follows the authorization URL like a browser would, up to the callback; returns its query.
pub async fn visit(url: &str) -> HashMap<String, String> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("test-browser")
        .build()
        .unwrap();
    let response = browser.get(url).send().await.unwrap();
    assert_eq!(
        response.status(),
        302,
        "the simulator approves and redirects"
    );
    let location = response.headers()["location"].to_str().unwrap();
    assert!(location.starts_with(CALLBACK), "{location}");
    query_of(location)
}

/// The code the simulator issued for an authorization with `verifier`.
pub async fn authorize(provider: &GithubProvider, verifier: &str) -> String {
    let callback = visit(&provider.authorization_url(&request(verifier))).await;
    assert_eq!(callback["state"], STATE);
    callback["code"].clone()
}

pub async fn complete(
    provider: &GithubProvider,
    code: &str,
    verifier: &str,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: ProviderKey::Github,
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(verifier),
                nonce: SecretText::new("unused-by-github"),
            },
            post_body: None,
        })
        .await
}

/// The whole sign-in: authorize, then complete with the same verifier.
pub async fn sign_in(provider: &GithubProvider) -> Result<ProviderLogin, ProviderError> {
    let code = authorize(provider, VERIFIER).await;
    complete(provider, &code, VERIFIER).await
}

/// Asserts a code-exchange failure whose message leaks neither the code nor the secret.
pub fn assert_code_exchange(result: Result<ProviderLogin, ProviderError>, code: &str) -> String {
    match result {
        Err(ProviderError::CodeExchange(message)) => {
            assert!(
                !message.contains(code) && !message.contains(CLIENT_SECRET),
                "{message}"
            );
            message
        }
        other => panic!("expected CodeExchange, got {other:?}"),
    }
}

pub fn assert_user_info(result: Result<ProviderLogin, ProviderError>) -> String {
    match result {
        Err(ProviderError::UserInfo(message)) => {
            assert!(!message.contains("gho_"), "{message}");
            message
        }
        other => panic!("expected UserInfo, got {other:?}"),
    }
}
