//! A started simulator with one Google client, and the calls its tests make.

use crate::github::support::{ada, start_with};
pub use crate::support::status_and_json as send_json;
use crate::support::{CHALLENGE, VERIFIER, http, redirect_query};
use social_login_simulator::{Provider, RegisteredClient, SimulatorConfig, SimulatorHandle};

pub const G_CLIENT_ID: &str = "123-sim.apps.googleusercontent.com";
pub const G_CLIENT_SECRET: &str = "GOCSPX-sim-secret";
pub const G_CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/google";
pub const G_NONCE: &str = "nonce-0123456789";

pub fn google_config() -> SimulatorConfig {
    SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Google,
            G_CLIENT_ID,
            G_CLIENT_SECRET,
            G_CALLBACK,
        ))
        .with_user(ada())
}

pub async fn start_google() -> SimulatorHandle {
    start_with(google_config()).await
}

/// The authorize parameters of a valid request with the RFC S256 challenge.
pub fn authorize_params(scope: &str) -> Vec<(&str, &str)> {
    vec![
        ("client_id", G_CLIENT_ID),
        ("redirect_uri", G_CALLBACK),
        ("response_type", "code"),
        ("scope", scope),
        ("state", "st"),
        ("nonce", G_NONCE),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
    ]
}

pub async fn google_authorize(sim: &SimulatorHandle, params: &[(&str, &str)]) -> reqwest::Response {
    let url = url::Url::parse_with_params(&sim.google().authorization, params).unwrap();
    http().get(url).send().await.unwrap()
}

/// A code for `ada` with the given scope (S256 challenge, nonce).
pub async fn google_code(sim: &SimulatorHandle, scope: &str) -> String {
    let response = google_authorize(sim, &authorize_params(scope)).await;
    assert_eq!(response.status(), 302);
    redirect_query(&response)["code"].clone()
}

/// The token request form for `code`, with body credentials and the RFC verifier.
pub fn token_form(code: &str) -> Vec<(&str, &str)> {
    vec![
        ("grant_type", "authorization_code"),
        ("client_id", G_CLIENT_ID),
        ("client_secret", G_CLIENT_SECRET),
        ("code", code),
        ("redirect_uri", G_CALLBACK),
        ("code_verifier", VERIFIER),
    ]
}

/// A form POST to the simulated Google's token endpoint.
pub fn form_post(sim: &SimulatorHandle, form: &[(&str, &str)]) -> reqwest::RequestBuilder {
    http().post(&sim.google().token).form(form)
}

/// `form` without the field `name`.
pub fn without<'a>(form: &[(&'a str, &'a str)], name: &str) -> Vec<(&'a str, &'a str)> {
    form.iter().copied().filter(|(k, _)| *k != name).collect()
}
