//! The `SOCIAL_LOGIN__A__B=value` environment layer as a `config` source.
//!
//! Not `config::Environment` with `try_parsing`: that guesses types from the text, so a numeric
//! client id `0123` became `123`, a 20-digit one a float, and a secret `true` a boolean. Here
//! every value stays a string and the `config` deserializer converts it only where the field
//! is a number or boolean. Only the list fields are split, on commas.

use super::ConfigErrors;
use config::{Map, Source, Value, ValueKind};
use std::ffi::OsString;
use std::fmt;

/// Prefix of the variables that override fields; `__` separates levels.
pub const ENV_PREFIX: &str = "SOCIAL_LOGIN__";

/// The prefixed variables, keyed by dotted lowercase path (`oauth_providers.github.scopes`).
#[derive(Clone, Default)]
pub(crate) struct EnvLayer {
    entries: Vec<(String, String)>,
}

impl EnvLayer {
    /// Keeps the variables named `SOCIAL_LOGIN__…`; a non-UTF-8 value of one is an error.
    pub(crate) fn collect<K, V>(
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, ConfigErrors>
    where
        K: Into<OsString>,
        V: Into<OsString>,
    {
        let mut layer = Self::default();
        let mut errors = ConfigErrors::default();
        for (name, value) in vars {
            let Ok(name) = name.into().into_string() else {
                continue; // not ours: ours are ASCII
            };
            let Some(path) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            let path = dashed_provider_key(&path.to_lowercase().replace("__", "."));
            match value.into().into_string() {
                Ok(value) => layer.entries.push((path, value)),
                Err(_) => errors.push(path, format!("{name} is not valid UTF-8")),
            }
        }
        // The process's variables come in no particular order: sorted, a provider defined
        // only here lands after the file's, at the same place on every start.
        layer.entries.sort();
        errors.into_result().map(|()| layer)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Provider keys cannot contain `_` but variable names cannot (portably) contain `-`: in
/// the segment after `oauth_providers`, `_` means `-` (`…__ACME_SSO__…` is `acme-sso`).
fn dashed_provider_key(path: &str) -> String {
    match path.split_once('.') {
        Some(("oauth_providers", rest)) => {
            let (key, fields) = rest.split_once('.').unwrap_or((rest, ""));
            let key = key.replace('_', "-");
            if fields.is_empty() {
                format!("oauth_providers.{key}")
            } else {
                format!("oauth_providers.{key}.{fields}")
            }
        }
        _ => path.to_owned(),
    }
}

/// Fields whose environment value is a comma-separated list.
fn is_list(path: &str) -> bool {
    if matches!(
        path,
        "previous_secret_keys"
            | "server.trusted_proxies"
            | "admin.api_keys"
            | "telemetry.traceparent_from"
            | "relay.service_keys"
            | "webhooks.events"
    ) {
        return true;
    }
    // oauth_providers.<key>.scopes, .client_ids, .allowed_email_domains, ...
    let segments: Vec<&str> = path.split('.').collect();
    matches!(
        segments.as_slice(),
        [
            "oauth_providers",
            _,
            "scopes"
                | "client_ids"
                | "allowed_email_domains"
                | "relay_base_urls"
                | "connect_scopes"
        ]
    )
}

fn split_list(value: &str) -> Vec<Value> {
    value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| Value::new(Some(&origin()), ValueKind::String(item.to_owned())))
        .collect()
}

fn origin() -> String {
    "the environment".to_owned()
}

impl Source for EnvLayer {
    fn clone_into_box(&self) -> Box<dyn Source + Send + Sync> {
        Box::new(self.clone())
    }

    fn collect(&self) -> Result<Map<String, Value>, config::ConfigError> {
        let origin = origin();
        Ok(self
            .entries
            .iter()
            .map(|(path, value)| {
                let kind = if is_list(path) {
                    ValueKind::Array(split_list(value))
                } else {
                    ValueKind::String(value.clone())
                };
                (path.clone(), Value::new(Some(&origin), kind))
            })
            .collect())
    }
}

/// `Source` requires `Debug`; the values are secrets, so print only the paths.
impl fmt::Debug for EnvLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|(path, _)| path))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_prefixed_variables_are_kept_with_dotted_lowercase_paths() {
        let layer = EnvLayer::collect([
            ("SOCIAL_LOGIN__OAUTH_STATE_STORE__TTL_SECONDS", "5"),
            ("SOCIAL_LOGIN_CONFIG", "/etc/x.toml"),
            ("PATH", "/bin"),
        ])
        .unwrap();
        assert_eq!(
            layer.entries,
            vec![("oauth_state_store.ttl_seconds".to_owned(), "5".to_owned())]
        );
    }

    #[test]
    fn an_underscore_in_the_provider_key_segment_means_a_dash_and_nowhere_else() {
        let layer = EnvLayer::collect([
            (
                "SOCIAL_LOGIN__OAUTH_PROVIDERS__ACME_SSO__CLIENT_SECRET",
                "s",
            ),
            (
                "SOCIAL_LOGIN__OAUTH_PROVIDERS__K8S-SSO__TOKEN_ENDPOINT_AUTH",
                "x",
            ),
            ("SOCIAL_LOGIN__OAUTH_STATE_STORE__TTL_SECONDS", "5"),
        ])
        .unwrap();
        let paths: Vec<&str> = layer
            .entries
            .iter()
            .map(|(path, _)| path.as_str())
            .collect();
        assert_eq!(
            paths,
            [
                "oauth_providers.acme-sso.client_secret",
                "oauth_providers.k8s-sso.token_endpoint_auth",
                "oauth_state_store.ttl_seconds",
            ]
        );
    }

    #[test]
    fn debug_output_shows_paths_but_not_values() {
        let layer = EnvLayer::collect([("SOCIAL_LOGIN__SECRET_KEY", "very-secret-value")]).unwrap();
        let debug = format!("{layer:?}");
        assert!(debug.contains("secret_key"));
        assert!(!debug.contains("very-secret-value"));
    }

    #[test]
    fn scopes_and_previous_keys_are_lists_and_nothing_else_is() {
        assert!(is_list("previous_secret_keys"));
        assert!(is_list("server.trusted_proxies"));
        assert!(is_list("admin.api_keys"));
        assert!(is_list("oauth_providers.github.scopes"));
        assert!(is_list("oauth_providers.apple.client_ids"));
        assert!(!is_list("oauth_providers.github.client_secret"));
        assert!(!is_list("scopes"));
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_value_is_reported_by_field_without_its_bytes() {
        use std::os::unix::ffi::OsStringExt;
        let value = OsString::from_vec(vec![0x73, 0xff, 0x65]);
        let errors =
            EnvLayer::collect([(OsString::from("SOCIAL_LOGIN__SECRET_KEY"), value)]).unwrap_err();
        assert!(errors.mentions("secret_key"));
    }
}
