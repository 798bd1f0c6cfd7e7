//! OAuth 2.0 + REST providers, whose identity comes from their API: GitHub, Discord,
//! Facebook, X. Each is its declaration (`built_in.toml` in `social-login-provider-spec`)
//! run by the engine of `social-login-provider-core`, plus what no declaration can say: its
//! quirks, one module per provider.

pub mod discord;
pub mod facebook;
pub mod github;
pub mod twitter;

use social_login_domain::ProviderKey;
use social_login_provider_core::{
    BuildContext, Engine, NoQuirks, ProviderConfigError, ProviderPlan, Quirks,
};
use std::sync::Arc;

/// The built-in providers this crate has quirks for.
pub const KEYS: &[ProviderKey] = &[
    ProviderKey::GITHUB,
    ProviderKey::FACEBOOK,
    ProviderKey::DISCORD,
    ProviderKey::TWITTER,
];

/// The provider of `plan`: a key of [`KEYS`] gets its quirks, any other `oauth2` plan none.
/// Fails naming the first invalid field.
pub fn build(plan: ProviderPlan, cx: &BuildContext) -> Result<Engine, ProviderConfigError> {
    let quirks: Arc<dyn Quirks> = match plan.key() {
        ProviderKey::GITHUB => Arc::new(github::GithubQuirks::new(&plan)),
        ProviderKey::FACEBOOK => Arc::new(facebook::FacebookQuirks::new(&plan)?),
        ProviderKey::DISCORD => Arc::new(discord::DiscordQuirks),
        ProviderKey::TWITTER => Arc::new(twitter::TwitterQuirks::new(&plan)),
        _ => Arc::new(NoQuirks),
    };
    Engine::new(plan, quirks, None, cx.http.clone())
}
