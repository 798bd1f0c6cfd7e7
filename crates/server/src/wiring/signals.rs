//! The verifiers of provider signals: one per endpoint of an enabled apple, facebook or
//! google (docs/api.md, "Signals from providers"). Apple's share the key-set cache of its
//! id_tokens (same JWKS URL); Google's RISC key set is its own setting.

use crate::settings::{ProviderConfig, Settings};
use crate::startup_error::StartupError;
use secrecy::ExposeSecret;
use social_login_app::SignalVerifiers;
use social_login_domain::{ProviderKey, SecretText};
use social_login_ports::Clock;
use social_login_provider_core::build_http_client;
use social_login_provider_signals::{
    APPLE_ISSUER, APPLE_JWKS_URL, AppleNotificationVerifier, FacebookSignalVerifier,
    GOOGLE_RISC_ISSUER, GOOGLE_RISC_JWKS_URL, GoogleRiscVerifier, JwsSignalSettings,
};
use std::sync::Arc;
use url::Url;

pub(super) fn signal_verifiers(
    settings: &Settings,
    clock: Arc<dyn Clock>,
) -> Result<SignalVerifiers, StartupError> {
    let http = &build_http_client(settings.http.provider_timeout())
        .map_err(|error| StartupError::Provider(error.to_string()))?;
    let mut verifiers = SignalVerifiers::new();
    for (key, config) in settings.enabled_providers() {
        let endpoints = &config.endpoints;
        match key {
            ProviderKey::APPLE => {
                let jws = jws_settings(
                    key,
                    config,
                    endpoints.jwks.as_deref().unwrap_or(APPLE_JWKS_URL),
                    endpoints.issuer.as_deref().unwrap_or(APPLE_ISSUER),
                )?;
                let apple = AppleNotificationVerifier::new(jws, http, clock.clone());
                verifiers = verifiers.with(Arc::new(apple));
            }
            ProviderKey::GOOGLE => {
                let jws = jws_settings(
                    key,
                    config,
                    endpoints
                        .risc_jwks
                        .as_deref()
                        .unwrap_or(GOOGLE_RISC_JWKS_URL),
                    endpoints
                        .risc_issuer
                        .as_deref()
                        .unwrap_or(GOOGLE_RISC_ISSUER),
                )?;
                let issuer = endpoints.issuer.as_deref();
                let risc = GoogleRiscVerifier::new(jws, issuer, http, clock.clone());
                verifiers = verifiers.with(Arc::new(risc));
            }
            ProviderKey::FACEBOOK => {
                let secret = || SecretText::new(config.client_secret.expose_secret());
                verifiers = verifiers
                    .with(Arc::new(FacebookSignalVerifier::data_deletion(
                        secret(),
                        clock.clone(),
                    )))
                    .with(Arc::new(FacebookSignalVerifier::deauthorize(
                        secret(),
                        clock.clone(),
                    )));
            }
            _ => {}
        }
    }
    Ok(verifiers)
}

/// The key set and issuer of a provider's signals, and this app's audiences: `client_id`
/// and `client_ids` (a native app's bundle id is what Apple's notifications name).
fn jws_settings(
    key: ProviderKey,
    config: &ProviderConfig,
    jwks: &str,
    issuer: &str,
) -> Result<JwsSignalSettings, StartupError> {
    let jwks = Url::parse(jwks).map_err(|error| {
        StartupError::Provider(format!(
            "oauth_providers.{key}: signal key set URL: {error}"
        ))
    })?;
    let mut audiences = vec![config.client_id.clone()];
    audiences.extend(config.client_ids.iter().cloned());
    Ok(JwsSignalSettings {
        jwks,
        issuer: issuer.to_owned(),
        audiences,
    })
}
