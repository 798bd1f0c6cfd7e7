//! A simulator with one Discord app and an adapter pointed at it.

pub use crate::flow::*;
use social_login_domain::SecretText;
use social_login_ports::{ProviderError, ProviderLogin};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oauth2::DiscordProvider;
use social_login_simulator::{
    DiscordSeed, Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::time::Duration;

pub const CLIENT_ID: &str = "1234567890123456789";
pub const CLIENT_SECRET: &str = "discord-client-secret-value";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/discord";

/// A migrated user (discriminator "0") with a display name, a verified email, no avatar.
pub fn ada() -> SimUser {
    SimUser::new("1047859021147058176", "ada.lovelace")
        .with_name("Ada")
        .with_email("ada@example.com", true)
        .with_discord(DiscordSeed::migrated())
}

pub async fn simulator(user: SimUser) -> SimulatorHandle {
    let config = SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Discord,
            CLIENT_ID,
            CLIENT_SECRET,
            CALLBACK,
        ))
        .with_user(user);
    Simulator::start(config).await.expect("simulator starts")
}

pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.discord();
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

pub fn provider_with(settings: ProviderSettings, timeout: Duration) -> DiscordProvider {
    DiscordProvider::new(settings, build_http_client(timeout).unwrap()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> DiscordProvider {
    provider_with(settings(sim), Duration::from_secs(10))
}

pub async fn sign_in_at(provider: &DiscordProvider) -> Result<ProviderLogin, ProviderError> {
    sign_in(provider, CALLBACK).await
}

/// The identity a fresh simulator seeded with `user` signs in as.
pub async fn identity_of(user: SimUser) -> social_login_domain::ProviderIdentity {
    let sim = simulator(user).await;
    sign_in_at(&provider(&sim)).await.unwrap().identity
}
