//! Validation: each rule names its field, all problems come together, warnings, no leaks.

use super::fixtures::{P384_PEM, SECRET, full_toml};
use crate::settings::{ProviderConfig, Settings, StateStoreBackend};
use secrecy::{ExposeSecret, SecretString};
use social_login_domain::ProviderKey;

fn valid() -> Settings {
    Settings::from_toml(&full_toml()).unwrap()
}

fn github(settings: &mut Settings) -> &mut ProviderConfig {
    settings
        .oauth_providers
        .get_mut(ProviderKey::GITHUB)
        .unwrap()
}

fn problems_of(change: impl FnOnce(&mut Settings)) -> crate::settings::ConfigErrors {
    let mut settings = valid();
    change(&mut settings);
    settings.validate().unwrap_err()
}

#[test]
fn the_full_sample_and_the_defaults_are_valid() {
    valid().validate().unwrap();
    Settings::with_secret_key(SECRET).validate().unwrap();
}

#[test]
fn every_rule_reports_the_field_it_checks() {
    type Change = fn(&mut Settings);
    let cases: Vec<(&str, Change)> = vec![
        ("secret_key", |s| s.secret_key = "short".into()),
        ("secret_key", |s| s.secret_key = "x".repeat(64).into()),
        ("secret_key", |s| {
            s.secret_key = "REPLACE-ME-run-social-login-gen-secret-0000".into()
        }),
        ("previous_secret_keys[1]", |s| {
            s.previous_secret_keys.push("short".into())
        }),
        ("server.bind", |s| s.server.bind = "localhost:8080".into()),
        ("server.trusted_proxies[0]", |s| {
            s.server.trusted_proxies = vec!["10.0.0.0/33".into()]
        }),
        ("database.url", |s| s.database.url = "mysql://db/x".into()),
        ("database.url", |s| s.database.url = "not a url".into()),
        ("database.max_connections", |s| {
            s.database.max_connections = 0
        }),
        ("database.max_connections", |s| {
            s.database.max_connections = 1001
        }),
        ("oauth_state_store.url", |s| s.oauth_state_store.url = None),
        ("oauth_state_store.url", |s| {
            s.oauth_state_store.url = Some("http://r".into())
        }),
        ("oauth_state_store.ttl_seconds", |s| {
            s.oauth_state_store.ttl_seconds = 0
        }),
        ("oauth_state_store.key_prefix", |s| {
            s.oauth_state_store.key_prefix = String::new()
        }),
        ("oauth_state_store.key_prefix", |s| {
            s.oauth_state_store.key_prefix = "has space:".into()
        }),
        ("oauth_state_store.key_prefix", |s| {
            s.oauth_state_store.key_prefix = "p".repeat(65)
        }),
        ("tokens.access_ttl_seconds", |s| {
            s.tokens.access_ttl_seconds = 0
        }),
        ("tokens.refresh_ttl_seconds", |s| {
            s.tokens.refresh_ttl_seconds = u64::MAX
        }),
        ("tokens.refresh_family_max_seconds", |s| {
            s.tokens.refresh_family_max_seconds = 0
        }),
        ("tokens.reauthentication_seconds", |s| {
            s.tokens.reauthentication_seconds = 0
        }),
        ("tokens.reauthentication_seconds", |s| {
            s.tokens.reauthentication_seconds = 86_401
        }),
        ("tokens.audience", |s| {
            s.tokens.audience = Some(String::new())
        }),
        ("tokens.audience", |s| {
            s.tokens.audience = Some("api\n".into())
        }),
        ("http.provider_timeout_seconds", |s| {
            s.http.provider_timeout_seconds = 0
        }),
        ("http.max_body_bytes", |s| s.http.max_body_bytes = 0),
        ("http.max_body_bytes", |s| {
            s.http.max_body_bytes = 16 * 1024 * 1024 + 1
        }),
        ("http.header_read_timeout_seconds", |s| {
            s.http.header_read_timeout_seconds = 0
        }),
        ("http.request_timeout_seconds", |s| {
            s.http.request_timeout_seconds = 0
        }),
        ("http.body_read_timeout_seconds", |s| {
            s.http.body_read_timeout_seconds = 0
        }),
        ("http.max_in_flight", |s| s.http.max_in_flight = 0),
        ("http.max_connections_per_ip", |s| {
            s.http.max_connections_per_ip = 0
        }),
        ("http.max_concurrent_password_hashes", |s| {
            s.http.max_concurrent_password_hashes = Some(0)
        }),
        ("rate_limit.per_second", |s| {
            s.rate_limit.enabled = true;
            s.rate_limit.per_second = 0;
        }),
        ("rate_limit.burst", |s| {
            s.rate_limit.enabled = true;
            s.rate_limit.burst = 0;
        }),
        ("rate_limit.ipv6_prefix", |s| s.rate_limit.ipv6_prefix = 31),
        ("rate_limit.ipv6_prefix", |s| s.rate_limit.ipv6_prefix = 129),
        ("oauth_providers.github.client_id", |s| {
            github(s).client_id = " ".into()
        }),
        ("oauth_providers.github.client_secret", |s| {
            github(s).client_secret = "".into()
        }),
        ("oauth_providers.github.redirect_uri", |s| {
            github(s).redirect_uri = "/cb".into()
        }),
        ("oauth_providers.github.redirect_uri", |s| {
            github(s).redirect_uri = String::new()
        }),
        ("oauth_providers.github.redirect_uri", |s| {
            github(s).redirect_uri = "https://app/cb#frag".into();
        }),
        ("oauth_providers.github.scopes[1]", |s| {
            github(s).scopes = Some(vec!["ok".into(), "two words".into()]);
        }),
        ("oauth_providers.github.endpoints.token", |s| {
            github(s).endpoints.token = Some("ftp://x/token".into());
        }),
        ("oauth_providers.linkedin.endpoints.emails", |s| {
            let linkedin = s.oauth_providers.get_mut(ProviderKey::LINKEDIN);
            linkedin.unwrap().endpoints.emails = Some("https://x/e".into());
        }),
        ("oauth_providers.github.endpoints.revocation", |s| {
            github(s).endpoints.revocation = Some("javascript:alert(1)".into());
        }),
        ("oauth_providers.microsoft.endpoints.revocation", |s| {
            let microsoft = s.oauth_providers.get_mut(ProviderKey::MICROSOFT).unwrap();
            microsoft.enabled = true;
            microsoft.endpoints.revocation = Some("https://login.example.com/revoke".into());
        }),
        ("oauth_providers.apple.client_id", |s| {
            s.oauth_providers
                .get_mut(ProviderKey::APPLE)
                .unwrap()
                .client_id = String::new();
        }),
        ("oauth_providers.github.client_ids", |s| {
            github(s).client_ids = vec!["gh-ios".into()];
        }),
        ("oauth_providers.apple.client_ids[1]", |s| {
            let apple = s.oauth_providers.get_mut(ProviderKey::APPLE).unwrap();
            apple.client_ids = vec!["com.example.ios".into(), "two words".into()];
        }),
        ("oauth_providers.apple.client_ids", |s| {
            let apple = s.oauth_providers.get_mut(ProviderKey::APPLE).unwrap();
            apple.client_ids = (0..17).map(|i| format!("com.example.app{i}")).collect();
        }),
        ("apple_team_id", |s| s.apple_team_id = None),
        ("apple_key_id", |s| s.apple_key_id = Some(String::new())),
        ("apple_private_key_pem", |s| s.apple_private_key_pem = None),
        ("apple_private_key_pem", |s| {
            s.apple_private_key_pem = Some(SecretString::from(P384_PEM));
        }),
    ];
    for (field, change) in cases {
        let errors = problems_of(change);
        assert!(errors.mentions(field), "expected {field}, got:\n{errors}");
    }
}

