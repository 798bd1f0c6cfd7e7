//! The LinkedIn fixture with its members, and an adapter pointed at its simulator.

pub use social_login_conformance::LINKEDIN as FX;
pub use social_login_conformance::fixture::LINKEDIN_PICTURE as PICTURE;
use social_login_conformance::fixture::{self, http_client};
use social_login_ports::ProviderLogin;
use social_login_provider_core::ProviderSettings;
use social_login_provider_oidc::LinkedinProvider;
use social_login_simulator::{Endpoint, Provider, RequestRecord, SimUser, SimulatorHandle};

/// A member without an email address.
pub fn grace() -> SimUser {
    SimUser::new("Hq02bW_k7", "grace").with_name("Grace Hopper")
}

/// A simulator whose members are ada (the default identity) and grace.
pub async fn simulator() -> SimulatorHandle {
    fixture::start(FX.config([FX.user(), grace()])).await
}

pub fn provider_with(settings: ProviderSettings) -> LinkedinProvider {
    LinkedinProvider::new(settings, http_client()).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> LinkedinProvider {
    provider_with(FX.settings(sim))
}

/// The first request the simulated LinkedIn's `endpoint` received.
pub fn record(sim: &SimulatorHandle, endpoint: Endpoint) -> RequestRecord {
    sim.requests()
        .into_iter()
        .find(|r| r.provider == Some(Provider::Linkedin) && r.endpoint == Some(endpoint))
        .unwrap()
}

pub fn email(login: &ProviderLogin) -> Option<&str> {
    login.identity.email.as_ref().map(|e| e.as_str())
}
