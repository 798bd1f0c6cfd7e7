//! OpenID Connect providers, whose identity comes from a signed id_token: Google, Microsoft
//! (the `common` endpoint), LinkedIn. Each is its declaration run by the engine of
//! `social-login-provider-core` with the id_token check of `social-login-id-token`; only
//! Microsoft has quirks ([`microsoft`]). A provider of `kind = "oidc"` from configuration
//! ([`generic`]) has none: its declaration comes from its table and its discovery document
//! ([`discovery`]).

pub mod discovery;
pub mod generic;
pub mod microsoft;

use social_login_domain::ProviderKey;
use social_login_id_token::oidc_engine;
use social_login_provider_core::{
    BuildContext, Engine, NoQuirks, ProviderConfigError, ProviderPlan, Quirks,
};
use std::sync::Arc;

/// The built-in providers this crate builds.
pub const KEYS: &[ProviderKey] = &[
    ProviderKey::GOOGLE,
    ProviderKey::MICROSOFT,
    ProviderKey::LINKEDIN,
];

/// The provider of `plan`: Microsoft gets its quirks, any other `oidc` plan none. Fails
/// naming the first invalid field.
pub fn build(plan: ProviderPlan, cx: &BuildContext) -> Result<Engine, ProviderConfigError> {
    let quirks: Arc<dyn Quirks> = if plan.key() == ProviderKey::MICROSOFT {
        Arc::new(microsoft::MicrosoftQuirks::new(&plan))
    } else {
        Arc::new(NoQuirks)
    };
    oidc_engine(plan, quirks, cx)
}
