//! The API every simulated provider serves at `{prefix}/api/...` for its access tokens
//! (`me`, `echo`, `bytes`, `redirect`, `status/{code}`), and the controls that end, rotate
//! and slow the tokens behind it: what the service's relay is tested against.

mod answers;
mod controls;
mod echo;
mod me;

use crate::support::fixtures::{CALLBACK, Fixture};
use crate::support::{SimClient, http, status_and_json};
use reqwest::Method;
use serde_json::Value;
use social_login_simulator::{Provider, SimulatorHandle};

/// The built-in providers' fixtures, the standard ones left out.
pub const BUILT_IN: std::ops::Range<usize> = 0..8;

/// A client of the simulated Yandex, a preset that wants its token in the query.
pub const YANDEX: Fixture = Fixture {
    provider: Provider::simulated("yandex"),
    id: "yandex-app",
    secret: "sim-client-secret",
    callback: CALLBACK,
    scope: "login:info login:email",
    auth: crate::support::fixtures::Auth::Body,
};

/// `method` of `path` under `provider`'s API, with `token` as a Bearer token when given.
pub fn call(
    sim: &SimulatorHandle,
    provider: Provider,
    method: Method,
    path: &str,
    token: Option<&str>,
) -> reqwest::RequestBuilder {
    let request = http().request(method, format!("{}{path}", sim.api_base(provider)));
    match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    }
}

/// `GET` of `path` under `provider`'s API: the status and the JSON body.
pub async fn get(
    sim: &SimulatorHandle,
    provider: Provider,
    path: &str,
    token: Option<&str>,
) -> (u16, Value) {
    status_and_json(call(sim, provider, Method::GET, path, token)).await
}

/// The refresh grant for `refresh_token`, as `client` authenticates.
pub async fn refresh(client: &SimClient<'_>, refresh_token: &str) -> (u16, Value) {
    client.token(&client.refresh_form(refresh_token)).await
}

/// A member of a token answer that must be there.
pub fn member<'v>(answer: &'v Value, name: &str) -> &'v str {
    answer[name]
        .as_str()
        .unwrap_or_else(|| panic!("{name} in {answer}"))
}
