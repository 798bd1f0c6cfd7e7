//! One adapter per enabled provider, and the problems `check-config` reports for each: a
//! built-in key goes to the crate that has its quirks, and that crate builds it from its
//! declaration, the same way whether the server starts or only checks.

use crate::server::StartupError;
use crate::settings::{IdTokenNonce, ProviderConfig, Settings};
use social_login_app::ProviderRegistry;
use social_login_domain::ProviderKey;
use social_login_ports::IdentityProvider;
use social_login_provider_apple as apple;
use social_login_provider_core::spec::{ProviderSpec, built_in_spec};
use social_login_provider_core::{
    self as core, BuildContext, Engine, ProviderConfigError, ProviderPlan, ProviderSettings,
    SettingsProblem, SigningKey, build_http_client,
};
use social_login_provider_oauth2 as oauth2;
use social_login_provider_oidc as oidc;
use std::sync::Arc;

/// What one adapter crate offers the server.
struct Crate {
    keys: &'static [ProviderKey],
    build: fn(ProviderPlan, &BuildContext) -> Result<Engine, ProviderConfigError>,
    problems: fn(&ProviderSpec, &ProviderSettings) -> Vec<SettingsProblem>,
}

const CRATES: [Crate; 3] = [
    Crate {
        keys: oauth2::KEYS,
        build: oauth2::build,
        problems: core::problems,
    },
    Crate {
        keys: oidc::KEYS,
        build: oidc::build,
        problems: core::problems,
    },
    Crate {
        keys: apple::KEYS,
        build: apple::build,
        problems: apple::problems,
    },
];

/// The declaration of `key` and the crate that builds it.
fn lookup(key: ProviderKey) -> Option<(&'static ProviderSpec, &'static Crate)> {
    let spec = built_in_spec(key)?;
    CRATES
        .iter()
        .find(|adapters| adapters.keys.contains(&key))
        .map(|adapters| (spec, adapters))
}

/// Every enabled provider, all sharing one pooled HTTP client.
pub fn registry(settings: &Settings) -> Result<ProviderRegistry, StartupError> {
    let http = build_http_client(settings.http.provider_timeout())
        .map_err(|error| StartupError::Provider(error.to_string()))?;
    let cx = BuildContext::new(http);
    let mut registry = ProviderRegistry::new();
    for (key, config) in settings.enabled_providers() {
        let failed =
            |error: &str| StartupError::Provider(format!("oauth_providers.{key}: {error}"));
        let (spec, adapters) = lookup(key).ok_or_else(|| failed(NO_ADAPTER))?;
        let provider = adapter_settings(key, config, settings);
        let engine = ProviderPlan::resolve(spec, &provider)
            .and_then(|plan| (adapters.build)(plan, &cx))
            .map_err(|e| failed(&e.to_string()))?;
        registry = registry.with(Arc::new(engine) as Arc<dyn IdentityProvider>);
        if config.id_token_nonce == Some(IdTokenNonce::Optional) {
            registry = registry.with_optional_nonce(key);
        }
    }
    Ok(registry)
}

/// The problems the adapter of `key` finds in its settings: the same checks it makes when
/// it is built at start-up, all at once.
pub fn problems(
    key: ProviderKey,
    config: &ProviderConfig,
    settings: &Settings,
) -> Vec<SettingsProblem> {
    match lookup(key) {
        Some((spec, adapters)) => {
            (adapters.problems)(spec, &adapter_settings(key, config, settings))
        }
        None => vec![SettingsProblem::provider(
            "enabled",
            format!("{key} has no adapter in this build"),
        )],
    }
}

const NO_ADAPTER: &str = "no adapter in this build";

/// The provider's table as its adapter takes it; Apple's also carries the team's signing
/// key, which is a setting of the service.
fn adapter_settings(
    key: ProviderKey,
    config: &ProviderConfig,
    settings: &Settings,
) -> ProviderSettings {
    let mut provider = config.adapter_settings();
    if key == ProviderKey::APPLE {
        provider.signing = Some(SigningKey {
            team_id: settings.apple_team_id.clone().unwrap_or_default(),
            key_id: settings.apple_key_id.clone().unwrap_or_default(),
            private_key_pem: settings.apple_private_key(),
        });
    }
    provider
}
