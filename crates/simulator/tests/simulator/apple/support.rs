//! A started simulator with one Apple Services ID, the fixture team and one user; and the
//! calls a relying party makes to it.

pub use crate::support::{CHALLENGE, VERIFIER, http};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde_json::{Value, json};
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, AppleFormPost, AppleTeam, Provider,
    RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle, TEST_KEY_A,
};
use std::time::{SystemTime, UNIX_EPOCH};

pub const CLIENT_ID: &str = "com.example.web";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/apple";
pub const NONCE: &str = "nonce-0123456789";
pub const SUB: &str = "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234";

pub fn ada() -> SimUser {
    SimUser::new(SUB, "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

pub fn config() -> SimulatorConfig {
    SimulatorConfig::default()
        // Apple ignores the static secret: the client secret is a JWT.
        .with_client(RegisteredClient::new(
            Provider::Apple,
            CLIENT_ID,
            "",
            CALLBACK,
        ))
        .with_apple_team(AppleTeam::test_fixture())
        .with_user(ada())
}

pub async fn start_with(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}

pub async fn start() -> SimulatorHandle {
    start_with(config()).await
}

pub fn now() -> i64 {
    let elapsed = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    i64::try_from(elapsed.as_secs()).unwrap()
}

/// The parameters of a valid authorize request: `name email`, form_post, S256, nonce.
pub fn authorize_params() -> Vec<(&'static str, &'static str)> {
    vec![
        ("client_id", CLIENT_ID),
        ("redirect_uri", CALLBACK),
        ("response_type", "code"),
        ("response_mode", "form_post"),
        ("scope", "name email"),
        ("state", "st"),
        ("nonce", NONCE),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
    ]
}

/// `params` with `name` set to `value`, or removed when `None`.
pub fn with(
    params: &[(&'static str, &'static str)],
    name: &'static str,
    value: Option<&'static str>,
) -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<_> = params.iter().copied().filter(|(k, _)| *k != name).collect();
    out.extend(value.map(|v| (name, v)));
    out
}

pub async fn authorize_response(
    sim: &SimulatorHandle,
    params: &[(&str, &str)],
) -> reqwest::Response {
    let url = url::Url::parse_with_params(&sim.apple().authorization, params).unwrap();
    http().get(url).send().await.unwrap()
}

/// Authorizes with `params` and reads the auto-submitting form the answer is.
pub async fn form_post(sim: &SimulatorHandle, params: &[(&str, &str)]) -> AppleFormPost {
    let response = authorize_response(sim, params).await;
    assert_eq!(response.status(), 200, "form_post answers a page");
    let html = response.text().await.unwrap();
    sim.apple_form_post(&html).expect("the page holds a form")
}

/// A code for `ada` with the standard parameters.
pub async fn code(sim: &SimulatorHandle) -> String {
    form_post(sim, &authorize_params())
        .await
        .field("code")
        .unwrap()
        .to_owned()
}

/// A client secret with the given claims, signed ES256 by `pem` under `kid`.
pub fn secret_with(pem: &str, kid: &str, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(kid.to_owned());
    let key = EncodingKey::from_ec_pem(pem.as_bytes()).unwrap();
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

pub fn secret_claims() -> Value {
    let now = now();
    json!({"iss": APPLE_TEST_TEAM_ID, "sub": CLIENT_ID, "aud": "https://appleid.apple.com",
           "iat": now, "exp": now + 300})
}

/// A valid five-minute client secret of the fixture team.
pub fn secret() -> String {
    secret_with(APPLE_TEST_KEY_PEM, APPLE_TEST_KEY_ID, &secret_claims())
}

/// The token request for `code` with a valid secret and the RFC verifier.
pub fn token_form(code: &str, secret: &str) -> Vec<(String, String)> {
    [
        ("grant_type", "authorization_code"),
        ("client_id", CLIENT_ID),
        ("client_secret", secret),
        ("code", code),
        ("redirect_uri", CALLBACK),
        ("code_verifier", VERIFIER),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect()
}

/// Posts `form` to the token endpoint; returns status and JSON body.
pub async fn post_token(sim: &SimulatorHandle, form: &[(String, String)]) -> (u16, Value) {
    let response = http()
        .post(&sim.apple().token)
        .form(form)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// `form` with the field `name` set to `value`, or removed when `None`.
pub fn set(form: &[(String, String)], name: &str, value: Option<&str>) -> Vec<(String, String)> {
    let mut out: Vec<_> = form.iter().filter(|(k, _)| k != name).cloned().collect();
    out.extend(value.map(|v| (name.to_owned(), v.to_owned())));
    out
}

/// The claims of an id_token the simulator signed, checked against its published key.
pub fn id_token_claims(token: &str) -> Value {
    let key = DecodingKey::from_rsa_components(TEST_KEY_A.n, TEST_KEY_A.e).unwrap();
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[CLIENT_ID]);
    validation.set_issuer(&["https://appleid.apple.com"]);
    jsonwebtoken::decode::<Value>(token, &key, &validation)
        .unwrap()
        .claims
}
