//! The simulated X: PKCE mandatory, `state` at most 500 characters, HTTP Basic required of
//! confidential clients, 30-second codes, `confirmed_email` only with `users.email`.

use super::support::*;
use social_login_simulator::{
    Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::collections::HashMap;
use std::time::Duration;

const CLIENT_ID: &str = "x-client";
const SECRET: &str = "x-secret";
const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/twitter";

fn config() -> SimulatorConfig {
    let user = SimUser::new("2244994945", "ada_l")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true);
    SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Twitter,
            CLIENT_ID,
            SECRET,
            CALLBACK,
        ))
        .with_user(user)
}

async fn start_with(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.unwrap()
}

fn authorize_params<'a>(scope: &'a str, state: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("response_type", "code"),
        ("client_id", CLIENT_ID),
        ("redirect_uri", CALLBACK),
        ("scope", scope),
        ("state", state),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
    ]
}

async fn code(sim: &SimulatorHandle, scope: &str) -> String {
    let query = redirected(
        &sim.twitter().authorization,
        &authorize_params(scope, "xyz"),
    )
    .await;
    assert_eq!(query["state"], "xyz");
    query["code"].clone()
}

async fn exchange(
    sim: &SimulatorHandle,
    code: &str,
    basic: Option<(&str, &str)>,
    body_credentials: bool,
) -> (u16, serde_json::Value) {
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", CALLBACK),
        ("code_verifier", VERIFIER),
    ];
    if body_credentials {
        form.extend([("client_id", CLIENT_ID), ("client_secret", SECRET)]);
    }
    post_form(&sim.twitter().token, &form, basic).await
}

#[tokio::test]
async fn a_confidential_client_with_basic_gets_x_token_answer() {
    let sim = start_with(config()).await;
    let code = code(&sim, "tweet.read users.read offline.access").await;
    let (status, body) = exchange(&sim, &code, Some((CLIENT_ID, SECRET)), false).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token_type"], "bearer");
    assert_eq!(body["expires_in"], 7200);
    assert!(body["refresh_token"].is_string());
}

#[tokio::test]
async fn body_credentials_of_a_confidential_client_are_refused() {
    let sim = start_with(config()).await;
    let code = code(&sim, "tweet.read users.read").await;
    let (status, body) = exchange(&sim, &code, None, true).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"], "unauthorized_client");
    assert_eq!(
        body["error_description"],
        "Missing valid authorization header"
    );
}

#[tokio::test]
async fn a_request_without_pkce_is_redirected_as_an_error() {
    let sim = start_with(config()).await;
    let params: Vec<_> = authorize_params("users.read", "xyz")
        .into_iter()
        .filter(|(name, _)| !name.starts_with("code_challenge"))
        .collect();
    let query = redirected(&sim.twitter().authorization, &params).await;
    assert_eq!(query["error"], "invalid_request");
    assert_eq!(query["state"], "xyz");
}

#[tokio::test]
async fn a_state_longer_than_500_characters_is_an_error_page() {
    let sim = start_with(config()).await;
    let long = "s".repeat(501);
    let url = url::Url::parse_with_params(
        &sim.twitter().authorization,
        &authorize_params("users.read", &long),
    )
    .unwrap();
    let response = http().get(url).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert!(response.headers().get("location").is_none());
}

#[tokio::test]
async fn codes_expire_after_x_own_lifetime() {
    let sim = start_with(config().with_twitter_code_ttl(Duration::ZERO)).await;
    let code = code(&sim, "users.read").await;
    let (status, body) = exchange(&sim, &code, Some((CLIENT_ID, SECRET)), false).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_request"))
    );
}

async fn user_with(sim: &SimulatorHandle, scope: &str, fields: &str) -> (u16, serde_json::Value) {
    let code = code(sim, scope).await;
    let (_, token) = exchange(sim, &code, Some((CLIENT_ID, SECRET)), false).await;
    let url = url::Url::parse_with_params(&sim.twitter().user, &[("user.fields", fields)]).unwrap();
    get_bearer(url.as_str(), token["access_token"].as_str().unwrap()).await
}

#[tokio::test]
async fn confirmed_email_comes_only_with_the_users_email_scope() {
    let sim = start_with(config()).await;
    let (status, body) =
        user_with(&sim, "tweet.read users.read users.email", "confirmed_email").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["confirmed_email"], "ada@example.com");
    assert_eq!(body["data"]["username"], "ada_l");
    let (status, body) = user_with(&sim, "tweet.read users.read", "confirmed_email").await;
    assert_eq!(status, 200);
    let data: HashMap<String, serde_json::Value> =
        serde_json::from_value(body["data"].clone()).unwrap();
    assert!(!data.contains_key("confirmed_email"));
}

#[tokio::test]
async fn the_user_endpoint_needs_both_read_scopes() {
    let sim = start_with(config()).await;
    let (status, body) = user_with(&sim, "users.read", "").await;
    assert_eq!((status, body["status"].as_u64()), (403, Some(403)));
}
