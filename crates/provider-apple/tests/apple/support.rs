//! A simulator with one Apple Services ID and the fixture team, an adapter pointed at it
//! with a movable clock, and a browser stand-in that "submits" Apple's form_post page.

use serde_json::Value;
use social_login_domain::{ProviderKey, Purpose, RedeemedState, SecretText, StateToken};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, Clock, IdentityProvider, PostBody, ProviderError,
    ProviderLogin,
};
use social_login_provider_apple::AppleProvider;
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, AppleFormPost, AppleTeam, Endpoint,
    Provider, RegisteredClient, RequestRecord, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use time::OffsetDateTime;

pub const CLIENT_ID: &str = "com.example.web";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/apple";
pub const STATE: &str = "state-0123456789abcdef";
pub const VERIFIER: &str = "verifier-0123456789-0123456789-0123456789-abc";
pub const NONCE: &str = "nonce-0S6_WzA2Mj-0123456789";
pub const SUB: &str = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234";
/// A P-256 key no simulated team owns (test fixture).
pub const OTHER_KEY_PEM: &str = include_str!("other_key.p8");

/// A clock tests move by hand, starting at a chosen offset from the real time.
#[derive(Debug)]
pub struct ManualClock(Mutex<OffsetDateTime>);

impl ManualClock {
    pub fn starting_at(offset: time::Duration) -> Arc<Self> {
        Arc::new(Self(Mutex::new(OffsetDateTime::now_utc() + offset)))
    }

    pub fn advance(&self, by: time::Duration) {
        *self.0.lock().unwrap() += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap()
    }
}

pub fn ada() -> SimUser {
    SimUser::new(SUB, "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

pub fn config(identity: SimUser) -> SimulatorConfig {
    SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Apple,
            CLIENT_ID,
            "",
            CALLBACK,
        ))
        .with_apple_team(AppleTeam::test_fixture())
        .with_user(identity)
}

pub async fn start(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}

pub async fn simulator(identity: SimUser) -> SimulatorHandle {
    start(config(identity)).await
}

/// Settings pointing the endpoints at the simulator. The issuer stays Apple's default:
/// the simulator signs with Apple's real `iss`.
pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.apple();
    ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new(""),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            jwks: Some(endpoints.jwks),
            ..EndpointOverrides::default()
        },
    }
}

/// The team's signing setup; tests vary one part to get a refused secret.
#[derive(Debug, Clone)]
pub struct Signing {
    pub team_id: &'static str,
    pub key_id: &'static str,
    pub pem: &'static str,
}

pub const FIXTURE_SIGNING: Signing = Signing {
    team_id: APPLE_TEST_TEAM_ID,
    key_id: APPLE_TEST_KEY_ID,
    pem: APPLE_TEST_KEY_PEM,
};

pub fn build(
    settings: ProviderSettings,
    signing: Signing,
    clock: Arc<dyn Clock>,
    timeout: Duration,
) -> AppleProvider {
    let http = build_http_client(timeout).unwrap();
    AppleProvider::with_clock(
        settings,
        signing.team_id.into(),
        signing.key_id.into(),
        SecretText::new(signing.pem),
        http,
        clock,
    )
    .unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> AppleProvider {
    build(
        settings(sim),
        FIXTURE_SIGNING,
        ManualClock::starting_at(time::Duration::ZERO),
        Duration::from_secs(10),
    )
}

pub fn request(nonce: &str) -> AuthorizationRequest {
    AuthorizationRequest {
        state: StateToken::parse(STATE).unwrap(),
        pkce_verifier: SecretText::new(VERIFIER),
        nonce: SecretText::new(nonce),
    }
}

/// Follows the authorization URL like a browser and reads the page that would post back.
pub async fn visit(sim: &SimulatorHandle, url: &str) -> AppleFormPost {
    let response = reqwest::get(url).await.unwrap();
    assert_eq!(
        response.status(),
        200,
        "Apple answers an auto-submitting page"
    );
    let form = sim
        .apple_form_post(&response.text().await.unwrap())
        .unwrap();
    assert_eq!(form.action, CALLBACK);
    assert_eq!(form.field("state"), Some(STATE));
    form
}

/// The `post_body` a client sends: the form's fields as one JSON object, `user` (when there)
/// the JSON string Apple posts.
pub fn post_body(form: &AppleFormPost) -> PostBody {
    let fields: serde_json::Map<String, Value> = form
        .fields
        .iter()
        .map(|(name, value)| (name.clone(), Value::from(value.as_str())))
        .collect();
    PostBody::new(Value::Object(fields).to_string())
}

pub async fn complete(
    provider: &AppleProvider,
    code: &str,
    verifier: &str,
    nonce: &str,
    post_body: Option<PostBody>,
) -> Result<ProviderLogin, ProviderError> {
    provider
        .complete(CallbackInput {
            code: SecretText::new(code),
            redeemed: RedeemedState {
                provider: ProviderKey::Apple,
                purpose: Purpose::Login,
                pkce_verifier: SecretText::new(verifier),
                nonce: SecretText::new(nonce),
            },
            post_body,
        })
        .await
}

/// The authorization's form post, for `nonce`.
pub async fn authorize(
    sim: &SimulatorHandle,
    provider: &AppleProvider,
    nonce: &str,
) -> AppleFormPost {
    visit(sim, &provider.authorization_url(&request(nonce))).await
}

/// The whole sign-in, passing the form through as `post_body` as the HTTP layer does.
pub async fn sign_in(
    sim: &SimulatorHandle,
    provider: &AppleProvider,
) -> Result<ProviderLogin, ProviderError> {
    let form = authorize(sim, provider, NONCE).await;
    let code = form.field("code").unwrap();
    complete(provider, code, VERIFIER, NONCE, Some(post_body(&form))).await
}

/// The token requests the simulator received, oldest first.
pub fn token_requests(sim: &SimulatorHandle) -> Vec<RequestRecord> {
    sim.requests()
        .into_iter()
        .filter(|r| r.provider == Some(Provider::Apple) && r.endpoint == Some(Endpoint::Token))
        .collect()
}

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

/// No JWT (`eyJ`), key material, nonce or verifier in a failure message.
pub fn assert_no_secret(message: &str) {
    for secret in ["eyJ", "PRIVATE KEY", "MIG", NONCE, VERIFIER] {
        assert!(!message.contains(secret), "{message}");
    }
}
