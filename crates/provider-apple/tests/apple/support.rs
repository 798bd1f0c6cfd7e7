//! The Apple fixture (a Services ID and the fixture team), and an adapter pointed at its
//! simulator with a movable clock and a chosen signing key.

pub use social_login_conformance::APPLE as FX;
pub use social_login_conformance::ManualClock;
use social_login_conformance::expect_code_exchange;
use social_login_conformance::fixture::http_client;
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError, ProviderLogin};
use social_login_provider_apple::AppleProvider;
use social_login_provider_core::ProviderSettings;
use social_login_simulator::{
    APPLE_TEST_KEY_ID, APPLE_TEST_KEY_PEM, APPLE_TEST_TEAM_ID, Endpoint, Provider, RequestRecord,
    SimulatorHandle,
};
use std::sync::Arc;

/// The team's signing setup; tests vary one part to get a refused secret.
#[derive(Debug, Clone)]
pub struct Signing {
    pub team_id: &'static str,
    pub key_id: &'static str,
    pub pem: &'static str,
}

pub const FIXTURE_SIGNING: Signing = Signing {
    team_id: APPLE_TEST_TEAM_ID,
    key_id: APPLE_TEST_KEY_ID,
    pem: APPLE_TEST_KEY_PEM,
};

pub fn build(settings: ProviderSettings, signing: Signing, clock: Arc<dyn Clock>) -> AppleProvider {
    AppleProvider::with_clock(
        settings,
        signing.team_id.into(),
        signing.key_id.into(),
        SecretText::new(signing.pem),
        http_client(),
        clock,
    )
    .unwrap()
}

pub fn provider_with(settings: ProviderSettings) -> AppleProvider {
    build(settings, FIXTURE_SIGNING, ManualClock::starting_now())
}

pub fn provider(sim: &SimulatorHandle) -> AppleProvider {
    provider_with(FX.settings(sim))
}

/// The token requests the simulator received, oldest first.
pub fn token_requests(sim: &SimulatorHandle) -> Vec<RequestRecord> {
    sim.requests()
        .into_iter()
        .filter(|r| r.provider == Some(Provider::Apple) && r.endpoint == Some(Endpoint::Token))
        .collect()
}

/// A `CodeExchange` failure whose message shows no key material.
pub fn assert_code_exchange(result: Result<ProviderLogin, ProviderError>) -> String {
    expect_code_exchange(result, &["MIG"])
}
