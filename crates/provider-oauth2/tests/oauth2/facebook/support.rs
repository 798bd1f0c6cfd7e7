//! The Facebook fixture and an adapter pointed at its simulator.

pub use social_login_conformance::FACEBOOK as FX;
use social_login_conformance::fixture::http_client;
use social_login_domain::ProviderIdentity;
use social_login_provider_core::ProviderSettings;
use social_login_provider_oauth2::FacebookProvider;
use social_login_simulator::{SimUser, SimulatorHandle};

pub fn provider_with(settings: ProviderSettings) -> FacebookProvider {
    FacebookProvider::new(settings, http_client()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> FacebookProvider {
    provider_with(FX.settings(sim))
}

/// The identity a fresh simulator seeded with `user` signs in as.
pub async fn identity_of(user: SimUser) -> ProviderIdentity {
    let sim = FX.start_as(user).await;
    FX.flow().sign_in(&provider(&sim)).await.unwrap().identity
}