#[test]
fn each_malformed_issuer_and_public_url_is_reported_by_its_field() {
    let long_issuer = "i".repeat(257);
    let bad_issuers = ["", "my issuer", long_issuer.as_str()];
    let bad_public_urls = [
        "",
        "auth.example.com",
        "https://auth.example.com/#top",
        "https://user:pw@auth.example.com",
        "https://auth.example.com/a b",
    ];
    // Neither may be a URL of another scheme or carry a query.
    let bad_for_both = [
        "ftp://auth.example.com",
        "https://auth.example.com/?tenant=1",
    ];
    for value in bad_issuers.into_iter().chain(bad_for_both) {
        let errors = problems_of(|s| s.tokens.issuer = Some(value.into()));
        assert!(errors.mentions("tokens.issuer"), "{value:?}:\n{errors}");
    }
    for value in bad_public_urls.into_iter().chain(bad_for_both) {
        let errors = problems_of(|s| s.server.public_url = Some(value.into()));
        assert!(errors.mentions("server.public_url"), "{value:?}:\n{errors}");
    }
}

#[test]
fn a_valid_microsoft_issuer_template_and_an_empty_apple_secret_are_accepted() {
    let mut settings = valid();
    settings
        .oauth_providers
        .get_mut(ProviderKey::MICROSOFT)
        .unwrap()
        .enabled = true;
    let apple = settings.oauth_providers.get(ProviderKey::APPLE).unwrap();
    assert!(apple.client_secret.expose_secret().is_empty());
    assert_eq!(apple.client_ids, ["com.example.ios"]);
    settings.validate().unwrap();
}

