//! Validation of a loaded `Settings`: every rule, every problem, each naming its field.

mod provider_tables;
mod providers;
mod secret_strength;
mod sections;
mod signals;
mod signup;
mod state_store;

use super::{ConfigErrors, Settings};
use secrecy::ExposeSecret;
use social_login_persistence::DatabaseOptions;
use social_login_provider_core::settings_check::url_problem;
use url::Url;

/// Minimum length, in bytes, of `secret_key` and of each previous key.
pub const MIN_SECRET_KEY_BYTES: usize = 32;

/// The largest `http.max_body_bytes`: far above any request of this API (a relayed upload
/// is at most 1 MiB), and a bound on what one request may make an instance hold.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Upper bound of `database.max_connections`: PostgreSQL's own default limit is 100 for the
/// whole server, so more than this from one instance is a typo.
pub const MAX_DATABASE_CONNECTIONS: u32 = 1000;

/// Shortest `rate_limit.ipv6_prefix`: a /32 is already a whole provider's allocation, so
/// anything shorter would put unrelated networks in one bucket.
const MIN_IPV6_PREFIX: u8 = 32;

/// Upper bound of every `*_seconds` field (ten years): keeps `now + ttl` far from overflow.
const MAX_SECONDS: u64 = 10 * 365 * 24 * 3600;
/// `[tokens] reauthentication_seconds` at most: a login a day old is not a recent one.
const MAX_REAUTHENTICATION_SECONDS: u64 = 24 * 3600;

impl Settings {
    /// Checks every rule of `docs/configuration.md` and reports all problems at once.
    pub fn validate(&self) -> Result<(), ConfigErrors> {
        let mut errors = ConfigErrors::default();
        self.check_secret_keys(&mut errors);
        self.server.check(&mut errors);
        self.database.check(&mut errors);
        self.oauth_state_store.check(&mut errors);
        self.tokens.check(&mut errors);
        self.http.check(&mut errors);
        self.rate_limit.check(&mut errors);
        providers::check(self, &mut errors);
        signals::check(self, &mut errors);
        signup::check(self, &mut errors);
        self.webhooks.check(&mut errors);
        self.admin.check(&mut errors, &self.server.bind);
        self.relay.check(&mut errors);
        self.audit.check(&mut errors);
        self.telemetry.check(&mut errors);
        errors.into_result()
    }

    /// What `check-config` and start-up run: today exactly [`Self::validate`].
    pub fn validate_for_this_build(&self) -> Result<(), ConfigErrors> {
        self.validate()
    }

    /// Legal but risky choices, for start-up to log (never a value, only field paths).
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = providers::warnings(self);
        warnings.extend(signup::warnings(self));
        warnings.extend(public_url_warnings(&self.server));
        let webhook = self.webhooks.url.as_deref();
        if webhook.is_some_and(providers::is_plain_http_off_loopback) {
            warnings.push(
                "webhooks.url uses plain http on a non-loopback host: events (user ids, IP \
                 addresses, user agents) travel in clear text; use https"
                    .to_owned(),
            );
        }
        let http = &self.http;
        if http.request_timeout_seconds <= http.provider_timeout_seconds {
            warnings.push(
                "http.request_timeout_seconds is not above http.provider_timeout_seconds: a \
                 request waiting on a slow provider ends (408) before the provider's call does, \
                 and a key set fetch cut off so is never counted as failed"
                    .to_owned(),
            );
        }
        let database = &self.database;
        if database.is_sqlite()
            && database.max_connections != DatabaseOptions::DEFAULT_MAX_CONNECTIONS
        {
            warnings.push(
                "database.max_connections has no effect on SQLite, which always uses exactly \
                 one connection"
                    .to_owned(),
            );
        }
        warnings
    }

    fn check_secret_keys(&self, errors: &mut ConfigErrors) {
        let too_short =
            |key: &secrecy::SecretString| key.expose_secret().len() < MIN_SECRET_KEY_BYTES;
        if too_short(&self.secret_key) {
            errors.push(
                "secret_key",
                format!(
                    "must be at least {MIN_SECRET_KEY_BYTES} bytes (make one with `social-login gen-secret`)"
                ),
            );
        } else if let Some(weakness) = secret_strength::weakness(self.secret_key.expose_secret()) {
            // Old keys are not checked: moving a weak key there is how one rotates off it.
            let why = match weakness {
                secret_strength::Weakness::Placeholder => "is a placeholder from an example",
                secret_strength::Weakness::Predictable => {
                    "is too predictable to be random (under 128 bits estimated)"
                }
            };
            errors.push(
                "secret_key",
                format!("{why}; make one with `social-login gen-secret`"),
            );
        }
        for (index, key) in self.previous_secret_keys.iter().enumerate() {
            if too_short(key) {
                errors.push(
                    format!("previous_secret_keys[{index}]"),
                    format!("must be at least {MIN_SECRET_KEY_BYTES} bytes"),
                );
            }
        }
    }
}

