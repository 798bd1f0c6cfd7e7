//! A simulator with one X app (confidential by default) and an adapter pointed at it.

pub use crate::flow::*;
use social_login_domain::{ProviderIdentity, SecretText};
use social_login_ports::{ProviderError, ProviderLogin};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oauth2::TwitterProvider;
use social_login_simulator::{
    Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::time::Duration;

pub const CLIENT_ID: &str = "M1M5R3BMVy13QmpScXkzTUt5OE46MTpjaQ";
pub const CLIENT_SECRET: &str = "x-client-secret-value_0123456789-abcdef";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/twitter";

pub fn ada() -> SimUser {
    SimUser::new("2244994945", "ada_l")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
        .with_avatar_url(
            "https://pbs.twimg.com/profile_images/1700000000000000001/AbCdEfGh_normal.jpg",
        )
}

pub fn config(user: SimUser, secret: &str) -> SimulatorConfig {
    SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Twitter,
            CLIENT_ID,
            secret,
            CALLBACK,
        ))
        .with_user(user)
}

pub async fn simulator(user: SimUser) -> SimulatorHandle {
    start(config(user, CLIENT_SECRET)).await
}

pub async fn start(config: SimulatorConfig) -> SimulatorHandle {
    Simulator::start(config).await.expect("simulator starts")
}

pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.twitter();
    ProviderSettings {
        client_id: CLIENT_ID.into(),
        client_secret: SecretText::new(CLIENT_SECRET),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            userinfo: Some(endpoints.user),
            ..EndpointOverrides::default()
        },
    }
}

/// Settings asking for the email too: the default scopes plus `users.email`.
pub fn settings_with_email(sim: &SimulatorHandle) -> ProviderSettings {
    let mut settings = settings(sim);
    settings.scopes = Some(
        ["tweet.read", "users.read", "offline.access", "users.email"]
            .map(String::from)
            .to_vec(),
    );
    settings
}

pub fn provider_with(settings: ProviderSettings, timeout: Duration) -> TwitterProvider {
    TwitterProvider::new(settings, build_http_client(timeout).unwrap()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> TwitterProvider {
    provider_with(settings(sim), Duration::from_secs(10))
}

pub async fn sign_in_at(provider: &TwitterProvider) -> Result<ProviderLogin, ProviderError> {
    sign_in(provider, CALLBACK).await
}

/// The identity a fresh simulator seeded with `user` signs in as, asking for the email.
pub async fn identity_with_email_scope(user: SimUser) -> ProviderIdentity {
    let sim = simulator(user).await;
    let provider = provider_with(settings_with_email(&sim), Duration::from_secs(10));
    sign_in_at(&provider).await.unwrap().identity
}
