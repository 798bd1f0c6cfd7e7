//! The environment layer and the choice of file (docs/api.md#command-line).

use super::fixtures::{SECRET, full_toml, minimal_toml, no_env};
use crate::settings::{ConfigPath, Settings, StateStoreBackend};
use secrecy::ExposeSecret;
use social_login_domain::ProviderKey;
use std::path::{Path, PathBuf};

#[test]
fn the_environment_overrides_the_file() {
    let env = [
        (
            "SOCIAL_LOGIN__DATABASE__URL",
            "postgres://db.internal/social",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__GITHUB__CLIENT_SECRET",
            "from-env-secret",
        ),
        ("SOCIAL_LOGIN__SERVER__BIND", "127.0.0.1:0"),
        ("UNRELATED", "ignored"),
    ];
    let settings = Settings::from_toml_with_env(&full_toml(), env).unwrap();
    assert_eq!(settings.database.url, "postgres://db.internal/social");
    assert_eq!(settings.server.bind, "127.0.0.1:0");
    let github = settings.provider(ProviderKey::GITHUB).unwrap();
    assert_eq!(github.client_secret.expose_secret(), "from-env-secret");
    // The rest of the same table still comes from the file.
    assert_eq!(github.client_id, "gh-client");
}

#[test]
fn environment_strings_become_booleans_numbers_enums_and_lists() {
    let env = [
        ("SOCIAL_LOGIN__AUTO_LINK_BY_EMAIL", "true"),
        ("SOCIAL_LOGIN__RATE_LIMIT__ENABLED", "false"),
        ("SOCIAL_LOGIN__RATE_LIMIT__BURST", "7"),
        ("SOCIAL_LOGIN__TOKENS__ACCESS_TTL_SECONDS", "60"),
        ("SOCIAL_LOGIN__HTTP__MAX_BODY_BYTES", "2048"),
        ("SOCIAL_LOGIN__DATABASE__MAX_CONNECTIONS", "4"),
        ("SOCIAL_LOGIN__HTTP__MAX_CONCURRENT_PASSWORD_HASHES", "6"),
        ("SOCIAL_LOGIN__OAUTH_STATE_STORE__BACKEND", "redis"),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__GITHUB__SCOPES",
            "read:user, user:email,",
        ),
        ("SOCIAL_LOGIN__OAUTH_PROVIDERS__LINKEDIN__ENABLED", "false"),
        (
            "SOCIAL_LOGIN__PREVIOUS_SECRET_KEYS",
            "first-old-key,second-old-key",
        ),
        (
            "SOCIAL_LOGIN__SERVER__TRUSTED_PROXIES",
            "10.0.0.0/8, fd00::/8",
        ),
        ("SOCIAL_LOGIN__RELAY__SERVICE_KEYS", "sha256:aa,sha256:bb"),
        (
            "SOCIAL_LOGIN__WEBHOOKS__EVENTS",
            "user.registered,user.deleted",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__GITHUB__RELAY_BASE_URLS",
            "https://api.github.com/,https://uploads.github.com/",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__GITHUB__CONNECT_SCOPES",
            "repo,read:org",
        ),
    ];
    let settings = Settings::from_toml_with_env(&full_toml(), env).unwrap();
    assert!(settings.auto_link_by_email);
    assert!(!settings.rate_limit.enabled);
    assert_eq!(settings.rate_limit.burst, 7);
    assert_eq!(settings.tokens.access_ttl_seconds, 60);
    assert_eq!(settings.http.max_body_bytes, 2048);
    assert_eq!(settings.database.max_connections, 4);
    assert_eq!(settings.http.max_concurrent_password_hashes, Some(6));
    assert_eq!(settings.oauth_state_store.backend, StateStoreBackend::Redis);
    let scopes = settings
        .provider(ProviderKey::GITHUB)
        .unwrap()
        .scopes
        .clone();
    assert_eq!(
        scopes,
        Some(vec!["read:user".to_owned(), "user:email".to_owned()])
    );
    assert!(settings.provider(ProviderKey::LINKEDIN).is_none());
    let old: Vec<&str> = settings
        .previous_secret_keys
        .iter()
        .map(|k| k.expose_secret())
        .collect();
    assert_eq!(old, ["first-old-key", "second-old-key"]);
    assert_eq!(settings.server.trusted_proxies, ["10.0.0.0/8", "fd00::/8"]);
    assert_eq!(settings.relay.service_keys, ["sha256:aa", "sha256:bb"]);
    assert_eq!(
        settings.webhooks.events.as_deref(),
        Some(&["user.registered".to_owned(), "user.deleted".to_owned()][..])
    );
    let github = settings.provider(ProviderKey::GITHUB).unwrap();
    assert_eq!(
        github.relay_base_urls.as_deref(),
        Some(
            &[
                "https://api.github.com/".to_owned(),
                "https://uploads.github.com/".to_owned()
            ][..]
        )
    );
    assert_eq!(github.connect_scopes, ["repo", "read:org"]);
}

