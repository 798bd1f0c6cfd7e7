//! A simulator with one Microsoft app, one LinkedIn app and their people, and a client.

pub use crate::support::{CHALLENGE, VERIFIER, claims_of, http, redirect_query, status_and_json};
use social_login_simulator::{
    MicrosoftAccount, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig,
    SimulatorHandle,
};

pub const MS_CLIENT: &str = "3f2a9c1e-7b4d-4e8a-9c6f-1d2e3a4b5c6d";
pub const MS_OTHER_CLIENT: &str = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
pub const MS_SECRET: &str = "ms-sim-secret";
pub const MS_CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/microsoft";
pub const LI_CLIENT: &str = "78abcd12efgh34";
pub const LI_SECRET: &str = "li-sim-secret";
pub const LI_CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/linkedin";
pub const CONTOSO: &str = "72f988bf-86f1-41af-91ab-2d7cd011db47";
pub const NONCE: &str = "nonce-0123456789";

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

pub async fn get(url: &str, params: &[(&str, &str)]) -> reqwest::Response {
    http()
        .get(url::Url::parse_with_params(url, params).unwrap())
        .send()
        .await
        .unwrap()
}
