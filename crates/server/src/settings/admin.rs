//! `[admin]`: the operator API's keys (docs/configuration.md#admin).

use super::ConfigErrors;
use serde::Deserialize;
use social_login_security::{AdminKeyHash, AdminKeys};

/// More keys than this is a mistake, not a team: each is compared on every admin request.
pub const MAX_ADMIN_KEYS: usize = 32;

/// `[admin]`.
#[derive(derive_more::Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdminSettings {
    /// `"sha256:<hex>"` of each key that may call `/admin/...` (`social-login gen-admin-key`
    /// prints a key and its hash). Empty: the operator API does not exist (404). `Debug`
    /// counts them: a key pasted here by mistake must not show.
    #[debug("{} keys", api_keys.len())]
    pub api_keys: Vec<String>,
    /// Where `/admin/...` is served instead of `server.bind` (e.g. `127.0.0.1:9091`): set,
    /// the operator API answers on this listener only and is 404 on the public one.
    pub bind: Option<String>,
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

    /// The listener of its own, when `bind` is set and parses.
    pub fn bind_addr(&self) -> Option<std::net::SocketAddr> {
        self.bind.as_deref().and_then(|bind| bind.parse().ok())
    }

    pub(super) fn check(&self, errors: &mut ConfigErrors, server_bind: &str) {
        if let Some(bind) = &self.bind {
            if self.bind_addr().is_none() {
                errors.push(
                    "admin.bind",
                    "not a socket address (expected IP:port, e.g. 127.0.0.1:9091)",
                );
            } else if bind == server_bind && !bind.ends_with(":0") {
                errors.push("admin.bind", "must differ from server.bind");
            }
            if self.api_keys.is_empty() {
                errors.push(
                    "admin.bind",
                    "needs admin.api_keys: without a key there is no operator API to serve",
                );
            }
        }
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
            bind: None,
        };
        let mut errors = ConfigErrors::default();
        settings.check(&mut errors, "127.0.0.1:8080");
        let problems: Vec<String> = errors.problems().iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("admin.api_keys[1]"));
        assert!(!problems[0].contains(&key));
        assert_eq!(settings.keys().verify(&key), Some(hash.id()));
    }

    #[test]
    fn a_listener_of_its_own_is_an_address_apart_from_the_public_one_and_needs_a_key() {
        let (_, hash) = social_login_security::generate_admin_key();
        let problems = |bind: &str, keys: Vec<String>| {
            let settings = AdminSettings {
                api_keys: keys,
                bind: Some(bind.into()),
            };
            let mut errors = ConfigErrors::default();
            settings.check(&mut errors, "0.0.0.0:8080");
            errors
                .problems()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert!(problems("127.0.0.1:9091", vec![hash.to_string()]).is_empty());
        for (bind, keys) in [
            ("localhost", vec![hash.to_string()]),
            ("0.0.0.0:8080", vec![hash.to_string()]),
            ("127.0.0.1:9091", Vec::new()),
        ] {
            let found = problems(bind, keys);
            assert_eq!(found.len(), 1, "{bind}: {found:?}");
            assert!(found[0].contains("admin.bind"), "{found:?}");
        }
    }
}