#[test]
fn numeric_looking_strings_from_the_environment_stay_exact() {
    let env = [
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__DISCORD__CLIENT_ID",
            "012345678901234567890123",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__DISCORD__CLIENT_SECRET",
            "1e10",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__DISCORD__REDIRECT_URI",
            "http://127.0.0.1/cb",
        ),
        ("SOCIAL_LOGIN__APPLE_TEAM_ID", "true"),
    ];
    let settings = Settings::from_toml_with_env(&minimal_toml(), env).unwrap();
    let discord = settings.provider(ProviderKey::DISCORD).unwrap();
    assert_eq!(discord.client_id, "012345678901234567890123");
    assert_eq!(discord.client_secret.expose_secret(), "1e10");
    assert_eq!(settings.apple_team_id.as_deref(), Some("true"));
}

#[test]
fn a_bad_number_in_the_environment_names_the_field_but_not_the_value() {
    let env = [("SOCIAL_LOGIN__TOKENS__REFRESH_TTL_SECONDS", "thirty-days")];
    let errors = Settings::from_toml_with_env(&minimal_toml(), env).unwrap_err();
    assert!(errors.mentions("tokens.refresh_ttl_seconds"), "{errors}");
    assert!(!errors.to_string().contains("thirty-days"));
}

#[test]
fn an_unknown_variable_with_the_prefix_is_an_error() {
    let env = [("SOCIAL_LOGIN__TOKENS__ACCESS_TTL", "60")];
    let errors = Settings::from_toml_with_env(&minimal_toml(), env).unwrap_err();
    assert!(errors.mentions("tokens.access_ttl"), "{errors}");

    // A provider key is open, so an unknown one is a provider without its kind.
    let env = [("SOCIAL_LOGIN__OAUTH_PROVIDERS__GITEA__CLIENT_ID", "x")];
    let settings = Settings::from_toml_with_env(&minimal_toml(), env).unwrap();
    let errors = settings.validate().unwrap_err();
    assert!(errors.mentions("oauth_providers.gitea.kind"), "{errors}");
}

#[test]
fn the_config_path_is_the_flag_then_the_variable_then_the_default() {
    let flag = Path::new("/etc/flag.toml");
    assert_eq!(
        ConfigPath::resolve(Some(flag), Some("/etc/env.toml".into())),
        ConfigPath::Named(flag.to_owned())
    );
    assert_eq!(
        ConfigPath::resolve(None, Some("/etc/env.toml".into())),
        ConfigPath::Named(PathBuf::from("/etc/env.toml"))
    );
    assert_eq!(
        ConfigPath::resolve(None, Some("".into())),
        ConfigPath::Default(PathBuf::from("social-login.toml"))
    );
    assert_eq!(
        ConfigPath::resolve(None, None),
        ConfigPath::Default(PathBuf::from("social-login.toml"))
    );
}

#[test]
fn a_file_named_by_the_variable_is_read_and_overridden_by_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conf.toml");
    std::fs::write(&path, full_toml()).unwrap();
    let env = [
        ("SOCIAL_LOGIN_CONFIG", path.to_str().unwrap()),
        ("SOCIAL_LOGIN__TOKENS__ACCESS_TTL_SECONDS", "30"),
    ];
    let settings = Settings::load_with_env(None, env).unwrap();
    assert_eq!(settings.server.bind, "0.0.0.0:9000");
    assert_eq!(settings.tokens.access_ttl_seconds, 30);
}

#[test]
fn an_explicitly_named_missing_file_is_an_error_even_if_the_environment_suffices() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("absent.toml");
    let env = [("SOCIAL_LOGIN__SECRET_KEY", SECRET)];
    let errors = Settings::load_with_env(Some(&missing), env).unwrap_err();
    assert!(errors.to_string().contains("not found"), "{errors}");
}

#[test]
fn a_missing_default_file_is_fine_when_the_environment_supplies_the_secret() {
    let dir = tempfile::tempdir().unwrap();
    let default = ConfigPath::Default(dir.path().join("social-login.toml"));
    let settings = Settings::load_from(&default, [("SOCIAL_LOGIN__SECRET_KEY", SECRET)]).unwrap();
    assert_eq!(settings.secret_key.expose_secret(), SECRET);
}

#[test]
fn a_missing_default_file_and_no_secret_reports_both() {
    let dir = tempfile::tempdir().unwrap();
    let default = ConfigPath::Default(dir.path().join("social-login.toml"));
    let errors = Settings::load_from(&default, no_env()).unwrap_err();
    assert!(errors.mentions("secret_key"), "{errors}");
    assert!(
        errors.to_string().contains("no configuration file"),
        "{errors}"
    );
}
