//! The sign-up policy's keys: `allow_signup` and `allowed_email_domains` in any provider's
//! table (built-in or from configuration), `[signup] password`, their defaults, the
//! environment, and the domain rule check-config reports.

use super::fixtures::{SECRET, full_toml};
use crate::settings::{ConfigErrors, ProviderConfig, Settings};
use social_login_domain::{EmailDomain, ProviderKey};

fn acme_sso() -> ProviderKey {
    "acme-sso".parse().unwrap()
}

fn with_policy() -> String {
    format!(
        r#"
secret_key = "{SECRET}"

[signup]
password = false

[oauth_providers.google]
client_id = "g-client"
client_secret = "g-client-secret-value"
redirect_uri = "https://app.example.com/auth/callback/google"
allowed_email_domains = ["acme.com", "acme.io"]

[oauth_providers.github]
client_id = "gh-client"
client_secret = "gh-client-secret-value"
redirect_uri = "https://app.example.com/auth/callback/github"
allow_signup = false

[oauth_providers.acme-sso]
kind = "oidc"
issuer = "https://sso.acme.example"
client_id = "acme-client"
client_secret = "acme-client-secret-value"
redirect_uri = "https://app.example.com/auth/callback/acme-sso"
trust_email_verified = true
allowed_email_domains = ["acme.com"]
"#
    )
}

fn table(settings: &Settings, key: ProviderKey) -> &ProviderConfig {
    settings.provider(key).expect("enabled")
}

#[test]
fn every_provider_table_takes_the_policy_and_password_sign_up_turns_off() {
    let settings = Settings::from_toml(&with_policy()).unwrap();
    settings.validate().unwrap();
    assert!(!settings.signup.password);
    let google = table(&settings, ProviderKey::GOOGLE);
    assert!(google.allow_signup, "default");
    assert_eq!(google.allowed_email_domains, ["acme.com", "acme.io"]);
    assert!(!table(&settings, ProviderKey::GITHUB).allow_signup);
    let policy = table(&settings, acme_sso()).signup_policy(false);
    assert_eq!(
        policy.allowed_email_domains,
        [EmailDomain::parse("acme.com").unwrap()]
    );
    assert!(policy.allow_signup && !policy.checks_hosted_domain);
}

#[test]
fn by_default_anyone_signs_up_by_password_and_by_every_provider() {
    let settings = Settings::from_toml(&full_toml()).unwrap();
    assert!(settings.signup.password);
    for (_, config) in settings.enabled_providers() {
        assert!(config.allow_signup);
        assert!(config.allowed_email_domains.is_empty());
    }
}

#[test]
fn the_environment_sets_the_policy_and_splits_the_domain_list() {
    let env = [
        ("SOCIAL_LOGIN__SIGNUP__PASSWORD", "true"),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__GOOGLE__ALLOWED_EMAIL_DOMAINS",
            "acme.com, acme.co.uk",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__ACME_SSO__ALLOW_SIGNUP",
            "false",
        ),
    ];
    let settings = Settings::from_toml_with_env(&with_policy(), env).unwrap();
    assert!(settings.signup.password);
    let google = table(&settings, ProviderKey::GOOGLE);
    assert_eq!(google.allowed_email_domains, ["acme.com", "acme.co.uk"]);
    assert!(!table(&settings, acme_sso()).allow_signup);
}

fn problems_with_domains(domains: &[&str]) -> ConfigErrors {
    let mut settings = Settings::from_toml(&with_policy()).unwrap();
    let google = settings
        .oauth_providers
        .get_mut(ProviderKey::GOOGLE)
        .unwrap();
    google.allowed_email_domains = domains.iter().map(|d| d.to_string()).collect();
    settings.validate().unwrap_err()
}

#[test]
fn each_domain_that_is_not_a_host_name_is_named_by_its_index() {
    let errors = problems_with_domains(&["acme.com", "@acme.com", "Acme.com", "acme", "ok.io"]);
    let field = "oauth_providers.google.allowed_email_domains";
    let named: Vec<_> = errors.problems().iter().map(|p| p.field.as_str()).collect();
    assert_eq!(named, [format!("{field}[1]"), format!("{field}[3]")]);
    let messages: Vec<_> = errors.problems().iter().map(|p| &p.message).collect();
    assert!(messages[0].contains("without `@`"), "{messages:?}");
    assert!(messages[1].contains("two labels"), "{messages:?}");
}

#[test]
fn a_domain_list_is_bounded() {
    let many: Vec<String> = (0..101).map(|n| format!("d{n}.example")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let errors = problems_with_domains(&many);
    assert!(errors.mentions("oauth_providers.google.allowed_email_domains"));
    assert_eq!(errors.problems().len(), 1, "{errors}");
}

#[test]
fn a_domain_list_that_can_admit_nobody_is_a_warning() {
    let mut settings = Settings::from_toml(&with_policy()).unwrap();
    let github = settings
        .oauth_providers
        .get_mut(ProviderKey::GITHUB)
        .unwrap();
    github.allowed_email_domains = vec!["acme.com".into()];
    let acme = settings.oauth_providers.get_mut(acme_sso()).unwrap();
    acme.trust_email_verified = None;
    settings.validate().unwrap();
    let warnings = settings.warnings();
    let about = |prefix: &str| warnings.iter().filter(|w| w.starts_with(prefix)).count();
    assert_eq!(about("oauth_providers.github.allowed_email_domains"), 1);
    assert_eq!(about("oauth_providers.acme-sso.allowed_email_domains"), 1);
    assert_eq!(about("oauth_providers.google"), 0, "{warnings:?}");
}
