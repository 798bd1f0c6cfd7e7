//! What the signal endpoints need from the configuration (docs/configuration.md): the RISC
//! endpoints only on google, as absolute http(s) URLs; and `[server] public_url` whenever
//! facebook is enabled, because the data deletion callback answers with a status URL built
//! from it (never from the request's `Host`).

use super::check_url;
use crate::settings::{ConfigErrors, Settings};
use social_login_domain::ProviderKey;

pub(super) fn check(settings: &Settings, errors: &mut ConfigErrors) {
    for (key, config) in settings.enabled_providers() {
        let endpoints = &config.endpoints;
        for (name, value, is_url) in [
            ("risc_jwks", &endpoints.risc_jwks, true),
            ("risc_issuer", &endpoints.risc_issuer, false),
        ] {
            let Some(value) = value else { continue };
            let field = format!("oauth_providers.{key}.endpoints.{name}");
            if key != ProviderKey::GOOGLE {
                errors.push(field, "only google sends Cross-Account Protection signals");
            } else if is_url {
                check_url(errors, &field, value, &["https", "http"]);
            } else if value.trim().is_empty() {
                errors.push(field, "must not be empty");
            }
        }
        if key == ProviderKey::FACEBOOK && settings.server.public_url.is_none() {
            errors.push(
                "server.public_url",
                "required when facebook is enabled: the data deletion callback answers with a \
                 status URL under it",
            );
        }
    }
}
