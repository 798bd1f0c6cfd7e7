//! A simulator with one LinkedIn app and its members, an adapter pointed at it, and a
//! browser stand-in.

use social_login_domain::{ProviderKey, Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderLogin,
};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oidc::LinkedinProvider;
use social_login_simulator::{
    Endpoint, Provider, RegisteredClient, RequestRecord, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle,
};
use std::collections::HashMap;
use std::time::Duration;

pub const CLIENT_ID: &str = "78abcd12efgh34";
pub const CLIENT_SECRET: &str = "WPL_AP1.simulated-client-secret";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/linkedin";
pub const STATE: &str = "state-0123456789abcdef";
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789-abc";
pub const NONCE: &str = "nonce-0S6_WzA2Mj-0123456789";
pub const PICTURE: &str =
    "https://media.licdn.com/dms/image/v2/C4E03AQ-example/profile-displayphoto-shrink_100_100/0/1";

/// A member with a verified email, a name and a picture.
pub fn ada() -> SimUser {
    SimUser::new("Qx81mZ_a2", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
        .with_avatar_url(PICTURE)
}

/// A member without an email address.
pub fn grace() -> SimUser {
    SimUser::new("Hq02bW_k7", "grace").with_name("Grace Hopper")
}

/// A simulator whose members are ada (the default identity) and grace.
pub async fn simulator() -> SimulatorHandle {
    let config = SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Linkedin,
            CLIENT_ID,
            CLIENT_SECRET,
            CALLBACK,
        ))
        .with_user(ada())
        .with_user(grace());
    Simulator::start(config).await.expect("simulator starts")
}

/// Settings pointing every endpoint, the issuer included, at the simulator.
pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.linkedin();
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

pub fn provider_with(settings: ProviderSettings, timeout: Duration) -> LinkedinProvider {
    LinkedinProvider::new(settings, build_http_client(timeout).unwrap()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> LinkedinProvider {
    provider_with(settings(sim), Duration::from_secs(10))
}

pub fn request(nonce: &str) -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse(STATE).unwrap(),
        pkce_verifier: SecretText::new(VERIFIER),
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

/// Follows the authorization URL like a browser approving as `login`; returns the code.
pub async fn authorize_as(provider: &LinkedinProvider, login: &str) -> String {
    let url = format!(
        "{}&sim_user={login}",
        provider.authorization_url(&request(NONCE))
    );
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
    let callback = query_of(location);
    assert_eq!(callback["state"], STATE);
    callback["code"].clone()
}

pub async fn complete(
    provider: &LinkedinProvider,
    code: &str,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: ProviderKey::Linkedin,
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(VERIFIER),
                nonce: SecretText::new(NONCE),
            },
            post_body: None,
        })
        .await
}

pub async fn sign_in_as(
    provider: &LinkedinProvider,
    login: &str,
) -> Result<ProviderLogin, ProviderError> {
    let code = authorize_as(provider, login).await;
    complete(provider, &code).await
}

pub async fn sign_in(provider: &LinkedinProvider) -> Result<ProviderLogin, ProviderError> {
    sign_in_as(provider, "ada").await
}

/// The first request the simulated LinkedIn's `endpoint` received.
pub fn record(sim: &SimulatorHandle, endpoint: Endpoint) -> RequestRecord {
    sim.requests()
        .into_iter()
        .find(|r| r.provider == Some(Provider::Linkedin) && r.endpoint == Some(endpoint))
        .unwrap()
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

/// No access token (`AQV`), JWT (`eyJ`), secret, nonce or verifier in a failure message.
pub fn assert_no_secret(message: &str) {
    for secret in ["AQV", "eyJ", CLIENT_SECRET, NONCE, VERIFIER] {
        assert!(!message.contains(secret), "{message}");
    }
}

pub fn email(login: &ProviderLogin) -> Option<&str> {
    login.identity.email.as_ref().map(|e| e.as_str())
}
