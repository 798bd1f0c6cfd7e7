//! A signed JWT that is no id_token: Apple's notifications and Google's Security Event
//! Tokens. The header first (RS256 only, checked before any key is looked up, so `none` and
//! the HS256 confusion never reach a key), the key by `kid` from the provider's key set
//! (the process-wide id_token cache: one fetch per hour for both uses), the signature, then
//! issuer, audience, issue time, `exp` when present, and `jti`.
//!
//! Every refusal names its RFC 8935 reason and the failed check, never the token.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};
use social_login_domain::SignalId;
use social_login_domain::signal::{CLOCK_LEEWAY, check_issued_at};
use social_login_id_token::jwks::TokenOrigin;
use social_login_id_token::verifier::{CompactJwsError, header_bytes};
use social_login_id_token::{KeyMiss, KeySetCache};
use social_login_ports::{Clock, RefusalReason, SignalError, SignalRefused};
use social_login_provider_core::ProviderHttp;
use std::sync::Arc;
use time::OffsetDateTime;
use url::Url;

/// Longest signal token read. Real ones are 1–2 KiB; a hostile one never reaches the
/// base64 and JSON decoders at full request size.
pub const MAX_SIGNAL_BYTES: usize = 16 * 1024;

/// Where a provider's signing keys are, who issues its signals and which audiences are this
/// app's (the provider's `client_id` and `client_ids`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwsSignalSettings {
    pub jwks: Url,
    pub issuer: String,
    pub audiences: Vec<String>,
}

/// Verifies one provider's signed signals.
pub(crate) struct JwsVerifier {
    keys: Arc<KeySetCache>,
    issuer: String,
    audiences: Vec<String>,
    clock: Arc<dyn Clock>,
}

/// What the signals read from a verified token.
#[derive(Debug)]
pub(crate) struct SignalClaims {
    pub jti: SignalId,
    pub issued_at: OffsetDateTime,
    /// The `events` claim, as it came (Apple may send it as a string holding JSON).
    pub events: Value,
}

pub(crate) fn refused(reason: RefusalReason, detail: &str) -> SignalRefused {
    SignalRefused::new(reason, detail)
}

/// A signal that is not what its format says: `invalid_request`, naming what is wrong.
pub(crate) fn malformed(detail: &str) -> SignalRefused {
    refused(RefusalReason::InvalidRequest, detail)
}

/// The string `value` read by `parse`; refused as [`malformed`] with `detail` when it is
/// missing, not a string, or not what `parse` takes.
pub(crate) fn parsed_string<T, E>(
    value: Option<&Value>,
    parse: impl FnOnce(&str) -> Result<T, E>,
    detail: &str,
) -> Result<T, SignalRefused> {
    value
        .and_then(Value::as_str)
        .and_then(|text| parse(text).ok())
        .ok_or_else(|| malformed(detail))
}

impl JwsVerifier {
    pub(crate) fn new(
        settings: JwsSignalSettings,
        http: &ProviderHttp,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            keys: KeySetCache::shared(&settings.jwks, http),
            issuer: settings.issuer,
            audiences: settings.audiences,
            clock,
        }
    }

    pub(crate) async fn verify(&self, token: &str) -> Result<SignalClaims, SignalError> {
        if token.len() > MAX_SIGNAL_BYTES {
            return Err(malformed("the signal is longer than 16 KiB").into());
        }
        let kid = read_header(token)?;
        let now = self.clock.now();
        let key = self
            .keys
            .key_or_miss(
                kid.as_deref(),
                Algorithm::RS256,
                now,
                TokenOrigin::Presented,
            )
            .await
            .map_err(|miss| match miss {
                KeyMiss::Unreachable(why) => SignalError::KeysUnavailable(why.to_string()),
                KeyMiss::NotInSet(_) => {
                    refused(RefusalReason::InvalidKey, "no key of the provider signs it").into()
                }
            })?;
        let claims = decode_signed(token, &key.key)?;
        Ok(self.check(claims, now)?)
    }

    fn check(
        &self,
        claims: Map<String, Value>,
        now: OffsetDateTime,
    ) -> Result<SignalClaims, SignalRefused> {
        let issuer = claims.get("iss").and_then(Value::as_str);
        if !issuer.is_some_and(|iss| same_issuer(iss, &self.issuer)) {
            return Err(refused(
                RefusalReason::InvalidIssuer,
                "the issuer is not the provider",
            ));
        }
        if !audiences(claims.get("aud")).any(|aud| self.audiences.iter().any(|ours| ours == aud)) {
            return Err(refused(
                RefusalReason::InvalidAudience,
                "the audience is not this app",
            ));
        }
        let issued_at = claims
            .get("iat")
            .and_then(seconds)
            .ok_or_else(|| malformed("iat is missing or not a time"))?;
        check_issued_at(issued_at, now).map_err(|why| malformed(&why.to_string()))?;
        if let Some(exp) = claims.get("exp") {
            let expires = seconds(exp).ok_or_else(|| malformed("exp is not a time"))?;
            // The leeway off `now`, not onto `exp`: a signed `exp` near year 9999 would overflow.
            if expires < now - CLOCK_LEEWAY {
                return Err(malformed("the signal has expired"));
            }
        }
        let jti = parsed_string(
            claims.get("jti"),
            |jti| SignalId::parse(jti),
            "jti is missing or not 1 to 255 visible characters",
        )?;
        let events = claims
            .get("events")
            .cloned()
            .ok_or_else(|| malformed("events is missing"))?;
        Ok(SignalClaims {
            jti,
            issued_at,
            events,
        })
    }
}

