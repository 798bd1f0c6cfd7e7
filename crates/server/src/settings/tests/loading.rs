//! Loading a file: defaults, every field, unknown keys, type errors, no leaks.

use super::fixtures::{P256_PEM, SECRET, full_toml, minimal_toml};
use crate::settings::{ConfigErrors, ProviderConfig, Settings, StateStoreBackend};
use secrecy::ExposeSecret;
use social_login_domain::ProviderKey;

/// The minimal file with `extra` after it.
fn minimal_with(extra: &str) -> String {
    format!("{}{extra}", minimal_toml())
}

/// Why the minimal file with `extra` does not load.
fn load_errors(extra: &str) -> ConfigErrors {
    Settings::from_toml(&minimal_with(extra)).unwrap_err()
}

/// Why the minimal file with `extra` loads but does not validate.
fn validation_errors(extra: &str) -> ConfigErrors {
    let settings = Settings::from_toml(&minimal_with(extra)).unwrap();
    settings.validate().unwrap_err()
}

#[test]
fn defaults_apply_when_only_the_secret_key_is_given() {
    let settings = Settings::from_toml(&minimal_toml()).unwrap();
    assert_eq!(settings.secret_key.expose_secret(), SECRET);
    assert!(settings.previous_secret_keys.is_empty());
    assert!(!settings.auto_link_by_email);
    assert!(settings.apple_team_id.is_none() && settings.apple_private_key_pem.is_none());
    assert_eq!(settings.server.bind, "127.0.0.1:8080");
    assert!(settings.server.trusted_proxies.is_empty());
    assert_eq!(settings.database.url, "sqlite://social-login.db?mode=rwc");
    assert!(settings.database.url.starts_with("sqlite:"));
    assert_eq!(settings.database.max_connections, 10);
    assert_eq!(
        settings.oauth_state_store.backend,
        StateStoreBackend::Memory
    );
    assert_eq!(
        settings.oauth_state_store.ttl(),
        time::Duration::minutes(10)
    );
    assert_eq!(settings.tokens.access_ttl(), time::Duration::minutes(15));
    assert_eq!(settings.tokens.refresh_ttl(), time::Duration::days(30));
    assert_eq!(
        settings.http.provider_timeout(),
        std::time::Duration::from_secs(10)
    );
    assert_eq!(settings.http.max_body_bytes, 65_536);
    assert_eq!(
        settings.http.header_read_timeout(),
        std::time::Duration::from_secs(10)
    );
    assert_eq!(
        settings.http.request_timeout(),
        std::time::Duration::from_secs(30)
    );
    assert_eq!(
        settings.http.body_read_timeout(),
        std::time::Duration::from_secs(5)
    );
    assert_eq!(settings.http.max_in_flight, 512);
    assert_eq!(settings.http.max_connections_per_ip, 64);
    assert_eq!(settings.http.max_concurrent_password_hashes, None);
    assert!(settings.rate_limit.enabled);
    assert_eq!(
        (settings.rate_limit.per_second, settings.rate_limit.burst),
        (10, 50)
    );
    assert_eq!(settings.rate_limit.ipv6_prefix, 64);
    assert_eq!(settings.server.public_url, None);
    assert_eq!(settings.tokens.issuer, None);
    assert_eq!(settings.issuer(), "social-login");
    assert_eq!(settings.enabled_providers().count(), 0);
}

#[test]
fn with_secret_key_builds_the_same_defaults_as_an_empty_file() {
    let built = Settings::with_secret_key(SECRET);
    let loaded = Settings::from_toml(&minimal_toml()).unwrap();
    assert_eq!(format!("{built:?}"), format!("{loaded:?}"));
}

