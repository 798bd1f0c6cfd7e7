//! Providers from configuration: loading their tables in order, from the file and the
//! environment, with every field of docs/configuration.md.

use super::fixtures::minimal_toml;
use crate::settings::{ProviderConfig, Settings, TokenEndpointAuth};
use secrecy::ExposeSecret;
use social_login_domain::{ProviderKey, ProviderKind};

mod rules;

/// An OpenID Connect provider with discovery, and an OAuth 2.0 one with explicit endpoints
/// and a nested userinfo document, between two built-in ones.
pub(super) const TABLES: &str = r#"
[oauth_providers.github]
client_id = "gh-client"
client_secret = "gh-secret"
redirect_uri = "https://app.example.com/auth/callback/github"

[oauth_providers.acme-sso]
kind = "oidc"
display_name = "Acme SSO"
issuer = "https://sso.acme.example/realms/main/"
client_id = "acme-client"
client_secret = "acme-secret"
redirect_uri = "https://app.example.com/auth/callback/acme-sso"
client_ids = ["com.acme.ios"]
id_token_nonce = "optional"

[oauth_providers.acme-sso.endpoints]
jwks = "https://keys.acme.example/jwks.json"

[oauth_providers.corp]
kind = "oauth2"
display_name = "Corp OAuth"
client_id = "corp-client"
client_secret = "corp-secret"
redirect_uri = "https://app.example.com/auth/callback/corp"
scopes = ["profile", "mail"]
token_endpoint_auth = "client_secret_post"
trust_email_verified = true

[oauth_providers.corp.claims]
subject = "/data/id"
email = "/data/attributes/mail"
email_verified = "/data/attributes/mail_confirmed"
name = "/data/attributes/display"
avatar_url = "/data/attributes/avatar/url"

[oauth_providers.corp.endpoints]
authorization = "https://corp.example.com/oauth/authorize"
token = "https://corp.example.com/oauth/token"
userinfo = "https://corp.example.com/api/me"
revocation = "https://corp.example.com/oauth/revoke"

[oauth_providers.discord]
client_id = "dc-client"
client_secret = "dc-secret"
redirect_uri = "https://app.example.com/auth/callback/discord"
"#;

pub(super) fn key(raw: &str) -> ProviderKey {
    raw.parse().unwrap()
}

fn load(env: &[(&str, &str)]) -> Settings {
    let toml = format!("{}{TABLES}", minimal_toml());
    Settings::from_toml_with_env(&toml, env.iter().copied()).unwrap()
}

fn enabled_keys(settings: &Settings) -> Vec<String> {
    settings
        .enabled_providers()
        .map(|(key, _)| key.to_string())
        .collect()
}

#[test]
fn both_kinds_load_with_every_field_of_their_tables() {
    let settings = load(&[]);
    let acme = settings.provider(key("acme-sso")).unwrap();
    assert_eq!(acme.kind, Some(ProviderKind::Oidc));
    assert_eq!(acme.display_name.as_deref(), Some("Acme SSO"));
    assert_eq!(
        acme.issuer.as_deref(),
        Some("https://sso.acme.example/realms/main/")
    );
    assert_eq!(acme.client_ids, ["com.acme.ios"]);
    assert_eq!(
        acme.endpoints.jwks.as_deref(),
        Some("https://keys.acme.example/jwks.json")
    );
    assert_eq!(acme.token_endpoint_auth, None);
    assert!(!acme.trusts_email_verified());
    assert_eq!(acme.claims, None);

    let corp = settings.provider(key("corp")).unwrap();
    assert_eq!(corp.kind, Some(ProviderKind::OAuth2));
    assert_eq!(corp.client_secret.expose_secret(), "corp-secret");
    assert_eq!(
        corp.token_endpoint_auth,
        Some(TokenEndpointAuth::ClientSecretPost)
    );
    assert!(corp.trusts_email_verified());
    let claims = corp.claims.as_ref().unwrap();
    assert_eq!(claims.subject.as_deref(), Some("/data/id"));
    assert_eq!(
        claims.avatar_url.as_deref(),
        Some("/data/attributes/avatar/url")
    );
    assert_eq!(
        corp.endpoints.revocation.as_deref(),
        Some("https://corp.example.com/oauth/revoke")
    );
    assert_eq!(
        corp.scopes.as_deref(),
        Some(&["profile".to_owned(), "mail".to_owned()][..])
    );
}

#[test]
fn providers_keep_the_order_of_the_configuration() {
    let settings = load(&[]);
    assert_eq!(
        enabled_keys(&settings),
        ["github", "acme-sso", "corp", "discord"]
    );
    // Disabling one leaves the others where they were.
    let settings = load(&[("SOCIAL_LOGIN__OAUTH_PROVIDERS__CORP__ENABLED", "false")]);
    assert_eq!(enabled_keys(&settings), ["github", "acme-sso", "discord"]);
}