/// The `kid` of a compact JWS whose header says RS256; anything else is refused.
pub(crate) fn read_header(token: &str) -> Result<Option<String>, SignalRefused> {
    let unreadable = || malformed("the JWT header is not a base64url JSON object");
    let bytes = header_bytes(token).map_err(|error| match error {
        CompactJwsError::NotThreeParts => malformed("not a signed JWT (three dot-separated parts)"),
        CompactJwsError::HeaderNotBase64 => unreadable(),
    })?;
    let Ok(Value::Object(header)) = serde_json::from_slice::<Value>(&bytes) else {
        return Err(unreadable());
    };
    if header.get("alg").and_then(Value::as_str) != Some("RS256") {
        return Err(refused(
            RefusalReason::InvalidKey,
            "the algorithm is not RS256",
        ));
    }
    match header.get("kid") {
        None => Ok(None),
        Some(Value::String(kid)) => Ok(Some(kid.clone())),
        Some(_) => Err(malformed("kid is not a string")),
    }
}

/// Checks the signature with `key` (RS256 only) and decodes the claims as a JSON object.
/// jsonwebtoken's own time and audience checks are off: ours use the injected clock.
fn decode_signed(token: &str, key: &DecodingKey) -> Result<Map<String, Value>, SignalRefused> {
    let mut validation = Validation::new(Algorithm::RS256);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_nbf = false;
    validation.validate_aud = false;
    match jsonwebtoken::decode::<Value>(token, key, &validation) {
        Ok(data) => match data.claims {
            Value::Object(claims) => Ok(claims),
            _ => Err(malformed("the claims are not a JSON object")),
        },
        Err(error) if *error.kind() == ErrorKind::InvalidSignature => Err(refused(
            RefusalReason::InvalidKey,
            "the signature does not verify",
        )),
        Err(_) => Err(malformed("the claims are not readable JSON")),
    }
}

/// RFC 8417 issuers often end in `/` (`https://accounts.google.com/`); one trailing slash
/// on either side is no difference.
fn same_issuer(presented: &str, expected: &str) -> bool {
    let bare = |issuer: &str| issuer.strip_suffix('/').unwrap_or(issuer).to_owned();
    !presented.is_empty() && bare(presented) == bare(expected)
}

/// `aud`: one string or an array of them (RFC 7519 §4.1.3); anything else names nobody.
fn audiences(aud: Option<&Value>) -> impl Iterator<Item = &str> {
    let listed: Vec<&str> = match aud {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    listed.into_iter()
}

/// A NumericDate: seconds since the epoch, an integer or a number with a fraction.
pub(crate) fn seconds(value: &Value) -> Option<OffsetDateTime> {
    let seconds = value
        .as_i64()
        .or_else(|| value.as_f64().filter(|f| f.is_finite()).map(|f| f as i64))?;
    OffsetDateTime::from_unix_timestamp(seconds).ok()
}

#[cfg(test)]
mod tests;