#[test]
fn a_full_file_sets_every_field() {
    let settings = Settings::from_toml(&full_toml()).unwrap();
    assert_eq!(settings.previous_secret_keys.len(), 1);
    assert!(settings.auto_link_by_email);
    assert_eq!(settings.apple_team_id.as_deref(), Some("TEAM123456"));
    assert_eq!(settings.apple_key_id.as_deref(), Some("KEY1234567"));
    let pem = settings.apple_private_key_pem.as_ref().unwrap();
    assert_eq!(pem.expose_secret(), P256_PEM);
    assert_eq!(settings.server.bind_addr().unwrap().port(), 9000);
    let proxies: Vec<String> = settings
        .server
        .trusted_proxy_networks()
        .map(|network| network.to_string())
        .collect();
    assert_eq!(proxies, ["10.0.0.0/8", "2001:db8::1/128"]);
    assert!(!settings.database.url.starts_with("sqlite:"));
    assert_eq!(settings.database.max_connections, 20);
    assert_eq!(settings.oauth_state_store.backend, StateStoreBackend::Redis);
    assert_eq!(settings.oauth_state_store.ttl_seconds, 300);
    assert_eq!(settings.tokens.access_ttl_seconds, 600);
    assert_eq!(settings.http.max_body_bytes, 1024);
    assert_eq!(settings.http.header_read_timeout_seconds, 4);
    assert_eq!(settings.http.request_timeout_seconds, 20);
    assert_eq!(settings.http.body_read_timeout_seconds, 3);
    assert_eq!(settings.http.max_in_flight, 64);
    assert_eq!(settings.http.max_connections_per_ip, 32);
    assert_eq!(settings.http.max_concurrent_password_hashes, Some(3));
    assert!(!settings.rate_limit.enabled);
    assert_eq!(settings.rate_limit.ipv6_prefix, 56);
    assert_eq!(
        settings.server.public_url.as_deref(),
        Some("https://auth.example.com")
    );

    let github = settings.provider(ProviderKey::GITHUB).unwrap();
    assert_eq!(github.client_id, "gh-client");
    assert_eq!(
        github.client_secret.expose_secret(),
        "gh-client-secret-value"
    );
    assert_eq!(
        github.scopes.as_deref(),
        Some(&["read:user".to_owned(), "user:email".to_owned()][..])
    );
    assert!(github.pkce && github.enabled);
    assert_eq!(
        github.endpoints.emails.as_deref(),
        Some("https://api.github.example.com/user/emails")
    );
    let revocation = "https://api.github.example.com/applications/{client_id}/grant";
    assert_eq!(github.endpoints.revocation.as_deref(), Some(revocation));
    let adapter = github.adapter_settings();
    assert_eq!(adapter.endpoints.revocation.as_deref(), Some(revocation));
    assert!(!settings.provider(ProviderKey::LINKEDIN).unwrap().pkce);
    // Configured but disabled: present in the table, absent for the API.
    assert!(
        settings
            .oauth_providers
            .get(ProviderKey::MICROSOFT)
            .is_some()
    );
    assert!(settings.provider(ProviderKey::MICROSOFT).is_none());
    let enabled: Vec<ProviderKey> = settings.enabled_providers().map(|(key, _)| key).collect();
    assert_eq!(
        enabled,
        [
            ProviderKey::GITHUB,
            ProviderKey::LINKEDIN,
            ProviderKey::APPLE
        ]
    );
}

#[test]
fn a_provider_table_neither_built_in_nor_of_a_kind_is_an_error_naming_it() {
    let errors = validation_errors("[oauth_providers.gitea]\nclient_id = \"x\"\n");
    assert_eq!(
        errors.to_string(),
        "oauth_providers.gitea.kind: required: \"oidc\" or \"oauth2\""
    );
}

#[test]
fn provider_keys_are_case_sensitive_in_the_file() {
    let errors = validation_errors("[oauth_providers.GitHub]\nclient_id = \"x\"\n");
    assert!(errors.mentions("oauth_providers.GitHub"), "{errors}");
}

#[test]
fn an_unknown_key_at_the_top_inside_a_provider_or_its_endpoints_is_an_error_naming_it() {
    for (extra, key) in [
        ("secret_keys = []\n", "secret_keys"),
        (
            "[oauth_providers.github]\nclient_ld = \"x\"\n",
            "oauth_providers.github.client_ld",
        ),
        (
            "[oauth_providers.github.endpoints]\nauthorize = \"https://x\"\n",
            "oauth_providers.github.endpoints.authorize",
        ),
    ] {
        let errors = load_errors(extra);
        assert!(errors.mentions(key), "{key}: {errors}");
    }
}

