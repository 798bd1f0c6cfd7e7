//! The X fixture (a confidential client) and its provider pointed at the simulator.

pub use social_login_conformance::TWITTER as FX;
use social_login_conformance::{Fixture, fixture};
use social_login_domain::{ProviderIdentity, SecretText};
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::{Endpoint, RequestRecord, SimUser, SimulatorConfig, SimulatorHandle};

pub fn provider_with(settings: ProviderSettings) -> Engine {
    crate::built(&FX, settings).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
    provider_with(FX.settings(sim))
}

/// Settings asking for the email too: the default scopes plus `users.email`.
pub fn settings_with_email(fixture: &Fixture, sim: &SimulatorHandle) -> ProviderSettings {
    let mut settings = fixture.settings(sim);
    settings.scopes = Some(
        ["tweet.read", "users.read", "offline.access", "users.email"]
            .map(String::from)
            .to_vec(),
    );
    settings
}

/// The identity a fresh simulator seeded with `user` signs in as, asking for the email.
pub async fn identity_with_email_scope(user: SimUser) -> ProviderIdentity {
    crate::identity_with(&FX, user, settings_with_email).await
}

/// A simulator where X's client is public (registered without a secret), and settings
/// without one.
pub async fn public_client() -> (SimulatorHandle, ProviderSettings) {
    let config = SimulatorConfig::default()
        .with_client(FX.client(""))
        .with_user(FX.user());
    let sim = fixture::start(config).await;
    let mut settings = FX.settings(&sim);
    settings.client_secret = SecretText::new("");
    (sim, settings)
}

/// The first request the simulator's `endpoint` received.
pub fn first_request(sim: &SimulatorHandle, endpoint: Endpoint) -> RequestRecord {
    sim.requests()
        .into_iter()
        .find(|r| r.endpoint == Some(endpoint))
        .unwrap()
}