#[test]
fn the_issuer_is_the_configured_one_else_the_public_url_else_social_login() {
    let mut settings = Settings::with_secret_key(SECRET);
    assert_eq!(settings.issuer(), "social-login");
    settings.server.public_url = Some("https://auth.example.com/".into());
    settings.validate().unwrap();
    assert_eq!(settings.issuer(), "https://auth.example.com");
    settings.tokens.issuer = Some("urn:example:auth".into());
    settings.validate().unwrap();
    assert_eq!(settings.issuer(), "urn:example:auth");
    assert_eq!(valid().tokens.audience.as_deref(), Some("api.example.com"));
    assert_eq!(Settings::with_secret_key(SECRET).tokens.audience, None);
}

#[test]
fn absolute_urls_are_built_on_the_public_url_path_included() {
    let mut settings = Settings::with_secret_key(SECRET);
    assert_eq!(
        settings.server.public_url_for("/.well-known/jwks.json"),
        None
    );
    for (public_url, jwks_uri) in [
        (
            "https://auth.example.com",
            "https://auth.example.com/.well-known/jwks.json",
        ),
        (
            "https://auth.example.com/",
            "https://auth.example.com/.well-known/jwks.json",
        ),
        (
            "http://127.0.0.1:8080/auth",
            "http://127.0.0.1:8080/auth/.well-known/jwks.json",
        ),
    ] {
        settings.server.public_url = Some(public_url.into());
        settings.validate().unwrap();
        assert_eq!(
            settings
                .server
                .public_url_for("/.well-known/jwks.json")
                .as_deref(),
            Some(jwks_uri),
            "{public_url}"
        );
    }
}

#[test]
fn a_missing_or_plain_http_public_url_is_a_warning() {
    let warns_about_public_url = |public_url: Option<&str>| {
        let mut settings = valid();
        settings.server.public_url = public_url.map(str::to_owned);
        settings.validate().unwrap();
        settings
            .warnings()
            .iter()
            .any(|warning| warning.starts_with("server.public_url"))
    };
    assert!(warns_about_public_url(None));
    assert!(warns_about_public_url(Some("http://auth.example.com")));
    assert!(!warns_about_public_url(Some("https://auth.example.com")));
    for loopback in [
        "http://127.0.0.1:8080",
        "http://localhost:8080",
        "http://[::1]:8080",
    ] {
        assert!(!warns_about_public_url(Some(loopback)), "{loopback}");
    }
}

