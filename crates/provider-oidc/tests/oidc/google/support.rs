//! The Google fixture and an adapter pointed at its simulator.

pub use social_login_conformance::GOOGLE as FX;
use social_login_conformance::fixture::http_client;
use social_login_provider_core::ProviderSettings;
use social_login_provider_oidc::GoogleProvider;
use social_login_simulator::{Endpoint, SimulatorHandle};

pub fn provider_with(settings: ProviderSettings) -> GoogleProvider {
    GoogleProvider::new(settings, http_client()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> GoogleProvider {
    provider_with(FX.settings(sim))
}

/// How many times the simulator served its key set.
pub fn jwks_fetches(sim: &SimulatorHandle) -> usize {
    sim.requests()
        .iter()
        .filter(|r| r.endpoint == Some(Endpoint::Jwks))
        .count()
}
