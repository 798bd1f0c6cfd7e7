//! The sections of the configuration that check themselves: each rule names its field.

use super::super::proxies::check_proxy_networks;
use super::super::{
    DatabaseSettings, HttpSettings, RateLimitSettings, ServerSettings, TokenSettings,
};
use super::{
    ConfigErrors, MAX_BODY_BYTES, MAX_DATABASE_CONNECTIONS, MAX_REAUTHENTICATION_SECONDS,
    MIN_IPV6_PREFIX, check_public_url, check_seconds, check_token_claims, check_url,
};

impl ServerSettings {
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        if self.bind_addr().is_err() {
            errors.push(
                "server.bind",
                "not a socket address (expected IP:port, e.g. 127.0.0.1:8080)",
            );
        }
        if let Some(public_url) = &self.public_url {
            check_public_url(errors, public_url);
        }
        check_proxy_networks(errors, "server.trusted_proxies", &self.trusted_proxies);
        if self.shutdown_delay_seconds > MAX_SHUTDOWN_DELAY_SECONDS {
            errors.push(
                "server.shutdown_delay_seconds",
                format!("must be between 0 and {MAX_SHUTDOWN_DELAY_SECONDS}"),
            );
        }
    }
}

/// A longer wait would outlast any orchestrator's grace period.
const MAX_SHUTDOWN_DELAY_SECONDS: u64 = 60;

impl DatabaseSettings {
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        check_url(
            errors,
            "database.url",
            &self.url,
            &["sqlite", "postgres", "postgresql"],
        );
        if !(1..=MAX_DATABASE_CONNECTIONS).contains(&self.max_connections) {
            errors.push(
                "database.max_connections",
                format!("must be between 1 and {MAX_DATABASE_CONNECTIONS}"),
            );
        }
    }
}

impl TokenSettings {
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        for (field, seconds) in [
            ("tokens.access_ttl_seconds", self.access_ttl_seconds),
            ("tokens.refresh_ttl_seconds", self.refresh_ttl_seconds),
            (
                "tokens.refresh_family_max_seconds",
                self.refresh_family_max_seconds,
            ),
        ] {
            check_seconds(errors, field, seconds);
        }
        if !(1..=MAX_REAUTHENTICATION_SECONDS).contains(&self.reauthentication_seconds) {
            errors.push(
                "tokens.reauthentication_seconds",
                format!(
                    "must be between 1 and {MAX_REAUTHENTICATION_SECONDS} (a day): a login \
                     older than that is not recent"
                ),
            );
        }
        check_token_claims(errors, self);
    }
}

impl HttpSettings {
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        if !(1..=MAX_BODY_BYTES).contains(&self.max_body_bytes) {
            errors.push(
                "http.max_body_bytes",
                format!("must be between 1 and {MAX_BODY_BYTES} (16 MiB)"),
            );
        }
        for (field, seconds) in [
            (
                "http.provider_timeout_seconds",
                self.provider_timeout_seconds,
            ),
            (
                "http.header_read_timeout_seconds",
                self.header_read_timeout_seconds,
            ),
            ("http.request_timeout_seconds", self.request_timeout_seconds),
            (
                "http.body_read_timeout_seconds",
                self.body_read_timeout_seconds,
            ),
        ] {
            check_seconds(errors, field, seconds);
        }
        if self.max_in_flight == 0 {
            errors.push("http.max_in_flight", "must be at least 1");
        }
        if self.max_connections_per_ip == 0 {
            errors.push("http.max_connections_per_ip", "must be at least 1");
        }
        if self.max_concurrent_password_hashes == Some(0) {
            errors.push(
                "http.max_concurrent_password_hashes",
                "must be at least 1 (or unset: one per CPU)",
            );
        }
    }
}

impl RateLimitSettings {
    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        // A disabled limiter's numbers are never used: no reason to reject them.
        if self.enabled {
            if self.per_second == 0 {
                errors.push("rate_limit.per_second", "must be greater than 0");
            }
            if self.burst == 0 {
                errors.push("rate_limit.burst", "must be at least 1");
            }
        }
        // Checked even with the limiter off: the connection limit keys clients the same way.
        if !(MIN_IPV6_PREFIX..=128).contains(&self.ipv6_prefix) {
            errors.push(
                "rate_limit.ipv6_prefix",
                format!("must be between {MIN_IPV6_PREFIX} and 128 (64: one subscriber's network)"),
            );
        }
        if self.password_attempts_per_account == 0 {
            errors.push(
                "rate_limit.password_attempts_per_account",
                "must be at least 1",
            );
        }
    }
}
