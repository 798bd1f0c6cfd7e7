//! The Apple fixture (a Services ID and the fixture team), and the provider pointed at its
//! simulator with a movable clock and a chosen signing key.

pub use social_login_conformance::APPLE as FX;
pub use social_login_conformance::ManualClock;
use social_login_conformance::expect_code_exchange;
use social_login_conformance::fixture::http_client;
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError, ProviderLogin};
use social_login_provider_core::{
    BuildContext, Engine, ProviderConfigError, ProviderSettings, SigningKey,
};
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

/// Sign in with Apple built the way the server builds it, signing with `signing`.
pub fn built(
    mut settings: ProviderSettings,
    signing: Signing,
    clock: Arc<dyn Clock>,
) -> Result<Engine, ProviderConfigError> {
    settings.signing = Some(SigningKey {
        team_id: signing.team_id.into(),
        key_id: signing.key_id.into(),
        private_key_pem: SecretText::new(signing.pem),
    });
    let cx = BuildContext {
        http: http_client(),
        clock,
    };
    social_login_provider_apple::build(FX.plan(&settings)?, &cx)
}

pub fn build(settings: ProviderSettings, signing: Signing, clock: Arc<dyn Clock>) -> Engine {
    built(settings, signing, clock).unwrap()
}

pub fn provider_with(settings: ProviderSettings) -> Engine {
    build(settings, FIXTURE_SIGNING, ManualClock::starting_now())
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
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
