//! `[oauth_state_store] ttl_seconds` and `max_entries`, and a provider's `id_token_nonce`:
//! loaded, bounded, and named in every problem.

use super::fixtures::{full_toml, minimal_toml};
use crate::settings::{IdTokenNonce, Settings};
use social_login_domain::ProviderKey;

fn problems_of(toml: &str) -> String {
    match Settings::from_toml(toml).and_then(|settings| settings.validate().map(|()| settings)) {
        Ok(_) => String::new(),
        Err(errors) => errors.to_string(),
    }
}

fn with_store(lines: &str) -> String {
    format!("{}[oauth_state_store]\n{lines}\n", minimal_toml())
}

#[test]
fn a_state_lives_at_most_an_hour() {
    assert_eq!(problems_of(&with_store("ttl_seconds = 3600")), "");
    for too_long in ["3601", "86400"] {
        let problems = problems_of(&with_store(&format!("ttl_seconds = {too_long}")));
        assert!(
            problems.contains("oauth_state_store.ttl_seconds") && problems.contains("3600"),
            "{problems}"
        );
    }
    let zero = problems_of(&with_store("ttl_seconds = 0"));
    assert!(zero.contains("oauth_state_store.ttl_seconds"), "{zero}");
}

#[test]
fn the_memory_bounds_default_to_a_million_each_and_are_configurable_within_reason() {
    let settings = Settings::from_toml(&minimal_toml()).unwrap();
    assert_eq!(settings.oauth_state_store.max_entries, 1_000_000);
    assert_eq!(settings.oauth_state_store.max_attempt_entries, 1_000_000);
    for field in ["max_entries", "max_attempt_entries"] {
        let small = Settings::from_toml(&with_store(&format!("{field} = 5000"))).unwrap();
        small.validate().unwrap();
        let key = format!("oauth_state_store.{field}");
        for bad in ["0", "100000001", "-1"] {
            let problems = problems_of(&with_store(&format!("{field} = {bad}")));
            assert!(problems.contains(&key), "{field} = {bad}: {problems}");
        }
    }
    let small = Settings::from_toml(&with_store("max_attempt_entries = 5000")).unwrap();
    assert_eq!(small.oauth_state_store.max_attempt_entries, 5000);
}

#[test]
fn the_id_token_nonce_is_required_unless_a_provider_says_optional() {
    let settings = Settings::from_toml(&full_toml()).unwrap();
    let apple = settings.provider(ProviderKey::APPLE).unwrap();
    assert_eq!(apple.id_token_nonce, None, "absent means required");
    let toml = full_toml().replace(
        "client_ids = [\"com.example.ios\"]",
        "client_ids = [\"com.example.ios\"]\nid_token_nonce = \"optional\"",
    );
    let settings = Settings::from_toml(&toml).unwrap();
    settings.validate().unwrap();
    let apple = settings.provider(ProviderKey::APPLE).unwrap();
    assert_eq!(apple.id_token_nonce, Some(IdTokenNonce::Optional));
    let required = full_toml().replace(
        "client_ids = [\"com.example.ios\"]",
        "id_token_nonce = \"required\"",
    );
    assert_eq!(
        Settings::from_toml(&required)
            .unwrap()
            .provider(ProviderKey::APPLE)
            .unwrap()
            .id_token_nonce,
        Some(IdTokenNonce::Required)
    );
}

#[test]
fn an_id_token_nonce_that_is_no_choice_or_on_a_provider_without_id_tokens_is_refused() {
    // No choice of either enum is repeated back: the message names the choices instead.
    for (field, value, choices) in [
        ("id_token_nonce", "maybe", "\"required\" or \"optional\""),
        (
            "linking",
            "sometimes-secret",
            "\"auto\", \"confirm\" or \"never\"",
        ),
    ] {
        let toml = full_toml().replace(
            "client_ids = [\"com.example.ios\"]",
            &format!("{field} = \"{value}\""),
        );
        let problems = problems_of(&toml);
        let named = problems.contains(&format!("oauth_providers.apple.{field}"));
        assert!(named && problems.contains(choices), "{problems}");
        assert!(!problems.contains(value), "{problems}");
    }
    let github = full_toml().replace(
        "scopes = [\"read:user\", \"user:email\"]",
        "scopes = [\"read:user\", \"user:email\"]\nid_token_nonce = \"optional\"",
    );
    let problems = problems_of(&github);
    assert!(
        problems.contains("oauth_providers.github.id_token_nonce"),
        "{problems}"
    );
}

#[test]
fn both_settings_come_from_the_environment_too() {
    let settings = Settings::from_toml_with_env(
        &full_toml(),
        [
            (
                "SOCIAL_LOGIN__OAUTH_PROVIDERS__APPLE__ID_TOKEN_NONCE",
                "optional",
            ),
            ("SOCIAL_LOGIN__OAUTH_STATE_STORE__MAX_ENTRIES", "2000"),
        ],
    )
    .unwrap();
    settings.validate().unwrap();
    let apple = settings.provider(ProviderKey::APPLE).unwrap();
    assert_eq!(apple.id_token_nonce, Some(IdTokenNonce::Optional));
    assert_eq!(settings.oauth_state_store.max_entries, 2000);
}
