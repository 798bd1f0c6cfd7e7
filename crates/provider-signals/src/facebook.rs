//! Meta's data deletion and deauthorize callbacks: a form field `signed_request` =
//! `<signature>.<payload>`, both base64url (padding optional), the signature being the
//! HMAC-SHA256 of the payload *as encoded* under the app secret. Only `HMAC-SHA256` is
//! accepted; the signature is checked, in constant time, before the payload is parsed at
//! all. `user_id` is the app-scoped id, the subject of the link (docs/providers.md,
//! "Facebook").
//!
//! Meta's request has no id of its own: the confirmation code is derived from it (an HMAC
//! under the app secret of the decoded payload), so the same request gives the same code on
//! every instance and every retry, and nobody without the secret can guess one.

use crate::jws::{MAX_SIGNAL_BYTES, malformed, refused, seconds};
use async_trait::async_trait;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Map, Value};
use sha2::Sha256;
use social_login_domain::signal::check_issued_at;
use social_login_domain::{ProviderSubject, SecretText, SignalId, SignalKind, SignalSource};
use social_login_ports::{
    Clock, RefusalReason, SignalError, SignalRefused, SignalVerifier, VerifiedSignal,
};
use std::sync::Arc;

/// Bytes of the confirmation code (hex in the answer): 96 bits nobody guesses.
const CODE_BYTES: usize = 12;

/// Verifies one of Meta's two callbacks.
pub struct FacebookSignalVerifier {
    source: SignalSource,
    app_secret: SecretText,
    clock: Arc<dyn Clock>,
}

impl FacebookSignalVerifier {
    /// `POST /auth/oauth/facebook/data-deletion`.
    pub fn data_deletion(app_secret: SecretText, clock: Arc<dyn Clock>) -> Self {
        Self::new(SignalSource::FacebookDataDeletion, app_secret, clock)
    }

    /// `POST /auth/oauth/facebook/deauthorize`.
    pub fn deauthorize(app_secret: SecretText, clock: Arc<dyn Clock>) -> Self {
        Self::new(SignalSource::FacebookDeauthorize, app_secret, clock)
    }

    fn new(source: SignalSource, app_secret: SecretText, clock: Arc<dyn Clock>) -> Self {
        Self {
            source,
            app_secret,
            clock,
        }
    }
}

#[async_trait]
impl SignalVerifier for FacebookSignalVerifier {
    fn source(&self) -> SignalSource {
        self.source
    }

    async fn verify(&self, token: &str) -> Result<VerifiedSignal, SignalError> {
        let secret = self.app_secret.expose().as_bytes();
        let request = parse_signed_request(token, secret)?;
        if self.source == SignalSource::FacebookDataDeletion {
            // The login status Meta's JS SDK hands the page is signed the same way; it is a
            // sign-in, never a deletion request (docs/providers.md#facebook).
            if let Some(member) = ["code", "oauth_token"]
                .into_iter()
                .find(|member| request.payload.contains_key(*member))
            {
                return Err(malformed(&format!(
                    "a payload with `{member}` is a login status, not a data deletion request"
                ))
                .into());
            }
        }
        let subject = match request.payload.get("user_id") {
            Some(Value::String(id)) => ProviderSubject::parse(id.as_str()).ok(),
            Some(Value::Number(id)) => id
                .as_u64()
                .and_then(|id| ProviderSubject::parse(id.to_string()).ok()),
            _ => None,
        }
        .ok_or_else(|| malformed("user_id is missing or not an id"))?;
        let issued_at = request
            .payload
            .get("issued_at")
            .and_then(seconds)
            .ok_or_else(|| malformed("issued_at is missing or not a time"))?;
        check_issued_at(issued_at, self.clock.now()).map_err(|why| malformed(&why.to_string()))?;
        let kind = match self.source {
            SignalSource::FacebookDataDeletion => SignalKind::DataDeletionRequested,
            _ => SignalKind::ConsentRevoked,
        };
        Ok(VerifiedSignal {
            source: self.source,
            id: confirmation_code(secret, Some(self.source), &request.decoded),
            issued_at,
            kind,
            subject: Some(subject),
            occurred_at: issued_at,
            // The same at both endpoints: the payload acts at one of them only.
            payload: Some(confirmation_code(secret, None, &request.decoded)),
        })
    }
}

/// A `signed_request` whose signature holds: its payload and the payload's bytes. `Debug`
/// shows neither: a login-status request's payload holds an `oauth_token` and a `code`.
pub(crate) struct SignedRequest {
    pub payload: Map<String, Value>,
    pub decoded: Vec<u8>,
}

impl std::fmt::Debug for SignedRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignedRequest").finish_non_exhaustive()
    }
}

/// Checks `signed_request` under `secret` and reads its payload, a JSON object whose
/// `algorithm` is `HMAC-SHA256`. Nothing of the payload is read before the signature holds.
pub(crate) fn parse_signed_request(
    signed_request: &str,
    secret: &[u8],
) -> Result<SignedRequest, SignalRefused> {
    if signed_request.len() > MAX_SIGNAL_BYTES {
        return Err(malformed("the signed_request is longer than 16 KiB"));
    }
    let Some((signature, payload)) = signed_request.split_once('.') else {
        return Err(malformed("the signed_request is not <signature>.<payload>"));
    };
    let signature =
        base64url(signature).ok_or_else(|| malformed("the signature is not base64url"))?;
    let mut mac = hmac(secret);
    // Over the payload as it was encoded, which is what Meta signs.
    mac.update(payload.as_bytes());
    mac.verify_slice(&signature).map_err(|_| {
        refused(
            RefusalReason::InvalidKey,
            "the signature is not the app's HMAC-SHA256",
        )
    })?;
    let decoded = base64url(payload).ok_or_else(|| malformed("the payload is not base64url"))?;
    let Ok(Value::Object(payload)) = serde_json::from_slice::<Value>(&decoded) else {
        return Err(malformed("the payload is not a JSON object"));
    };
    let algorithm = payload.get("algorithm").and_then(Value::as_str);
    if !algorithm.is_some_and(|name| name.eq_ignore_ascii_case("HMAC-SHA256")) {
        return Err(malformed("the algorithm is not HMAC-SHA256"));
    }
    Ok(SignedRequest { payload, decoded })
}

/// base64url with or without its `=` padding (Meta has sent both).
fn base64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

fn hmac(secret: &[u8]) -> Hmac<Sha256> {
    <Hmac<Sha256> as KeyInit>::new_from_slice(secret).expect("HMAC takes a key of any length")
}

/// The request's confirmation code: the first [`CODE_BYTES`] of an HMAC under the app
/// secret, labelled with the source, of the decoded payload; lowercase hex. Without a
/// source: the payload's id at any endpoint.
pub(crate) fn confirmation_code(
    secret: &[u8],
    source: Option<SignalSource>,
    payload: &[u8],
) -> SignalId {
    let mut mac = hmac(secret);
    mac.update(b"social-login confirmation code\0");
    mac.update(
        source
            .map_or("any endpoint", SignalSource::as_str)
            .as_bytes(),
    );
    mac.update(b"\0");
    mac.update(payload);
    let digest = mac.finalize().into_bytes();
    SignalId::parse(hex::encode(&digest[..CODE_BYTES])).expect("24 hex digits are a signal id")
}

#[cfg(test)]
mod tests;