#[test]
fn several_problems_are_all_reported_one_per_line() {
    let errors = problems_of(|s| {
        s.secret_key = "short".into();
        s.server.bind = "nowhere".into();
        s.tokens.access_ttl_seconds = 0;
        github(s).redirect_uri = "relative".into();
        s.apple_team_id = None;
    });
    for field in [
        "secret_key",
        "server.bind",
        "tokens.access_ttl_seconds",
        "oauth_providers.github.redirect_uri",
        "apple_team_id",
    ] {
        assert!(errors.mentions(field), "missing {field} in:\n{errors}");
    }
    assert_eq!(errors.problems().len(), 5, "{errors}");
    assert_eq!(errors.to_string().lines().count(), 5);
}

#[test]
fn every_bad_trusted_proxy_is_reported_by_its_index() {
    let errors = problems_of(|s| {
        s.server.trusted_proxies = vec![
            "10.0.0.0/8".into(),
            "fd00::/8".into(),
            "10.0.0.0/33".into(),
            "192.0.2.10".into(),
            "proxy.internal".into(),
        ];
    });
    let fields: Vec<&str> = errors.problems().iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        ["server.trusted_proxies[2]", "server.trusted_proxies[4]"]
    );
    assert_eq!(
        errors.to_string().lines().next(),
        Some(
            "server.trusted_proxies[2]: not an IP address or CIDR: the prefix length is over 32 \
             for IPv4"
        )
    );
}

#[test]
fn disabled_providers_and_a_disabled_rate_limit_are_not_checked() {
    let mut settings = valid();
    let microsoft = settings
        .oauth_providers
        .get_mut(ProviderKey::MICROSOFT)
        .unwrap();
    microsoft.redirect_uri = "garbage".into();
    microsoft.client_id = String::new();
    // Apple disabled: its signing fields are no longer required.
    settings
        .oauth_providers
        .get_mut(ProviderKey::APPLE)
        .unwrap()
        .enabled = false;
    settings.apple_team_id = None;
    settings.apple_private_key_pem = None;
    settings.rate_limit.enabled = false;
    settings.rate_limit.per_second = 0;
    settings.validate().unwrap();
}

#[test]
fn the_memory_store_needs_no_url() {
    let mut settings = valid();
    settings.oauth_state_store.backend = StateStoreBackend::Memory;
    settings.oauth_state_store.url = None;
    settings.validate().unwrap();
}

#[test]
fn problems_never_quote_the_values_they_reject() {
    let errors = problems_of(|s| {
        s.secret_key = "tiny-secret".into();
        s.previous_secret_keys = vec!["tiny-old".into()];
        s.database.url = "mysql://user:db-pass@h/x".into();
        s.oauth_state_store.url = Some("http://:redis-pass@h".into());
        s.apple_private_key_pem = Some(SecretString::from("-----BEGIN PRIVATE KEY-----\nAAAA"));
        s.server.trusted_proxies = vec!["pasted-secret/24".into()];
    });
    let text = errors.to_string();
    for value in [
        "tiny-secret",
        "tiny-old",
        "db-pass",
        "redis-pass",
        "AAAA",
        "pasted-secret",
    ] {
        assert!(!text.contains(value), "{value} leaked in:\n{text}");
    }
}

