//! `[relay]`: calls to providers' APIs made for users (docs/configuration.md#relay).

use super::ConfigErrors;
use serde::Deserialize;
use social_login_app::RelayPolicy;
use social_login_security::{AdminKeyHash, AdminKeys};
use std::time::Duration;

/// More service keys than this is a mistake: each is compared on every relayed call.
pub const MAX_SERVICE_KEYS: usize = 32;
/// The longest answer a relayed call may pass back, whatever is configured.
const MAX_RESPONSE_CAP: u64 = 1 << 30;

/// `[relay]`.
#[derive(derive_more::Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RelaySettings {
    /// Off by default: no `/relay/...` route answers but 404.
    pub enabled: bool,
    /// `"sha256:<hex>"` of each key a backend may relay with for any user (with
    /// `Social-Login-User`); `social-login gen-admin-key` prints a key and its hash. `Debug`
    /// counts them, as the admin keys.
    #[debug("{} keys", service_keys.len())]
    pub service_keys: Vec<String>,
    /// Longest answer passed back (10 MiB by default).
    pub max_response_bytes: u64,
    /// Each call to the provider, and each refresh, must finish within this.
    pub timeout_seconds: u64,
}

impl Default for RelaySettings {
    fn default() -> Self {
        let policy = RelayPolicy::default();
        Self {
            enabled: policy.enabled,
            service_keys: Vec::new(),
            max_response_bytes: policy.max_response_bytes,
            timeout_seconds: policy.timeout.as_secs(),
        }
    }
}

impl RelaySettings {
    /// The configured service keys' hashes that parse (all of them once validation passed).
    pub fn service_keys(&self) -> AdminKeys {
        AdminKeys::new(
            self.service_keys
                .iter()
                .filter_map(|hash| AdminKeyHash::parse(hash).ok())
                .collect(),
        )
    }

    pub fn policy(&self) -> RelayPolicy {
        RelayPolicy {
            enabled: self.enabled,
            timeout: Duration::from_secs(self.timeout_seconds),
            max_response_bytes: self.max_response_bytes,
        }
    }

    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        if self.service_keys.len() > MAX_SERVICE_KEYS {
            errors.push(
                "relay.service_keys",
                format!("at most {MAX_SERVICE_KEYS} keys"),
            );
        }
        for (index, hash) in self.service_keys.iter().enumerate() {
            if let Err(bad) = AdminKeyHash::parse(hash) {
                // The value is not repeated: someone may have pasted the key itself here.
                errors.push(format!("relay.service_keys[{index}]"), bad.to_string());
            }
        }
        if !(1..=MAX_RESPONSE_CAP).contains(&self.max_response_bytes) {
            errors.push(
                "relay.max_response_bytes",
                format!("must be between 1 and {MAX_RESPONSE_CAP}"),
            );
        }
        if !(1..=120).contains(&self.timeout_seconds) {
            errors.push("relay.timeout_seconds", "must be between 1 and 120");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(settings: &RelaySettings) -> Vec<String> {
        let mut errors = ConfigErrors::default();
        settings.check(&mut errors);
        errors.problems().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_defaults_are_off_and_valid() {
        let settings = RelaySettings::default();
        assert!(!settings.enabled);
        assert_eq!(settings.max_response_bytes, 10 * 1024 * 1024);
        assert!(problems(&settings).is_empty());
    }

    #[test]
    fn a_pasted_key_a_zero_bound_and_an_endless_timeout_are_named_without_the_key() {
        let (key, hash) = social_login_security::generate_admin_key();
        let settings = RelaySettings {
            enabled: true,
            service_keys: vec![hash.to_string(), key.clone()],
            max_response_bytes: 0,
            timeout_seconds: 0,
        };
        let problems = problems(&settings);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("relay.service_keys[1]"));
        assert!(problems.iter().all(|problem| !problem.contains(&key)));
        assert!(problems[1].contains("relay.max_response_bytes"));
        assert!(problems[2].contains("relay.timeout_seconds"));
        assert_eq!(settings.service_keys().verify(&key), Some(hash.id()));
    }
}
