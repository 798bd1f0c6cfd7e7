//! OpenID Connect providers, whose identity comes from a signed id_token: Google, Microsoft
//! (the `common` endpoint), LinkedIn. Each is its declaration run by the engine of
//! `social-login-provider-core` with the id_token check of `social-login-id-token`; only
//! Microsoft has quirks ([`microsoft`]). A provider of `kind = "oidc"` from configuration
//! ([`generic`]) has none: its declaration comes from its table and its discovery document
//! ([`discovery`]).

pub mod discovery;
pub mod generic;
pub mod microsoft;

use social_login_id_token::oidc_engine;
use social_login_provider_core::{
    BuildContext, Engine, NoQuirks, ProviderConfigError, ProviderPlan, Quirks,
};
use std::sync::Arc;

/// The quirks this crate has, by the name a declaration gives them.
pub const QUIRKS: &[&str] = &["microsoft"];

/// The provider of `plan`, with the quirks its declaration names (none: a plain `oidc`
/// provider). Fails naming the first invalid field.
pub fn build(plan: ProviderPlan, cx: &BuildContext) -> Result<Engine, ProviderConfigError> {
    let quirks: Arc<dyn Quirks> = match plan.spec.quirks.as_deref() {
        None => Arc::new(NoQuirks),
        Some("microsoft") => Arc::new(microsoft::MicrosoftQuirks::new(&plan)),
        Some(_) => {
            return Err(ProviderConfigError::Invalid {
                field: "quirks",
                reason: "no such quirks in social-login-provider-oidc",
            });
        }
    };
    oidc_engine(plan, quirks, cx)
}
