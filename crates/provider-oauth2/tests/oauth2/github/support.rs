//! The GitHub fixture and an adapter pointed at its simulator.

pub use social_login_conformance::GITHUB as FX;
use social_login_conformance::fixture::http_client;
use social_login_provider_core::ProviderSettings;
use social_login_provider_oauth2::GithubProvider;
use social_login_simulator::SimulatorHandle;

pub fn provider_with(settings: ProviderSettings) -> GithubProvider {
    GithubProvider::new(settings, http_client()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> GithubProvider {
    provider_with(FX.settings(sim))
}
