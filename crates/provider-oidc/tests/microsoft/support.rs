//! A simulator with one Microsoft app and its people, an adapter pointed at it, and a
//! browser stand-in.

use social_login_domain::{ProviderKey, Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdentityProvider, ProviderError, ProviderLogin,
};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oidc::MicrosoftProvider;
use social_login_simulator::{
    MicrosoftAccount, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle,
};
use std::collections::HashMap;
use std::time::Duration;

pub const CLIENT_ID: &str = "3f2a9c1e-7b4d-4e8a-9c6f-1d2e3a4b5c6d";
pub const CLIENT_SECRET: &str = "Qw8~simulated.client~secret";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/microsoft";
pub const STATE: &str = "state-0123456789abcdef";
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789-abc";
pub const NONCE: &str = "nonce-0S6_WzA2Mj-0123456789";
/// A work tenant (Contoso).
pub const CONTOSO: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";

/// A personal account (the consumer tenant), with an email.
pub fn ada() -> SimUser {
    SimUser::new("ada-msa-1", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@outlook.com", true)
}

/// A Contoso account with no `email`: only its UPN as `preferred_username`.
pub fn grace() -> SimUser {
    SimUser::new("grace-7", "grace")
        .with_name("Grace Hopper")
        .with_microsoft(MicrosoftAccount::work(
            CONTOSO,
            "grace@contoso.onmicrosoft.com",
        ))
}

/// A Contoso account whose tenant administrator typed someone else's address as `email`:
/// the nOAuth attack. No `xms_edov`.
pub fn mallory() -> SimUser {
    SimUser::new("mallory-9", "mallory")
        .with_email("ceo@victim.example", true)
        .with_microsoft(MicrosoftAccount::work(
            CONTOSO,
            "mallory@contoso.onmicrosoft.com",
        ))
}

pub fn config(users: Vec<SimUser>) -> SimulatorConfig {
    users.into_iter().fold(
        SimulatorConfig::default().with_client(RegisteredClient::new(
            Provider::Microsoft,
            CLIENT_ID,
            CLIENT_SECRET,
            CALLBACK,
        )),
        SimulatorConfig::with_user,
    )
}

/// A simulator whose people are ada (the default identity), grace and mallory.
pub async fn simulator() -> SimulatorHandle {
    Simulator::start(config(vec![ada(), grace(), mallory()]))
        .await
        .expect("simulator starts")
}

/// Settings pointing every endpoint at the simulator's `common`, with its issuer template.
pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.microsoft();
    ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new(CLIENT_SECRET),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            jwks: Some(endpoints.jwks),
            issuer: Some(endpoints.issuer),
            ..EndpointOverrides::default()
        },
    }
}

pub fn provider_with(settings: ProviderSettings, timeout: Duration) -> MicrosoftProvider {
    let http = build_http_client(timeout).unwrap();
    MicrosoftProvider::new(settings, http).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> MicrosoftProvider {
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

/// Follows the authorization URL like a browser approving as `login`, up to the callback;
/// returns the code.
pub async fn authorize_as(provider: &MicrosoftProvider, login: &str, nonce: &str) -> String {
    let url = format!(
        "{}&sim_user={login}",
        provider.authorization_url(&request(nonce))
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
    provider: &MicrosoftProvider,
    code: &str,
    verifier: &str,
    nonce: &str,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: ProviderKey::Microsoft,
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(verifier),
                nonce: SecretText::new(nonce),
            },
            post_body: None,
        })
        .await
}

/// The whole sign-in as `login`, with the same verifier and nonce on both sides.
pub async fn sign_in_as(
    provider: &MicrosoftProvider,
    login: &str,
) -> Result<ProviderLogin, ProviderError> {
    let code = authorize_as(provider, login, NONCE).await;
    complete(provider, &code, VERIFIER, NONCE).await
}

pub async fn sign_in(provider: &MicrosoftProvider) -> Result<ProviderLogin, ProviderError> {
    sign_in_as(provider, "ada").await
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

/// No access token (`EwA`), JWT (`eyJ`), secret, nonce or verifier in a failure message.
pub fn assert_no_secret(message: &str) {
    for secret in ["EwA", "eyJ", CLIENT_SECRET, NONCE, VERIFIER, "AADSTS"] {
        assert!(!message.contains(secret), "{message}");
    }
}

/// The email of an identity, as text.
pub fn email(login: &ProviderLogin) -> Option<&str> {
    login.identity.email.as_ref().map(|e| e.as_str())
}
