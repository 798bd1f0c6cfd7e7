//! The X fixture (a confidential client) and an adapter pointed at its simulator.

pub use social_login_conformance::TWITTER as FX;
use social_login_conformance::fixture::http_client;
use social_login_domain::ProviderIdentity;
use social_login_provider_core::ProviderSettings;
use social_login_provider_oauth2::TwitterProvider;
use social_login_simulator::{SimUser, SimulatorHandle};

pub fn provider_with(settings: ProviderSettings) -> TwitterProvider {
    TwitterProvider::new(settings, http_client()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> TwitterProvider {
    provider_with(FX.settings(sim))
}

/// Settings asking for the email too: the default scopes plus `users.email`.
pub fn settings_with_email(sim: &SimulatorHandle) -> ProviderSettings {
    let mut settings = FX.settings(sim);
    settings.scopes = Some(
        ["tweet.read", "users.read", "offline.access", "users.email"]
            .map(String::from)
            .to_vec(),
    );
    settings
}

/// The identity a fresh simulator seeded with `user` signs in as, asking for the email.
pub async fn identity_with_email_scope(user: SimUser) -> ProviderIdentity {
    let sim = FX.start_as(user).await;
    let provider = provider_with(settings_with_email(&sim));
    FX.flow().sign_in(&provider).await.unwrap().identity
}
