//! A simulator with one Facebook app and an adapter pointed at it.

pub use crate::flow::*;
use social_login_domain::{ProviderIdentity, SecretText};
use social_login_ports::{ProviderError, ProviderLogin};
use social_login_provider_core::{EndpointOverrides, ProviderSettings, build_http_client};
use social_login_provider_oauth2::FacebookProvider;
use social_login_simulator::{
    Provider, RegisteredClient, SimUser, Simulator, SimulatorConfig, SimulatorHandle,
};
use std::time::Duration;

pub const APP_ID: &str = "1234567890123456";
pub const APP_SECRET: &str = "facebook-app-secret-value";
pub const CALLBACK: &str = "http://127.0.0.1:4000/auth/callback/facebook";

pub fn ada() -> SimUser {
    SimUser::new("10229876543210987", "ada")
        .with_name("Ada Lovelace")
        .with_email("ada@example.com", true)
        .with_avatar_url(
            "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10229876543210987",
        )
}

pub async fn simulator(user: SimUser) -> SimulatorHandle {
    let config = SimulatorConfig::default()
        .with_client(RegisteredClient::new(
            Provider::Facebook,
            APP_ID,
            APP_SECRET,
            CALLBACK,
        ))
        .with_user(user);
    Simulator::start(config).await.expect("simulator starts")
}

pub fn settings(sim: &SimulatorHandle) -> ProviderSettings {
    let endpoints = sim.facebook();
    ProviderSettings {
        client_id: APP_ID.into(),
        client_secret: SecretText::new(APP_SECRET),
        redirect_uri: CALLBACK.into(),
        scopes: None,
        pkce: true,
        endpoints: EndpointOverrides {
            authorization: Some(endpoints.authorization),
            token: Some(endpoints.token),
            userinfo: Some(endpoints.me),
            ..EndpointOverrides::default()
        },
    }
}

pub fn provider_with(settings: ProviderSettings, timeout: Duration) -> FacebookProvider {
    FacebookProvider::new(settings, build_http_client(timeout).unwrap()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> FacebookProvider {
    provider_with(settings(sim), Duration::from_secs(10))
}

pub async fn sign_in_at(provider: &FacebookProvider) -> Result<ProviderLogin, ProviderError> {
    sign_in(provider, CALLBACK).await
}

/// The identity a fresh simulator seeded with `user` signs in as.
pub async fn identity_of(user: SimUser) -> ProviderIdentity {
    let sim = simulator(user).await;
    sign_in_at(&provider(&sim)).await.unwrap().identity
}