#[test]
fn a_missing_secret_key_is_reported_by_name() {
    let errors = Settings::from_toml("auto_link_by_email = true\n").unwrap_err();
    assert!(errors.mentions("secret_key"), "{errors}");
}

#[test]
fn a_wrongly_typed_field_is_reported_by_its_path() {
    let errors = load_errors("[tokens]\naccess_ttl_seconds = \"soon\"\n");
    assert!(errors.mentions("tokens.access_ttl_seconds"), "{errors}");
    assert!(!errors.to_string().contains("soon"));
}

#[test]
fn a_toml_syntax_error_gives_its_position_but_not_the_line() {
    let toml = "secret_key = \"half-written-secret-value\nauto_link_by_email = true\n";
    let errors = Settings::from_toml(toml).unwrap_err();
    let text = errors.to_string();
    assert!(text.contains("line 1"), "{text}");
    assert!(!text.contains("half-written"), "{text}");
}

#[test]
fn a_secret_in_a_field_of_the_wrong_shape_is_not_echoed() {
    let errors = load_errors("previous_secret_keys = \"old-key-that-is-secret\"\n");
    assert!(errors.mentions("previous_secret_keys"), "{errors}");
    assert!(
        !errors.to_string().contains("old-key-that-is-secret"),
        "{errors}"
    );
}

#[test]
fn debug_output_hides_every_secret() {
    let mut settings = Settings::from_toml(&full_toml()).unwrap();
    settings.oauth_providers.insert(
        ProviderKey::GOOGLE,
        ProviderConfig::new("g-id", "google-client-secret-value", "https://a/cb"),
    );
    settings.webhooks.url = Some("https://hooks.example/in?token=hook-token-value".into());
    // A key pasted where its hash belongs.
    settings.admin.api_keys = vec!["pasted-admin-key-value".into()];
    settings.relay.service_keys = vec!["pasted-service-key-value".into()];
    let debug = format!("{settings:?}");
    for secret in [
        SECRET,
        "old-secret-key",
        "gh-client-secret-value",
        "li-client-secret-value",
        "google-client-secret-value",
        "MIGHAgEAMBMGByqGSM49",
        "db-password",
        "redis-password",
        "hook-token-value",
        "pasted-admin-key-value",
        "pasted-service-key-value",
    ] {
        assert!(!debug.contains(secret), "Debug leaks {secret}");
    }
    // Still useful: the non-secret parts are there.
    assert!(debug.contains("gh-client") && debug.contains("127.0.0.1:5432"));
    assert!(debug.contains("https://hooks.example/in"));
}

#[test]
fn every_problem_of_a_file_is_reported_at_once() {
    let toml = "secret_key = \"too-short\"\nsecret_keys = []\n\
                [oauth_providers.gitea]\nclient_id = \"x\"\n\
                [tokens]\naccess_ttl_seconds = \"soon\"\n\
                [oauth_providers.github]\nclient_ld = \"x\"\n";
    let errors = Settings::from_toml(toml).unwrap_err();
    for field in [
        "secret_key",
        "secret_keys",
        "oauth_providers.gitea.kind",
        "tokens.access_ttl_seconds",
        "oauth_providers.github.client_ld",
    ] {
        assert!(errors.mentions(field), "{field} missing from:\n{errors}");
    }
    assert!(!errors.to_string().contains("too-short"), "{errors}");
}

#[test]
fn a_missing_secret_key_does_not_hide_the_other_problems() {
    let toml = "unknown_key = 1\n[rate_limit]\nburst = 0\n";
    let errors = Settings::from_toml(toml).unwrap_err();
    assert!(errors.mentions("secret_key"), "{errors}");
    assert!(errors.mentions("unknown_key"), "{errors}");
    assert!(errors.mentions("rate_limit.burst"), "{errors}");
    assert_eq!(
        errors
            .problems()
            .iter()
            .filter(|problem| problem.field == "secret_key")
            .count(),
        1,
        "the stand-in is not reported as too short: {errors}"
    );
}