/// Longest `[tokens] issuer` or `audience`: they travel in every access token.
const MAX_CLAIM_LEN: usize = 256;

fn plain_claim(value: &str) -> bool {
    !value.is_empty() && value.len() <= MAX_CLAIM_LEN && value.bytes().all(|b| b.is_ascii_graphic())
}

fn check_token_claims(errors: &mut ConfigErrors, tokens: &super::TokenSettings) {
    let rule = format!("must be 1 to {MAX_CLAIM_LEN} printable ASCII characters without spaces");
    if let Some(issuer) = &tokens.issuer {
        if !plain_claim(issuer) {
            errors.push("tokens.issuer", rule.clone());
        } else if issuer.contains("://") && !is_base_url(issuer) {
            // An OpenID-style issuer is an http(s) URL without query or fragment.
            errors.push(
                "tokens.issuer",
                "a URL issuer must be an http(s) URL without query or fragment, e.g. \"https://auth.example.com\"",
            );
        }
    }
    if let Some(audience) = &tokens.audience
        && !plain_claim(audience)
    {
        errors.push("tokens.audience", rule);
    }
}

/// An absolute http(s) URL with a host and no user info, query or fragment: one that can be
/// extended with a path.
fn is_base_url(value: &str) -> bool {
    // The URL parser drops tabs and newlines without a word: refuse them before it does.
    !value.chars().any(char::is_control)
        && Url::parse(value).is_ok_and(|url| {
            matches!(url.scheme(), "http" | "https")
                && url.host().is_some()
                && url.username().is_empty()
                && url.password().is_none()
                && url.query().is_none()
                && url.fragment().is_none()
        })
}

/// `server.public_url` is also the default issuer, so it follows the issuer's text rule.
fn check_public_url(errors: &mut ConfigErrors, public_url: &str) {
    if !plain_claim(public_url) || !is_base_url(public_url) {
        errors.push(
            "server.public_url",
            format!(
                "must be an absolute http(s) URL without user info, query or fragment, at most {MAX_CLAIM_LEN} characters, e.g. \"https://auth.example.com\""
            ),
        );
    }
}

/// The `server.public_url` warnings: none set (no discovery document), or plain http to a
/// host other than loopback (tokens and codes would travel in clear).
pub(super) fn public_url_warnings(server: &super::ServerSettings) -> Option<String> {
    let Some(configured) = &server.public_url else {
        return Some(
            "server.public_url is not set: /.well-known/openid-configuration answers 404 \
             (set it to the address clients reach the service at, e.g. \
             https://auth.example.com)"
                .to_owned(),
        );
    };
    let url = Url::parse(configured).ok()?;
    let loopback = match url.host()? {
        url::Host::Domain(domain) => domain.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(address) => address.is_loopback(),
        url::Host::Ipv6(address) => address.is_loopback(),
    };
    (url.scheme() == "http" && !loopback).then(|| {
        "server.public_url is plain http on a host other than loopback: clients would send \
         tokens in clear text"
            .to_owned()
    })
}

fn check_seconds(errors: &mut ConfigErrors, field: &str, value: u64) {
    if value == 0 || value > MAX_SECONDS {
        errors.push(
            field,
            format!("must be between 1 and {MAX_SECONDS} (ten years)"),
        );
    }
}

/// A required absolute URL with one of `schemes`. Never echoes the URL: it may hold a password.
pub(super) fn check_url(errors: &mut ConfigErrors, field: &str, value: &str, schemes: &[&str]) {
    if let Some(problem) = url_problem(value, schemes) {
        errors.push(field, problem);
    }
}
