//! The X fixture (a confidential client) and its provider pointed at the simulator.

use social_login_conformance::Fixture;
pub use social_login_conformance::TWITTER as FX;
use social_login_domain::ProviderIdentity;
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::{SimUser, SimulatorHandle};

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
