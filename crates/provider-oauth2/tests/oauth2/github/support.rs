//! The GitHub fixture and its provider pointed at the simulator.

pub use social_login_conformance::GITHUB as FX;
use social_login_ports::ProviderLogin;
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::SimulatorHandle;

pub fn provider_with(settings: ProviderSettings) -> Engine {
    crate::built(&FX, settings).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
    provider_with(FX.settings(sim))
}

/// A simulator with the default user, and that user's sign-in through a provider on it.
pub async fn signed_in() -> (SimulatorHandle, ProviderLogin) {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    (sim, login)
}
