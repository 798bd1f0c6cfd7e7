//! Which hooks each simulated provider has: the eight built-in ones' and the standard ones'
//! own, WeChat's and VK's, and the other presets' none (their dialect says everything).

use crate::config::Provider;
use crate::hooks::{Served, SimHooks};

/// A provider whose dialect says everything (the presets).
pub struct Plain;

impl SimHooks for Plain {}

/// The hooks of `provider`.
pub fn of(provider: Provider) -> &'static dyn SimHooks {
    match provider {
        Provider::Google => &crate::google::Google,
        Provider::Github => &crate::github::Github,
        Provider::Facebook => &crate::facebook::Facebook,
        Provider::Microsoft => &crate::microsoft::Microsoft,
        Provider::Linkedin => &crate::linkedin::Linkedin,
        Provider::Discord => &crate::discord::Discord,
        Provider::Twitter => &crate::twitter::Twitter,
        Provider::Apple => &crate::apple::Apple,
        Provider::StandardOidc => &crate::standard::StandardOidc,
        Provider::StandardOauth2 => &crate::standard::StandardOauth2,
        crate::wechat::WECHAT => &crate::wechat::Wechat,
        crate::vk::VK => &crate::vk::Vk,
        _ => &Plain,
    }
}

/// `provider` with its hooks.
pub fn served(provider: Provider) -> Served {
    (provider, of(provider))
}