#[test]
fn pkce_off_plain_http_and_no_provider_are_warnings_not_errors() {
    let mut settings = valid();
    github(&mut settings).redirect_uri = "http://app.example.com/cb".into();
    settings.validate().unwrap();
    let warnings = settings.warnings();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("oauth_providers.linkedin.pkce"))
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("oauth_providers.github.redirect_uri"))
    );
    assert_eq!(warnings.len(), 2, "{warnings:?}");

    let bare = Settings::with_secret_key(SECRET);
    assert_eq!(bare.warnings().len(), 2, "{:?}", bare.warnings());
    assert!(bare.warnings()[0].contains("no provider is enabled"));
    assert!(bare.warnings()[1].starts_with("server.public_url is not set"));
}

#[test]
fn pkce_off_for_a_provider_that_requires_it_is_ignored_and_the_warning_says_so() {
    let mut settings = Settings::with_secret_key(SECRET);
    let mut twitter = ProviderConfig::new("x-client", "x-secret", "https://app.example.com/cb");
    twitter.pkce = false;
    settings
        .oauth_providers
        .insert(ProviderKey::TWITTER, twitter);
    settings.validate().unwrap();
    let warnings = settings.warnings();
    let about_x: Vec<&String> = warnings
        .iter()
        .filter(|w| w.starts_with("oauth_providers.twitter"))
        .collect();
    assert_eq!(about_x.len(), 1, "{warnings:?}");
    assert!(
        about_x[0].starts_with("oauth_providers.twitter.pkce = false is ignored: X requires"),
        "{warnings:?}"
    );
}

#[test]
fn a_pool_size_on_sqlite_is_a_warning_and_on_postgres_is_not() {
    let mut settings = Settings::with_secret_key(SECRET);
    settings.database.max_connections = 25;
    settings.validate().unwrap();
    assert!(
        settings
            .warnings()
            .iter()
            .any(|w| w.starts_with("database.max_connections has no effect on SQLite")),
        "{:?}",
        settings.warnings()
    );
    settings.database.url = "postgres://db.internal/social".into();
    assert!(
        !settings
            .warnings()
            .iter()
            .any(|w| w.starts_with("database.max_connections")),
        "{:?}",
        settings.warnings()
    );
    assert_eq!(settings.database.options().max_connections, 25);
}

#[test]
fn a_loopback_http_redirect_is_not_a_warning() {
    let mut settings = Settings::with_secret_key(SECRET);
    settings.oauth_providers.insert(
        ProviderKey::GITHUB,
        ProviderConfig::new("id", "secret", "http://127.0.0.1:8080/auth/callback/github"),
    );
    settings.server.public_url = Some("http://127.0.0.1:8080".into());
    settings.validate().unwrap();
    assert!(settings.warnings().is_empty(), "{:?}", settings.warnings());
}

#[test]
fn the_rate_limit_interval_is_the_inverse_of_per_second() {
    let mut settings = Settings::with_secret_key(SECRET);
    assert_eq!(
        settings.rate_limit.replenish_interval(),
        std::time::Duration::from_millis(100)
    );
    settings.rate_limit.per_second = 1;
    assert_eq!(
        settings.rate_limit.replenish_interval(),
        std::time::Duration::from_secs(1)
    );
    // Past a billion per second the interval would round to zero: it stays 1 ns.
    settings.rate_limit.per_second = u64::MAX;
    assert_eq!(
        settings.rate_limit.replenish_interval(),
        std::time::Duration::from_nanos(1)
    );
}

#[test]
fn the_shipped_example_configuration_is_valid_once_its_secret_is_replaced() {
    let example = include_str!("../../../../../examples/social-login.toml");
    let mut settings = Settings::from_toml(example).unwrap();
    // Copied as it is, the example's placeholder secret is refused by name.
    let errors = settings.validate().unwrap_err();
    assert!(errors.mentions("secret_key"), "{errors}");
    assert!(errors.to_string().contains("gen-secret"), "{errors}");
    assert_eq!(errors.problems().len(), 1, "{errors}");
    settings.secret_key = social_login_security::generate_secret_key().into();
    settings.validate().unwrap();
    assert!(settings.warnings().is_empty(), "{:?}", settings.warnings());
    assert!(settings.provider(ProviderKey::GITHUB).is_some());
    assert!(settings.database.url.starts_with("sqlite:"));
}

