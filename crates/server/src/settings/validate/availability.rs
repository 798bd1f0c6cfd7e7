//! What this build can run: `check-config` fails exactly where `serve` would refuse.

use crate::settings::{ConfigErrors, Settings, StateStoreBackend};

pub fn check(settings: &Settings, errors: &mut ConfigErrors) {
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
    fn the_memory_store_runs_in_this_build() {
        assert!(settings().validate_for_this_build().is_ok());
    }

    #[test]
    fn the_redis_store_is_named_until_its_adapter_lands() {
        let mut settings = settings();
        settings.oauth_state_store.backend = StateStoreBackend::Redis;
        settings.oauth_state_store.url = Some("redis://127.0.0.1:6379".into());
        let errors = settings.validate_for_this_build().unwrap_err();
        assert!(errors.mentions("oauth_state_store.backend"));
        assert!(settings.validate().is_ok(), "the format itself is valid");
    }
}
