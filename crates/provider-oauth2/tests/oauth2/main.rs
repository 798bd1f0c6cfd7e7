//! The OAuth 2.0 providers against their simulated providers over real HTTP: what each
//! provider does its own way. The scenarios they share run in the conformance kit.

mod discord;
mod facebook;
mod github;
mod twitter;

use social_login_conformance::Fixture;
use social_login_conformance::fixture::build_context;
use social_login_domain::ProviderIdentity;
use social_login_provider_core::{Engine, ProviderConfigError, ProviderSettings};
use social_login_provider_oauth2::build;
use social_login_simulator::{SimUser, SimulatorHandle};

/// The provider of `fixture`, built the way the server builds it, with `settings`.
pub fn built(fixture: &Fixture, settings: ProviderSettings) -> Result<Engine, ProviderConfigError> {
    build(fixture.plan(&settings)?, &build_context())
}

/// The error `fixture`'s provider is refused with once `edit` changes its settings.
pub async fn refused(
    fixture: &Fixture,
    edit: impl FnOnce(&mut ProviderSettings),
) -> ProviderConfigError {
    let sim = fixture.start().await;
    let mut settings = fixture.settings(&sim);
    edit(&mut settings);
    built(fixture, settings).unwrap_err()
}

/// The identity a fresh simulator seeded with `user` signs in as, the provider configured
/// by `settings`.
pub async fn identity_with(
    fixture: &Fixture,
    user: SimUser,
    settings: fn(&Fixture, &SimulatorHandle) -> ProviderSettings,
) -> ProviderIdentity {
    let sim = fixture.start_as(user).await;
    let provider = built(fixture, settings(fixture, &sim)).unwrap();
    fixture.flow().sign_in(&provider).await.unwrap().identity
}

/// The fixture's own settings.
pub fn fixture_settings(fixture: &Fixture, sim: &SimulatorHandle) -> ProviderSettings {
    fixture.settings(sim)
}
