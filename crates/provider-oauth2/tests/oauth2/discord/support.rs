//! The Discord fixture and its provider pointed at the simulator.

pub use social_login_conformance::DISCORD as FX;
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::SimulatorHandle;

pub fn provider_with(settings: ProviderSettings) -> Engine {
    crate::built(&FX, settings).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
    provider_with(FX.settings(sim))
}
