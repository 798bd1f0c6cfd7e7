//! Sign in with Apple (docs/providers.md#apple): its declaration run by the engine of
//! `social-login-provider-core` with the id_token check of `social-login-id-token`, plus
//! what Apple does its own way:
//! - [`client_secret`]: no static client secret; every code exchange and revocation sends a
//!   fresh ES256 JWT signed with the team's `.p8` key, valid for five minutes;
//! - [`post_body`]: no userinfo endpoint, and the name never in the id_token: only in the
//!   first login's form_post, which the HTTP layer hands over untouched as `post_body`.

pub mod client_secret;
pub mod post_body;
mod quirks;

pub use client_secret::{APPLE_AUDIENCE, CLIENT_SECRET_LIFETIME, ClientSecretSigner};
pub use quirks::AppleQuirks;

use client_secret::{KEY_FIELD, read_team_key};
use social_login_domain::SecretText;
use social_login_id_token::oidc_engine;
use social_login_provider_core::spec::ProviderSpec;
use social_login_provider_core::{
    BuildContext, Engine, ProviderConfigError, ProviderPlan, ProviderSettings, SettingsProblem,
    SigningKey,
};
use std::sync::Arc;

/// The built-in provider this crate builds.
pub const QUIRKS: &[&str] = &["apple"];

/// What a missing signing setting is told.
const SIGNING_REQUIRED: &str = "required when oauth_providers.apple is enabled";

/// Sign in with Apple as `plan` configures it, its client secrets signed with the plan's
/// signing key (a static `client_secret` is ignored). Fails naming the first invalid setting.
pub fn build(plan: ProviderPlan, cx: &BuildContext) -> Result<Engine, ProviderConfigError> {
    let signing = signing_of(plan.settings.signing.as_ref());
    let signer = ClientSecretSigner::new(
        &signing.team_id,
        &signing.key_id,
        &signing.private_key_pem,
        &plan.settings.client_id,
        cx.clock.clone(),
    )?;
    oidc_engine(plan, Arc::new(AppleQuirks::new(signer)), cx)
}

/// Every problem of `settings` for `check-config`: the table's (no static secret needed),
/// then the team, key id and `.p8` key, which are settings of the service
/// (`apple_team_id`…); a blank one counts as missing.
pub fn problems(spec: &ProviderSpec, settings: &ProviderSettings) -> Vec<SettingsProblem> {
    let mut problems = social_login_provider_core::problems(spec, settings);
    let signing = signing_of(settings.signing.as_ref());
    for (field, value) in [
        ("apple_team_id", &signing.team_id),
        ("apple_key_id", &signing.key_id),
    ] {
        if value.trim().is_empty() {
            problems.push(SettingsProblem::service(field, SIGNING_REQUIRED));
        }
    }
    let pem = signing.private_key_pem.expose();
    if pem.trim().is_empty() {
        problems.push(SettingsProblem::service(KEY_FIELD, SIGNING_REQUIRED));
    } else if let Err(reason) = read_team_key(pem) {
        problems.push(SettingsProblem::service(KEY_FIELD, reason));
    }
    problems
}

/// The signing key, or an empty one (whose every part is then missing).
fn signing_of(signing: Option<&SigningKey>) -> SigningKey {
    signing.cloned().unwrap_or_else(|| SigningKey {
        team_id: String::new(),
        key_id: String::new(),
        private_key_pem: SecretText::new(""),
    })
}

#[cfg(test)]
mod tests;
