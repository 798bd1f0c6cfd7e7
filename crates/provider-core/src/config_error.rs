//! Start-up failures of an adapter, and the URL and text checks that can cause them.

use url::Url;

/// An adapter could not be built from its settings. The message names the field, so the
/// operator can fix the configuration; it never repeats the secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderConfigError {
    #[error("{field} is not a valid absolute http(s) URL")]
    InvalidUrl { field: &'static str },
    #[error("{field} must not be empty")]
    Missing { field: &'static str },
    /// A value of the wrong kind (Apple's signing key); `reason` is a fixed text, never
    /// the value or a parser's view of it.
    #[error("{field} is invalid: {reason}")]
    Invalid {
        field: &'static str,
        reason: &'static str,
    },
}

/// Only `http` and `https` are accepted: anything else (`file:`, `javascript:`) cannot be a
/// provider endpoint and is a configuration mistake worth stopping for.
/// Parses `raw` as an absolute http(s) URL, naming `field` when it is not one.
pub fn parse_http_url(field: &'static str, raw: &str) -> Result<Url, ProviderConfigError> {
    let url = Url::parse(raw.trim()).map_err(|_| ProviderConfigError::InvalidUrl { field })?;
    match url.scheme() {
        "http" | "https" if url.has_host() => Ok(url),
        _ => Err(ProviderConfigError::InvalidUrl { field }),
    }
}

/// Refuses an empty value of a required text field.
pub fn require_non_empty(field: &'static str, value: &str) -> Result<(), ProviderConfigError> {
    if value.trim().is_empty() {
        return Err(ProviderConfigError::Missing { field });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_url_is_reported_with_its_field_name() {
        for bad in [
            "not a url",
            "/relative/path",
            "file:///etc/passwd",
            "javascript:alert(1)",
        ] {
            let error = parse_http_url("endpoints.userinfo", bad).unwrap_err();
            assert_eq!(
                error,
                ProviderConfigError::InvalidUrl {
                    field: "endpoints.userinfo"
                }
            );
            assert!(error.to_string().contains("endpoints.userinfo"));
        }
    }

    #[test]
    fn an_empty_required_field_is_refused() {
        assert_eq!(
            require_non_empty("client_id", "  "),
            Err(ProviderConfigError::Missing { field: "client_id" })
        );
        assert!(require_non_empty("client_id", "abc").is_ok());
    }
}
