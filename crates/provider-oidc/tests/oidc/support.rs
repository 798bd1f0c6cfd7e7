//! A simulator with one Google client, an adapter pointed at it with a movable clock, and
//! a browser stand-in.

pub use social_login_conformance::ManualClock;
use social_login_domain::{ProviderKey, Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderLogin,
};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oidc::GoogleProvider;
use social_login_simulator::{
    Endpoint, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

pub const CLIENT_ID: &str = "1234567890-sim.apps.googleusercontent.com";
pub const CLIENT_SECRET: &str = "GOCSPX-simulated-client-secret";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/google";
pub const STATE: &str = "state-0123456789abcdef";
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789-abc";
pub const NONCE: &str = "nonce-0S6_WzA2Mj-0123456789";

pub fn ada() -> SimUser {
    SimUser::new("110248495921238986420", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
        .with_avatar_url("https://lh3.googleusercontent.com/a/ada=s96-c")
}

pub fn config(identity: SimUser) -> SimulatorConfig {
    SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Google,
            CLIENT_ID,
            CLIENT_SECRET,
            CALLBACK,
        ))
        .with_user(identity)
}

pub async fn start(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}

pub async fn simulator(identity: SimUser) -> SimulatorHandle {
    start(config(identity)).await
}

/// Settings pointing every endpoint, the issuer included, at the simulator.
pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.google();
    ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new(CLIENT_SECRET),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            userinfo: Some(endpoints.userinfo),
            jwks: Some(endpoints.jwks),
            issuer: Some(endpoints.issuer),
            ..EndpointOverrides::default()
        },
    }
}

pub fn provider_with(settings: ProviderSettings, clock: Arc<ManualClock>) -> GoogleProvider {
    let http = build_http_client(Duration::from_secs(10)).unwrap();
    GoogleProvider::with_clock(settings, http, clock).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> GoogleProvider {
    provider_with(settings(sim), ManualClock::starting_now())
}

pub fn request(verifier: &str, nonce: &str) -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse(STATE).unwrap(),
        pkce_verifier: SecretText::new(verifier),
        nonce: SecretText::new(nonce),
    }
}

pub fn query_of(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

/// Follows the authorization URL like a browser, up to the callback; returns its query.
pub async fn visit(url: &str) -> HashMap<String, String> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
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

/// The code the simulator issued for an authorization with `nonce`.
pub async fn authorize(provider: &GoogleProvider, nonce: &str) -> String {
    let callback = visit(&provider.authorization_url(&request(VERIFIER, nonce))).await;
    assert_eq!(callback["state"], STATE);
    callback["code"].clone()
}

pub async fn complete(
    provider: &GoogleProvider,
    code: &str,
    verifier: &str,
    nonce: &str,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: ProviderKey::Google,
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(verifier),
                nonce: SecretText::new(nonce),
            },
            post_body: None,
        })
        .await
}

/// The whole sign-in with the same verifier and nonce on both sides.
pub async fn sign_in(provider: &GoogleProvider) -> Result<ProviderLogin, ProviderError> {
    let code = authorize(provider, NONCE).await;
    complete(provider, &code, VERIFIER, NONCE).await
}

/// How many times the simulator served its key set.
pub fn jwks_fetches(sim: &SimulatorHandle) -> usize {
    sim.requests()
        .iter()
        .filter(|r| r.endpoint == Some(Endpoint::Jwks))
        .count()
}

/// Asserts a `UserInfo` failure that leaks no token, code or secret; returns the message.
pub fn assert_user_info(result: Result<ProviderLogin, ProviderError>) -> String {
    match result {
        Err(ProviderError::UserInfo(message)) => {
            assert_no_secret(&message);
            message
        }
        other => panic!("expected UserInfo, got {other:?}"),
    }
}

pub fn assert_code_exchange(result: Result<ProviderLogin, ProviderError>) -> String {
    match result {
        Err(ProviderError::CodeExchange(message)) => {
            assert_no_secret(&message);
            message
        }
        other => panic!("expected CodeExchange, got {other:?}"),
    }
}

/// No access token (`ya29.`), JWT (`eyJ`), secret or nonce in a failure message.
pub fn assert_no_secret(message: &str) {
    for secret in ["ya29.", "eyJ", CLIENT_SECRET, NONCE, VERIFIER] {
        assert!(!message.contains(secret), "{message}");
    }
}
