//! The Google fixture and an provider pointed at its simulator.

pub use social_login_conformance::GOOGLE as FX;
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::{Endpoint, Provider, RequestRecord, SimulatorHandle};

pub fn provider_with(settings: ProviderSettings) -> Engine {
    crate::built(&FX, settings).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
    provider_with(FX.settings(sim))
}

/// How many times the simulator served its key set.
pub fn jwks_fetches(sim: &SimulatorHandle) -> usize {
    sim.requests()
        .iter()
        .filter(|r| r.endpoint == Some(Endpoint::Jwks))
        .count()
}

/// The first request the simulated Google's `endpoint` received.
pub fn record(sim: &SimulatorHandle, endpoint: Endpoint) -> RequestRecord {
    sim.requests()
        .into_iter()
        .find(|r| r.provider == Some(Provider::Google) && r.endpoint == Some(endpoint))
        .unwrap()
}