#[test]
fn secret_keys_hands_over_current_then_previous() {
    let settings = valid();
    let (current, previous) = settings.secret_keys();
    assert_eq!(current.expose(), SECRET);
    assert_eq!(previous.len(), 1);
    assert_eq!(
        previous[0].expose(),
        settings.previous_secret_keys[0].expose_secret()
    );
}

#[test]
fn webhook_settings_name_each_bad_field_and_never_quote_the_secret() {
    use social_login_domain::AuditEventType;
    let errors = problems_of(|s| {
        s.webhooks.url = Some("ftp://hooks.example.com".into());
        s.webhooks.secret = Some("whsec_not-base64-pasted!".into());
        s.webhooks.events = Some(vec!["user.login".into(), "user.exploded".into()]);
    });
    let text = errors.to_string();
    for field in ["webhooks.url", "webhooks.secret", "webhooks.events[1]"] {
        assert!(text.contains(field), "{field} missing in:\n{text}");
    }
    assert!(!text.contains("webhooks.events[0]"));
    assert!(!text.contains("not-base64-pasted"));
    for every in AuditEventType::ALL {
        assert!(text.contains(every.as_str()), "the message lists {every:?}");
    }

    let none = problems_of(|s| {
        s.webhooks.url = Some("https://hooks.example.com/in".into());
        s.webhooks.secret = Some(super::fixtures::WEBHOOK.into());
        s.webhooks.events = Some(Vec::new());
    });
    assert!(none.to_string().contains("webhooks.events"), "{none}");

    let missing = problems_of(|s| s.webhooks.url = Some("https://hooks.example.com/in".into()));
    assert!(missing.to_string().contains("webhooks.secret"));
    let orphan = problems_of(|s| s.webhooks.secret = Some(super::fixtures::WEBHOOK.into()));
    assert!(orphan.to_string().contains("webhooks.url"));
}

#[test]
fn a_shutdown_delay_is_at_most_a_minute() {
    let errors = problems_of(|s| s.server.shutdown_delay_seconds = 61);
    assert!(
        errors.to_string().contains("server.shutdown_delay_seconds"),
        "{errors}"
    );
    let mut settings = valid();
    settings.server.shutdown_delay_seconds = 60;
    settings.validate().unwrap();
}

#[test]
fn a_webhook_url_with_a_control_character_is_refused() {
    // The URL parser would drop the newline and deliver somewhere else than written.
    let errors = problems_of(|s| {
        s.webhooks.url = Some("https://hooks.example.com/in\n.evil".into());
        s.webhooks.secret = Some(super::fixtures::WEBHOOK.into());
    });
    assert!(
        errors
            .to_string()
            .contains("webhooks.url: must not contain control"),
        "{errors}"
    );
}

#[test]
fn a_plain_http_webhook_receiver_off_loopback_is_a_warning() {
    let warned = |url: &str| {
        let mut settings = valid();
        settings.webhooks.url = Some(url.into());
        settings.webhooks.secret = Some(super::fixtures::WEBHOOK.into());
        settings.validate().unwrap();
        let warnings = settings.warnings();
        warnings
            .iter()
            .any(|w| w.starts_with("webhooks.url uses plain http"))
    };
    assert!(warned("http://hooks.example.com/in"));
    assert!(!warned("http://127.0.0.1:9000/in"));
    assert!(!warned("https://hooks.example.com/in"));
}

#[test]
fn a_request_deadline_not_above_the_provider_timeout_is_a_warning() {
    let warned = |request: u64, provider: u64| {
        let mut settings = valid();
        settings.http.request_timeout_seconds = request;
        settings.http.provider_timeout_seconds = provider;
        settings.validate().unwrap();
        let warnings = settings.warnings();
        warnings
            .iter()
            .any(|w| w.starts_with("http.request_timeout_seconds is not above"))
    };
    assert!(warned(10, 10));
    assert!(warned(5, 10));
    assert!(!warned(30, 10));
}

