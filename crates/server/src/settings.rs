//! The typed configuration of the server (docs/configuration.md): one `Settings`, loaded once from
//! defaults < TOML file < `SOCIAL_LOGIN__…` environment, then validated as a whole at start-up.
//!
//! Loading only checks shape and types (unknown keys are errors); [`Settings::validate`] checks
//! every rule and reports every problem at once, each naming its field, so `check-config` and
//! `serve` print the full list instead of failing one field at a time.

mod admin;
mod declared;
mod discovery_check;
mod env;
mod errors;
mod generic;
mod load;
mod oauth_providers;
mod providers;
mod proxies;
mod redact;
mod relay;
mod salvage;
mod sections;
mod server;
mod telemetry;
#[cfg(test)]
mod tests;
mod validate;
mod webhooks;

use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use social_login_domain::{ProviderKey, SecretText};
use social_login_provider_core::{ProviderSettings, SigningKey};

pub use admin::{AdminSettings, MAX_ADMIN_KEYS};
pub use declared::Declared;
pub use discovery_check::discovery_check;
pub use env::ENV_PREFIX;
pub use errors::{ConfigErrors, ConfigProblem};
pub use generic::{ClaimsConfig, DEFAULT_OIDC_SCOPES, TokenEndpointAuth};
pub use load::{CONFIG_PATH_ENV, ConfigPath, DEFAULT_CONFIG_FILE};
pub use oauth_providers::OAuthProviders;
pub use providers::{IdTokenNonce, LinkingConfig, ProviderConfig};
pub use proxies::BadProxyEntry;
pub use relay::{MAX_SERVICE_KEYS, RelaySettings};
pub use sections::{
    AuditSettings, DEFAULT_ISSUER, DatabaseSettings, HttpSettings, OAuthStateStoreSettings,
    RateLimitSettings, SignupSettings, StateStoreBackend, TokenSettings,
};
pub use server::ServerSettings;
pub use social_login_provider_core::EndpointOverrides;
pub use telemetry::TelemetrySettings;
pub use validate::MIN_SECRET_KEY_BYTES;
pub use webhooks::{WebhookSettings, WebhookTarget};

/// The whole configuration file of docs/configuration.md.
///
/// `Debug` is safe to log: every secret is a [`SecretString`] (printed as `[REDACTED]`) and the
/// database, Redis and OTLP collector URLs print with their password masked.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Root secret (≥ 32 bytes): token encryption and session signing keys derive from it.
    pub secret_key: SecretString,
    /// Former `secret_key`s, accepted only to decrypt and verify while rotating.
    #[serde(default)]
    pub previous_secret_keys: Vec<SecretString>,
    /// docs/api.md#linking-rules: link a provider login to the existing user with the same verified email.
    #[serde(default)]
    pub auto_link_by_email: bool,
    /// Apple Team ID, `iss` of the client-secret JWT (required when apple is enabled).
    pub apple_team_id: Option<String>,
    /// Apple key ID, `kid` of the client-secret JWT (required when apple is enabled).
    pub apple_key_id: Option<String>,
    /// The `.p8` PKCS#8 P-256 private key that signs Apple's client secret.
    pub apple_private_key_pem: Option<SecretString>,
    #[serde(default)]
    pub server: ServerSettings,
    #[serde(default)]
    pub database: DatabaseSettings,
    #[serde(default)]
    pub oauth_state_store: OAuthStateStoreSettings,
    #[serde(default)]
    pub tokens: TokenSettings,
    #[serde(default)]
    pub http: HttpSettings,
    #[serde(default)]
    pub rate_limit: RateLimitSettings,
    #[serde(default)]
    pub oauth_providers: OAuthProviders,
    #[serde(default)]
    pub webhooks: WebhookSettings,
    #[serde(default)]
    pub signup: SignupSettings,
    /// How long audit events are kept.
    #[serde(default)]
    pub audit: AuditSettings,
    /// The operator API's keys (off without any).
    #[serde(default)]
    pub admin: AdminSettings,
    /// Calls to providers' APIs made for users (off by default).
    #[serde(default)]
    pub relay: RelaySettings,
    /// Traces over OTLP/HTTP (off by default).
    #[serde(default)]
    pub telemetry: TelemetrySettings,
}

impl Settings {
    /// Settings with every default and the given `secret_key`: a starting point for tests and
    /// for the demo, which then fill in providers and URLs.
    pub fn with_secret_key(secret_key: impl Into<String>) -> Self {
        Self {
            secret_key: SecretString::from(secret_key.into()),
            previous_secret_keys: Vec::new(),
            auto_link_by_email: false,
            apple_team_id: None,
            apple_key_id: None,
            apple_private_key_pem: None,
            server: ServerSettings::default(),
            database: DatabaseSettings::default(),
            oauth_state_store: OAuthStateStoreSettings::default(),
            tokens: TokenSettings::default(),
            http: HttpSettings::default(),
            rate_limit: RateLimitSettings::default(),
            oauth_providers: OAuthProviders::default(),
            webhooks: WebhookSettings::default(),
            signup: SignupSettings::default(),
            audit: AuditSettings::default(),
            admin: AdminSettings::default(),
            relay: RelaySettings::default(),
            telemetry: TelemetrySettings::default(),
        }
    }

    /// `secret_key` and `previous_secret_keys` as the security adapters take them.
    pub fn secret_keys(&self) -> (SecretText, Vec<SecretText>) {
        let text = |key: &SecretString| SecretText::new(key.expose_secret());
        let previous = self.previous_secret_keys.iter().map(text).collect();
        (text(&self.secret_key), previous)
    }

    /// The `iss` of access tokens: `[tokens] issuer`, else `server.public_url`, else
    /// [`DEFAULT_ISSUER`].
    pub fn issuer(&self) -> String {
        match (&self.tokens.issuer, self.server.public_base()) {
            (Some(issuer), _) => issuer.clone(),
            (None, Some(base)) => base.to_owned(),
            (None, None) => DEFAULT_ISSUER.to_owned(),
        }
    }

    /// `key`'s table as its adapter takes it; Apple's also carries the team's signing key,
    /// which is a setting of the service.
    pub fn adapter_settings(&self, key: ProviderKey, config: &ProviderConfig) -> ProviderSettings {
        let mut provider = config.adapter_settings();
        if key == ProviderKey::APPLE {
            // Empty when unset: the Apple adapter's settings check names what is missing.
            let pem = self.apple_private_key_pem.as_ref();
            provider.signing = Some(SigningKey {
                team_id: self.apple_team_id.clone().unwrap_or_default(),
                key_id: self.apple_key_id.clone().unwrap_or_default(),
                private_key_pem: SecretText::new(
                    pem.map(|pem| pem.expose_secret()).unwrap_or_default(),
                ),
            });
        }
        provider
    }

    /// The configured providers whose `enabled` is true, in configuration order.
    pub fn enabled_providers(&self) -> impl Iterator<Item = (ProviderKey, &ProviderConfig)> {
        self.oauth_providers.enabled()
    }

    /// The configuration of `key` if it is configured and enabled; `None` is 404
    /// `OAuthProviderNotConfigured` (docs/api.md#provider-keys).
    pub fn provider(&self, key: ProviderKey) -> Option<&ProviderConfig> {
        self.oauth_providers
            .get(key)
            .filter(|config| config.enabled)
    }
}
