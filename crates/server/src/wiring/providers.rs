//! One adapter per enabled provider, and the problems `check-config` reports for each: a
//! built-in key goes to the crate that has its quirks, and that crate builds it from its
//! declaration, the same way whether the server starts or only checks.

use crate::server::StartupError;
use crate::settings::{ProviderConfig, Settings};
use social_login_app::ProviderRegistry;
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_provider_apple::AppleProvider;
use social_login_provider_core::spec::built_in_spec;
use social_login_provider_core::{
    BuildContext, ProviderConfigError, ProviderSettings, SettingsProblem, build_http_client,
};
use social_login_provider_oauth2 as oauth2;
use social_login_provider_oidc::{GoogleProvider, LinkedinProvider, MicrosoftProvider};
use std::sync::Arc;

/// Every enabled provider, all sharing one pooled HTTP client.
pub fn registry(settings: &Settings) -> Result<ProviderRegistry, StartupError> {
    let http = build_http_client(settings.http.provider_timeout())
        .map_err(|error| StartupError::Provider(error.to_string()))?;
    let cx = BuildContext::new(http);
    let mut registry = ProviderRegistry::new();
    for (key, config) in settings.enabled_providers() {
        let provider = build(key, config, settings, &cx)
            .map_err(|error| StartupError::Provider(format!("oauth_providers.{key}: {error}")))?;
        registry = registry.with(provider);
    }
    Ok(registry)
}

/// The adapter of `key`; fails naming the first invalid field.
fn build(
    key: ProviderKey,
    config: &ProviderConfig,
    settings: &Settings,
    cx: &BuildContext,
) -> Result<Arc<dyn IdentityProvider>, ProviderConfigError> {
    let provider = config.adapter_settings();
    if let Some(spec) = built_in_spec(key).filter(|_| oauth2::KEYS.contains(&key)) {
        return Ok(Arc::new(oauth2::build(spec, &provider, cx)?));
    }
    let http = cx.http.clone();
    let ids = &config.client_ids;
    Ok(match key {
        ProviderKey::Google => Arc::new(GoogleProvider::new(provider, http)?.with_client_ids(ids)),
        ProviderKey::Microsoft => {
            Arc::new(MicrosoftProvider::new(provider, http)?.with_client_ids(ids))
        }
        ProviderKey::Linkedin => Arc::new(LinkedinProvider::new(provider, http)?),
        // Apple signs a client secret per exchange with the team's key.
        ProviderKey::Apple => Arc::new(
            AppleProvider::new(
                provider,
                settings.apple_team_id.clone().unwrap_or_default(),
                settings.apple_key_id.clone().unwrap_or_default(),
                settings.apple_private_key(),
                http,
            )?
            .with_client_ids(ids),
        ),
        _ => {
            return Err(ProviderConfigError::Invalid {
                field: "enabled",
                reason: "no adapter in this build",
            });
        }
    })
}

/// The problems the adapter of `key` finds in `provider`: the same checks it makes when it
/// is built at start-up, all at once.
pub fn problems(
    key: ProviderKey,
    provider: &ProviderSettings,
    settings: &Settings,
) -> Vec<SettingsProblem> {
    if let Some(spec) = built_in_spec(key).filter(|_| oauth2::KEYS.contains(&key)) {
        return oauth2::problems(spec, provider);
    }
    match key {
        ProviderKey::Google => GoogleProvider::check_settings(provider),
        ProviderKey::Microsoft => MicrosoftProvider::check_settings(provider),
        ProviderKey::Linkedin => LinkedinProvider::check_settings(provider),
        ProviderKey::Apple => AppleProvider::check_settings(
            provider,
            settings.apple_team_id.as_deref().unwrap_or_default(),
            settings.apple_key_id.as_deref().unwrap_or_default(),
            &settings.apple_private_key(),
        ),
        other => vec![SettingsProblem::provider(
            "enabled",
            format!("{other} has no adapter in this build"),
        )],
    }
}
