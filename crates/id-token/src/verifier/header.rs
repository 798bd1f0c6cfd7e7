//! The JOSE header of an id_token, read first: a forbidden algorithm (`none`, any HS*, or
//! anything off the allow-list) is refused before a key is even looked up.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::Algorithm;
use serde::Deserialize;
use social_login_ports::ProviderError;
use social_login_provider_core::ObjectOnly;
use social_login_provider_core::failure::safe_error_code;

/// What the verifier needs from the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenHeader {
    pub alg: Algorithm,
    pub kid: Option<String>,
}

#[derive(Deserialize)]
struct RawHeader {
    alg: String,
    kid: Option<String>,
    /// Decoded from a JSON object only, never from an array in field order.
    #[serde(flatten)]
    _object: ObjectOnly,
}

/// Why the header of a compact JWS could not even be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactJwsError {
    /// Not three dot-separated parts.
    NotThreeParts,
    /// The first part is not base64url.
    HeaderNotBase64,
}

/// The header of a compact JWS (`header.payload.signature`), base64url-decoded: the bytes
/// of its JSON, not yet read. Every signed JWT this service reads starts here.
pub fn header_bytes(token: &str) -> Result<Vec<u8>, CompactJwsError> {
    let mut parts = token.split('.');
    let (Some(encoded), Some(_), Some(_), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(CompactJwsError::NotThreeParts);
    };
    URL_SAFE_NO_PAD
        .decode(encoded)
        .map_err(|_| CompactJwsError::HeaderNotBase64)
}

/// Reads the header of a compact JWS and checks its `alg` against `allowed`.
pub fn read_header(token: &str, allowed: &[Algorithm]) -> Result<TokenHeader, ProviderError> {
    let fail = |what: &str| ProviderError::UserInfo(format!("id_token {what}"));
    let bytes = header_bytes(token).map_err(|error| {
        fail(match error {
            CompactJwsError::NotThreeParts => "is not a signed JWT (three dot-separated parts)",
            CompactJwsError::HeaderNotBase64 => "header is not base64url",
        })
    })?;
    let raw: RawHeader =
        serde_json::from_slice(&bytes).map_err(|_| fail("header is not the expected JSON"))?;
    let alg = raw
        .alg
        .parse::<Algorithm>()
        .ok()
        .filter(|alg| allowed.contains(alg))
        .ok_or_else(|| {
            // The name is repeated only if it looks like one (it is attacker-chosen).
            fail(&format!(
                "algorithm `{}` is not allowed",
                safe_error_code(&raw.alg)
            ))
        })?;
    Ok(TokenHeader { alg, kid: raw.kid })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn token_with(header: serde_json::Value) -> String {
        format!(
            "{}.e30.c2ln",
            URL_SAFE_NO_PAD.encode(header.to_string().as_bytes())
        )
    }

    fn message(result: Result<TokenHeader, ProviderError>) -> String {
        match result {
            Err(ProviderError::UserInfo(message)) => message,
            other => panic!("expected UserInfo, got {other:?}"),
        }
    }

    #[test]
    fn an_allowed_algorithm_and_its_kid_are_read() {
        let header = read_header(
            &token_with(json!({"alg": "RS256", "kid": "k1", "typ": "JWT"})),
            &[Algorithm::RS256],
        )
        .unwrap();
        assert_eq!(header.alg, Algorithm::RS256);
        assert_eq!(header.kid.as_deref(), Some("k1"));
    }

    #[test]
    fn none_hmac_and_unlisted_algorithms_are_refused_by_name() {
        for alg in ["none", "HS256", "RS512", "ES256"] {
            let error = message(read_header(
                &token_with(json!({"alg": alg, "kid": "k1"})),
                &[Algorithm::RS256],
            ));
            assert_eq!(error, format!("id_token algorithm `{alg}` is not allowed"));
        }
    }

    #[test]
    fn malformed_tokens_are_refused_without_repeating_them() {
        for token in ["", "a.b", "a.b.c.d", "!!!.e30.c2ln"] {
            let error = message(read_header(token, &[Algorithm::RS256]));
            assert!(error.starts_with("id_token "), "{error}");
        }
        // serde's derive would read an array as the fields in order: `alg`, then `kid`.
        let positional = token_with(json!(["RS256", "k1"]));
        assert_eq!(
            message(read_header(&positional, &[Algorithm::RS256])),
            "id_token header is not the expected JSON"
        );
        let odd_alg = token_with(json!({"alg": "RS256 <script>"}));
        let error = message(read_header(&odd_alg, &[Algorithm::RS256]));
        assert!(!error.contains("script"), "{error}");
    }
}
