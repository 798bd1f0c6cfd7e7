//! A started simulator with one GitHub app and one user, and a client to talk to it.

pub use crate::support::{CHALLENGE, VERIFIER, http, location, redirect_query};
use social_login_simulator::{
    Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::collections::HashMap;

pub const CLIENT_ID: &str = "sim-client";
pub const CLIENT_SECRET: &str = "sim-secret";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/github";

pub fn ada() -> SimUser {
    SimUser::new("583231", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
}

pub fn config() -> SimulatorConfig {
    SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Github,
            CLIENT_ID,
            CLIENT_SECRET,
            CALLBACK,
        ))
        .with_user(ada())
}

pub async fn start() -> SimulatorHandle {
    start_with(config()).await
}

pub async fn start_with(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}

/// Sends an authorize request with `params` and returns the redirect's query (status 302).
pub async fn authorize(sim: &SimulatorHandle, params: &[(&str, &str)]) -> HashMap<String, String> {
    let response = authorize_response(sim, params).await;
    assert_eq!(response.status(), 302, "authorize should redirect");
    redirect_query(&response)
}

pub async fn authorize_response(
    sim: &SimulatorHandle,
    params: &[(&str, &str)],
) -> reqwest::Response {
    let url = url::Url::parse_with_params(&sim.github().authorization, params).unwrap();
    http().get(url).send().await.unwrap()
}

/// A code for `ada`, issued with the RFC challenge.
pub async fn code_with_pkce(sim: &SimulatorHandle) -> String {
    let query = authorize(
        sim,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", CALLBACK),
            ("scope", "read:user user:email"),
            ("state", "st"),
            ("code_challenge", CHALLENGE),
            ("code_challenge_method", "S256"),
        ],
    )
    .await;
    query["code"].clone()
}

/// Posts a form to the token endpoint asking for JSON; returns status and JSON body.
pub async fn exchange(sim: &SimulatorHandle, form: &[(&str, &str)]) -> (u16, serde_json::Value) {
    let response = http()
        .post(&sim.github().token)
        .header("accept", "application/json")
        .form(form)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// A live access token for `ada` with the given scope.
pub async fn access_token(sim: &SimulatorHandle, scope: &str) -> String {
    let query = authorize(sim, &[("client_id", CLIENT_ID), ("scope", scope)]).await;
    let (_, body) = exchange(
        sim,
        &[
            ("client_id", CLIENT_ID),
            ("client_secret", CLIENT_SECRET),
            ("code", &query["code"]),
        ],
    )
    .await;
    body["access_token"].as_str().unwrap().to_owned()
}
