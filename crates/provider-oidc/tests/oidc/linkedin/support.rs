//! The LinkedIn fixture with its members, and an provider pointed at its simulator.

pub use social_login_conformance::LINKEDIN as FX;
use social_login_conformance::fixture;
use social_login_ports::ProviderLogin;
use social_login_provider_core::{Engine, ProviderSettings};
use social_login_simulator::{Endpoint, Provider, RequestRecord, SimUser, SimulatorHandle};

/// A member without an email address.
pub fn grace() -> SimUser {
    SimUser::new("Hq02bW_k7", "grace").with_name("Grace Hopper")
}

/// A simulator whose members are ada (the default identity) and grace.
pub async fn simulator() -> SimulatorHandle {
    fixture::start(FX.config([FX.user(), grace()])).await
}

pub fn provider_with(settings: ProviderSettings) -> Engine {
    crate::built(&FX, settings).unwrap()
}

pub fn provider(sim: &SimulatorHandle) -> Engine {
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

/// `login`'s sign-in through a provider pointed at `sim`.
pub async fn signed_in_as(sim: &SimulatorHandle, login: &str) -> ProviderLogin {
    FX.flow().sign_in_as(&provider(sim), login).await.unwrap()
}
