//! The GitHub fixture and an adapter pointed at its simulator.

pub use social_login_conformance::GITHUB as FX;
use social_login_provider_core::{ProviderSettings, build_http_client};
use social_login_provider_oauth2::GithubProvider;
use social_login_simulator::SimulatorHandle;
use std::time::Duration;

pub fn provider_with(settings: ProviderSettings) -> GithubProvider {
    let http = build_http_client(Duration::from_secs(10)).unwrap();
    GithubProvider::new(settings, http).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> GithubProvider {
    provider_with(FX.settings(sim))
}
