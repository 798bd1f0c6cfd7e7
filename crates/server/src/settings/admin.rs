//! `[admin]`: the operator API's keys (docs/configuration.md#admin).

use super::ConfigErrors;
use serde::Deserialize;
use social_login_security::{AdminKeyHash, AdminKeys};

/// More keys than this is a mistake, not a team: each is compared on every admin request.
pub const MAX_ADMIN_KEYS: usize = 32;

/// `[admin]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdminSettings {
    /// `"sha256:<hex>"` of each key that may call `/admin/...` (`social-login gen-admin-key`
    /// prints a key and its hash). Empty: the operator API does not exist (404).
    pub api_keys: Vec<String>,
}

impl AdminSettings {
    /// The configured hashes that parse (all of them once validation passed).
    pub fn keys(&self) -> AdminKeys {
        AdminKeys::new(
            self.api_keys
                .iter()
                .filter_map(|hash| AdminKeyHash::parse(hash).ok())
                .collect(),
        )
    }

    pub(super) fn check(&self, errors: &mut ConfigErrors) {
        if self.api_keys.len() > MAX_ADMIN_KEYS {
            errors.push("admin.api_keys", format!("at most {MAX_ADMIN_KEYS} keys"));
        }
        for (index, hash) in self.api_keys.iter().enumerate() {
            if let Err(bad) = AdminKeyHash::parse(hash) {
                // The value is not repeated: someone may have pasted the key itself here.
                errors.push(format!("admin.api_keys[{index}]"), bad.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_key_is_named_by_position_and_never_repeated() {
        let (key, hash) = social_login_security::generate_admin_key();
        let settings = AdminSettings {
            api_keys: vec![hash.to_string(), key.clone()],
        };
        let mut errors = ConfigErrors::default();
        settings.check(&mut errors);
        let problems: Vec<String> = errors.problems().iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("admin.api_keys[1]"));
        assert!(!problems[0].contains(&key));
        assert_eq!(settings.keys().verify(&key), Some(hash.id()));
    }
}
