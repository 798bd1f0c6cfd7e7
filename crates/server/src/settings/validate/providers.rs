//! Rules and warnings for `[oauth_providers.*]` and the apple signing fields.

use super::{apple, check_url};
use crate::settings::{ConfigErrors, ProviderConfig, Settings};
use secrecy::ExposeSecret;
use social_login_domain::ProviderKey;
use url::{Host, Url};

pub(super) fn check(settings: &Settings, errors: &mut ConfigErrors) {
    for (key, config) in settings.enabled_providers() {
        check_provider(key, config, errors);
    }
    if settings.provider(ProviderKey::Apple).is_some() {
        apple::check(settings, errors);
    }
}

fn check_provider(key: ProviderKey, config: &ProviderConfig, errors: &mut ConfigErrors) {
    let field = |name: &str| format!("oauth_providers.{key}.{name}");
    if config.client_id.trim().is_empty() {
        errors.push(field("client_id"), "required for an enabled provider");
    }
    // Apple takes no static secret: the service signs a JWT per exchange (spec 4.7).
    if key != ProviderKey::Apple && config.client_secret.expose_secret().trim().is_empty() {
        errors.push(field("client_secret"), "required for an enabled provider");
    }
    check_redirect_uri(&field("redirect_uri"), &config.redirect_uri, errors);
    for (index, scope) in config.scopes.iter().flatten().enumerate() {
        // RFC 6749 §3.3: scope tokens are space-delimited, so one cannot hold whitespace.
        if scope.is_empty() || scope.chars().any(char::is_whitespace) {
            errors.push(
                format!("{}[{index}]", field("scopes")),
                "a scope must be non-empty and contain no whitespace",
            );
        }
    }
    for (name, value) in config.endpoints.iter() {
        let endpoint = field(&format!("endpoints.{name}"));
        match name {
            "emails" if key != ProviderKey::Github => {
                errors.push(endpoint, "only the github provider has an emails endpoint");
            }
            // Also the issuer: a URL even as microsoft's `…/{tenantid}/v2.0` template.
            _ => check_url(errors, &endpoint, value, &["https", "http"]),
        }
    }
}

fn check_redirect_uri(field: &str, value: &str, errors: &mut ConfigErrors) {
    check_url(errors, field, value, &["https", "http"]);
    // RFC 6749 §3.1.2: the redirection endpoint URI must not include a fragment.
    if Url::parse(value).is_ok_and(|url| url.fragment().is_some()) {
        errors.push(field, "must not contain a #fragment");
    }
}

pub(super) fn warnings(settings: &Settings) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut enabled = 0;
    for (key, config) in settings.enabled_providers() {
        enabled += 1;
        if !config.pkce {
            warnings.push(format!(
                "oauth_providers.{key}.pkce = false: PKCE (S256) is off for this provider; keep it \
                 only if the provider app rejects code_verifier"
            ));
        }
        if is_plain_http_off_loopback(&config.redirect_uri) {
            warnings.push(format!(
                "oauth_providers.{key}.redirect_uri uses plain http on a non-loopback host: \
                 authorization codes travel in clear text; use https in production"
            ));
        }
    }
    if enabled == 0 {
        warnings.push(
            "oauth_providers: no provider is enabled; only password accounts can sign in"
                .to_owned(),
        );
    }
    warnings
}

fn is_plain_http_off_loopback(redirect_uri: &str) -> bool {
    let Ok(url) = Url::parse(redirect_uri) else {
        return false;
    };
    let loopback = match url.host() {
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    url.scheme() == "http" && !loopback
}
