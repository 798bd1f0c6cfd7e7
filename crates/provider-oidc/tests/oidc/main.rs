//! The OpenID Connect providers against their simulated providers over real HTTP: what each
//! provider does its own way. The scenarios they share run in the conformance kit.

mod google;
mod linkedin;
mod microsoft;
mod native;

use social_login_conformance::Fixture;
use social_login_conformance::fixture::build_context;
use social_login_provider_core::{Engine, ProviderConfigError, ProviderSettings};
use social_login_provider_oidc::build;

/// The provider of `fixture`, built the way the server builds it, with `settings`.
pub fn built(fixture: &Fixture, settings: ProviderSettings) -> Result<Engine, ProviderConfigError> {
    build(fixture.plan(&settings)?, &build_context())
}
