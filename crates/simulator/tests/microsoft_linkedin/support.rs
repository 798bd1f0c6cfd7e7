//! A simulator with one Microsoft app, one LinkedIn app and their people, and a client.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use social_login_simulator::{
    MicrosoftAccount, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle,
};
use std::collections::HashMap;
use std::time::Duration;

pub const MS_CLIENT: &str = "3f2a9c1e-7b4d-4e8a-9c6f-1d2e3a4b5c6d";
pub const MS_OTHER_CLIENT: &str = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
pub const MS_SECRET: &str = "ms-sim-secret";
pub const MS_CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/microsoft";
pub const LI_CLIENT: &str = "78abcd12efgh34";
pub const LI_SECRET: &str = "li-sim-secret";
pub const LI_CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/linkedin";
pub const CONTOSO: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";
pub const NONCE: &str = "nonce-0123456789";
// RFC 7636 appendix B.
pub const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
pub const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

pub fn ada() -> SimUser {
    SimUser::new("Qx81mZ_a2", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@outlook.com", true)
}

pub fn grace() -> SimUser {
    SimUser::new("grace-7", "grace")
        .with_name("Grace Hopper")
        .with_microsoft(MicrosoftAccount::work(CONTOSO, "grace@contoso.com").with_xms_edov("1"))
}

pub async fn start() -> SimulatorHandle {
    let config = SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Microsoft,
            MS_CLIENT,
            MS_SECRET,
            MS_CALLBACK,
        ))
        .with_client(RegisteredClient::new(
            Provider::Microsoft,
            MS_OTHER_CLIENT,
            MS_SECRET,
            MS_CALLBACK,
        ))
        .with_client(RegisteredClient::new(
            Provider::Linkedin,
            LI_CLIENT,
            LI_SECRET,
            LI_CALLBACK,
        ))
        .with_user(ada())
        .with_user(grace());
    Simulator::start(config).await.expect("simulator starts")
}

/// A client that does not follow redirects.
pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

pub async fn get(url: &str, params: &[(&str, &str)]) -> reqwest::Response {
    http()
        .get(url::Url::parse_with_params(url, params).unwrap())
        .send()
        .await
        .unwrap()
}

/// The query of a redirect.
pub fn redirect_query(response: &reqwest::Response) -> HashMap<String, String> {
    assert_eq!(response.status(), 302, "expected a redirect");
    let location = response.headers()["location"].to_str().unwrap();
    url::Url::parse(location)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect()
}

pub async fn status_and_json(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

/// The claims of a JWT, unchecked (the adapters' tests check signatures).
pub fn claims_of(jwt: &str) -> Value {
    let payload = jwt.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}