#[test]
fn providers_set_only_in_the_environment_follow_the_files_alphabetically() {
    let mut env = Vec::new();
    for name in ["ZETA", "BETA_ID"] {
        for (field, value) in [
            ("KIND", "oidc"),
            ("ISSUER", "https://id.example.com"),
            ("CLIENT_ID", "id"),
            ("CLIENT_SECRET", "secret"),
            ("REDIRECT_URI", "https://app.example.com/cb"),
        ] {
            env.push((
                format!("SOCIAL_LOGIN__OAUTH_PROVIDERS__{name}__{field}"),
                value,
            ));
        }
    }
    let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let settings = load(&env);
    assert_eq!(
        enabled_keys(&settings),
        ["github", "acme-sso", "corp", "discord", "beta-id", "zeta"]
    );
}

#[test]
fn an_underscore_in_a_provider_key_from_the_environment_is_a_dash() {
    let env = [
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__ACME_SSO__CLIENT_SECRET",
            "from-env-secret",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__ACME_SSO__CLIENT_IDS",
            "com.acme.ios, com.acme.android",
        ),
        (
            "SOCIAL_LOGIN__OAUTH_PROVIDERS__CORP__CLAIMS__SUBJECT",
            "/data/uid",
        ),
    ];
    let settings = load(&env);
    let acme = settings.provider(key("acme-sso")).unwrap();
    assert_eq!(acme.client_secret.expose_secret(), "from-env-secret");
    assert_eq!(acme.client_ids, ["com.acme.ios", "com.acme.android"]);
    assert_eq!(
        acme.client_id, "acme-client",
        "the rest still from the file"
    );
    let corp = settings.provider(key("corp")).unwrap();
    let subject = corp.claims.as_ref().and_then(|c| c.subject.as_deref());
    assert_eq!(subject, Some("/data/uid"));
    // No table appeared under the underscored name.
    assert_eq!(settings.oauth_providers.tables().count(), 4);
}

#[test]
fn tables_set_in_code_replace_in_place_or_come_last() {
    let mut settings = load(&[]);
    let mut github = ProviderConfig::new("other", "secret", "https://app.example.com/cb");
    github.enabled = false;
    assert!(
        settings
            .oauth_providers
            .insert(ProviderKey::GITHUB, github)
            .is_some()
    );
    let zeta = ProviderConfig::generic(ProviderKind::Oidc, "z", "s", "https://a.example/cb");
    assert!(settings.oauth_providers.insert(key("zeta"), zeta).is_none());
    let removed = settings.oauth_providers.remove(ProviderKey::DISCORD);
    assert!(removed.is_some());
    let keys: Vec<&str> = settings.oauth_providers.tables().map(|(k, _)| k).collect();
    assert_eq!(keys, ["github", "acme-sso", "corp", "zeta"]);
    assert_eq!(enabled_keys(&settings), ["acme-sso", "corp", "zeta"]);
}

#[test]
fn an_unknown_key_inside_a_generic_table_or_its_claims_is_an_error_naming_it() {
    let toml = format!(
        "{}[oauth_providers.corp]\nkind = \"oauth2\"\ncliams = 1\n\
         [oauth_providers.acme.claims]\nemail_verfied = \"/v\"\n",
        minimal_toml()
    );
    let errors = Settings::from_toml(&toml).unwrap_err();
    assert!(errors.mentions("oauth_providers.corp.cliams"), "{errors}");
    assert!(
        errors.mentions("oauth_providers.acme.claims.email_verfied"),
        "{errors}"
    );
}

#[test]
fn an_unknown_kind_or_token_endpoint_auth_is_named_with_the_words_allowed() {
    let toml = format!(
        "{}[oauth_providers.gitlab]\nkind = \"saml\"\n\
         [oauth_providers.corp]\nkind = \"oauth2\"\ntoken_endpoint_auth = \"private_key_jwt\"\n",
        minimal_toml()
    );
    let errors = Settings::from_toml(&toml).unwrap_err();
    let lines: Vec<String> = errors
        .problems()
        .iter()
        .map(ToString::to_string)
        .filter(|line| line.starts_with("oauth_providers"))
        .collect();
    assert!(
        lines.contains(
            &"oauth_providers.gitlab.kind: unknown kind: must be \"oidc\" or \"oauth2\"".into()
        ),
        "{errors}"
    );
    assert!(
        lines.contains(
            &"oauth_providers.corp.token_endpoint_auth: must be \"client_secret_basic\" or \
              \"client_secret_post\""
                .into()
        ),
        "{errors}"
    );
    assert!(!errors.to_string().contains("saml"), "{errors}");
}

#[test]
fn a_generic_provider_built_in_code_has_the_documented_defaults() {
    let config = ProviderConfig::generic(ProviderKind::OAuth2, "id", "secret", "https://a/cb");
    assert_eq!(config.kind, Some(ProviderKind::OAuth2));
    assert!(config.enabled && config.pkce);
    assert!(!config.trusts_email_verified());
    assert_eq!(config.claims, None);
    assert_eq!(config.token_endpoint_auth, None);
}
