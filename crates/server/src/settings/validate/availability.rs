//! What this build can run: `check-config` fails exactly where `serve` would refuse.

use crate::settings::{ConfigErrors, Settings, StateStoreBackend};
use social_login_domain::ProviderKey;

/// Providers with an adapter in this build.
const AVAILABLE_PROVIDERS: [ProviderKey; 6] = [
    ProviderKey::Github,
    ProviderKey::Google,
    ProviderKey::Facebook,
    ProviderKey::Discord,
    ProviderKey::Twitter,
    ProviderKey::Apple,
];

pub fn check(settings: &Settings, errors: &mut ConfigErrors) {
    for (key, _) in settings.enabled_providers() {
        if !AVAILABLE_PROVIDERS.contains(&key) {
            errors.push(
                format!("oauth_providers.{key}"),
                "this build has no adapter for this provider yet; set enabled = false",
            );
        }
    }
    if settings.oauth_state_store.backend == StateStoreBackend::Redis {
        errors.push(
            "oauth_state_store.backend",
            "\"redis\" is not available in this build yet; use \"memory\"",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::settings::{ProviderConfig, Settings, StateStoreBackend};

    fn settings() -> Settings {
        let mut settings = Settings::with_secret_key("k".repeat(40));
        settings.oauth_providers.github = Some(ProviderConfig::new(
            "id",
            "secret",
            "https://app.example.com/cb",
        ));
        settings
    }

    #[test]
    fn github_on_the_memory_store_runs_in_this_build() {
        assert!(settings().validate_for_this_build().is_ok());
    }

    #[test]
    fn a_provider_without_an_adapter_and_the_redis_store_are_named() {
        let mut settings = settings();
        settings.oauth_providers.linkedin = Some(ProviderConfig::new(
            "id",
            "secret",
            "https://app.example.com/cb",
        ));
        settings.oauth_state_store.backend = StateStoreBackend::Redis;
        settings.oauth_state_store.url = Some("redis://127.0.0.1:6379".into());
        let errors = settings.validate_for_this_build().unwrap_err();
        assert!(errors.mentions("oauth_providers.linkedin"));
        assert!(errors.mentions("oauth_state_store.backend"));
        assert!(settings.validate().is_ok(), "the format itself is valid");
    }
}
