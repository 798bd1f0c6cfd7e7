//! OAuth 2.0 + REST providers, whose identity comes from their API: GitHub, Discord,
//! Facebook, X, and the presets whose OAuth no knob can describe: WeChat, DingTalk, VK ID. Each is its declaration (`built_in.toml` in `social-login-provider-spec`)
//! run by the engine of `social-login-provider-core`, plus what no declaration can say: its
//! quirks, one module per provider.

pub mod dingtalk;
pub mod discord;
pub mod facebook;
pub mod github;
pub mod twitter;
pub mod vk;
pub mod wechat;

use social_login_provider_core::{
    BuildContext, Engine, NoQuirks, ProviderConfigError, ProviderPlan, Quirks,
};
use std::sync::Arc;

/// The quirks this crate has, by the name a declaration gives them (`quirks = "github"`).
pub const QUIRKS: &[&str] = &[
    "github", "facebook", "discord", "twitter", "wechat", "dingtalk", "vk",
];

/// The provider of `plan`, with the quirks its declaration names (none: a plain `oauth2`
/// provider). Fails naming the first invalid field.
pub fn build(plan: ProviderPlan, cx: &BuildContext) -> Result<Engine, ProviderConfigError> {
    let quirks: Arc<dyn Quirks> = match plan.spec.quirks.as_deref() {
        None => Arc::new(NoQuirks),
        Some("github") => Arc::new(github::GithubQuirks),
        Some("facebook") => Arc::new(facebook::FacebookQuirks::new(&plan)?),
        Some("discord") => Arc::new(discord::DiscordQuirks),
        Some("twitter") => Arc::new(twitter::TwitterQuirks::new(&plan)),
        Some("wechat") => Arc::new(wechat::WechatQuirks),
        Some("dingtalk") => Arc::new(dingtalk::DingtalkQuirks),
        Some("vk") => Arc::new(vk::VkQuirks::new(&plan)),
        Some(_) => return Err(UNKNOWN_QUIRKS),
    };
    Engine::new(plan, quirks, None, cx.http.clone())
}

const UNKNOWN_QUIRKS: ProviderConfigError = ProviderConfigError::Invalid {
    field: "quirks",
    reason: "no such quirks in social-login-provider-oauth2",
};