#[test]
fn a_valid_webhook_target_carries_the_chosen_events_or_all() {
    use social_login_domain::{AuditEventType, EventSet};
    let mut settings = valid();
    assert!(settings.webhooks.target().is_none(), "none configured");
    settings.webhooks.url = Some("https://hooks.example.com/in".into());
    settings.webhooks.secret = Some(super::fixtures::WEBHOOK.into());
    settings.validate().unwrap();
    assert_eq!(settings.webhooks.target().unwrap().events, EventSet::all());
    settings.webhooks.events = Some(vec!["user.deleted".into()]);
    let events = settings.webhooks.target().unwrap().events;
    assert!(events.contains(AuditEventType::UserDeleted));
    assert!(!events.contains(AuditEventType::UserLogin));
    assert!(!format!("{settings:?}").contains(super::fixtures::WEBHOOK));
}

fn facebook() -> ProviderConfig {
    ProviderConfig::new(
        "fb-app",
        "fb-app-secret-value",
        "https://app.example.com/auth/callback/facebook",
    )
}

#[test]
fn facebook_needs_a_public_url_for_its_data_deletion_status_url() {
    let errors = problems_of(|s| {
        s.oauth_providers.insert(ProviderKey::FACEBOOK, facebook());
        s.server.public_url = None;
    });
    assert!(errors.mentions("server.public_url"), "{errors}");
    let mut settings = valid();
    settings
        .oauth_providers
        .insert(ProviderKey::FACEBOOK, facebook());
    settings.validate().unwrap();
    // A disabled facebook answers nothing, so it needs no public URL.
    settings.server.public_url = None;
    settings.tokens.issuer = Some("https://auth.example.com".into());
    let facebook = settings
        .oauth_providers
        .get_mut(ProviderKey::FACEBOOK)
        .unwrap();
    facebook.enabled = false;
    settings.validate().unwrap();
}

#[test]
fn the_risc_endpoints_belong_to_google_and_its_key_set_is_a_url() {
    let mut settings = valid();
    let mut google = ProviderConfig::new(
        "g-client",
        "g-secret-value",
        "https://app.example.com/cb/google",
    );
    google.endpoints.risc_jwks = Some("https://keys.example.com/risc".into());
    google.endpoints.risc_issuer = Some("https://accounts.example.com/".into());
    settings.oauth_providers.insert(ProviderKey::GOOGLE, google);
    settings.validate().unwrap();

    for (field, change) in [
        (
            "oauth_providers.github.endpoints.risc_jwks",
            (|s: &mut Settings| {
                github(s).endpoints.risc_jwks = Some("https://keys.example.com/risc".into());
            }) as fn(&mut Settings),
        ),
        ("oauth_providers.github.endpoints.risc_issuer", |s| {
            github(s).endpoints.risc_issuer = Some("https://accounts.example.com/".into());
        }),
        ("oauth_providers.google.endpoints.risc_jwks", |s| {
            let mut google =
                ProviderConfig::new("g", "g-secret-value", "https://app.example.com/cb");
            google.endpoints.risc_jwks = Some("not a url".into());
            s.oauth_providers.insert(ProviderKey::GOOGLE, google);
        }),
        ("oauth_providers.google.endpoints.risc_issuer", |s| {
            let mut google =
                ProviderConfig::new("g", "g-secret-value", "https://app.example.com/cb");
            google.endpoints.risc_issuer = Some(" ".into());
            s.oauth_providers.insert(ProviderKey::GOOGLE, google);
        }),
    ] {
        let errors = problems_of(change);
        assert!(errors.mentions(field), "expected {field}, got:\n{errors}");
    }
}
