//! Sign in with Apple server-to-server notifications: the JWS of the `{"payload"}` body,
//! signed with Apple's id_token keys, `iss` Apple, `aud` the app (a bundle id counts: the
//! apple `client_id` or one of its `client_ids`).
//!
//! Apple's quirks (docs/providers.md, "Apple"): the `events` claim is a JSON object or a
//! string holding one; `event_time` has been seconds and milliseconds; booleans may be
//! strings; both `account-delete` and `account-deleted` occur; duplicates occur (the `jti`
//! says which).

use crate::jws::{JwsSignalSettings, JwsVerifier, malformed, parsed_string};
use async_trait::async_trait;
use serde_json::{Map, Value};
use social_login_domain::signal::time_from_seconds_or_millis;
use social_login_domain::{ProviderSubject, SignalKind, SignalSource};
use social_login_ports::{Clock, SignalError, SignalRefused, SignalVerifier, VerifiedSignal};
use social_login_provider_core::ProviderHttp;
use std::sync::Arc;

/// Apple's key set: the one its id_tokens are signed with.
pub const APPLE_JWKS_URL: &str = "https://appleid.apple.com/auth/keys";
/// The `iss` of Apple's notifications, as of its id_tokens.
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";

/// Verifies Apple's notifications.
pub struct AppleNotificationVerifier {
    jws: JwsVerifier,
}

impl AppleNotificationVerifier {
    pub fn new(settings: JwsSignalSettings, http: &ProviderHttp, clock: Arc<dyn Clock>) -> Self {
        Self {
            jws: JwsVerifier::new(settings, http, clock),
        }
    }
}

#[async_trait]
impl SignalVerifier for AppleNotificationVerifier {
    fn source(&self) -> SignalSource {
        SignalSource::AppleNotification
    }

    async fn verify(&self, token: &str) -> Result<VerifiedSignal, SignalError> {
        let claims = self.jws.verify(token).await?;
        let event = event_object(claims.events)?;
        let kind = match event.get("type").and_then(Value::as_str) {
            Some("consent-revoked") => SignalKind::ConsentRevoked,
            Some("account-delete" | "account-deleted") => SignalKind::AccountDeleted,
            Some("email-disabled" | "email-enabled") => SignalKind::EmailForwardingChanged,
            Some(_) => SignalKind::Other,
            None => return Err(malformed("the event has no type").into()),
        };
        let subject = parsed_string(
            event.get("sub"),
            |sub| ProviderSubject::parse(sub),
            "the event has no valid sub",
        )?;
        let occurred_at = event
            .get("event_time")
            .and_then(number)
            .and_then(time_from_seconds_or_millis)
            .unwrap_or(claims.issued_at);
        Ok(VerifiedSignal {
            source: SignalSource::AppleNotification,
            id: claims.jti,
            issued_at: claims.issued_at,
            kind,
            subject: Some(subject),
            occurred_at,
            payload: None,
        })
    }
}

/// The event: the `events` claim as an object, or a string holding one (what Apple sends).
fn event_object(events: Value) -> Result<Map<String, Value>, SignalRefused> {
    let events = match events {
        Value::String(text) => serde_json::from_str(&text)
            .map_err(|_| malformed("the events string does not hold JSON"))?,
        other => other,
    };
    match events {
        Value::Object(event) => Ok(event),
        _ => Err(malformed("events is not a JSON object")),
    }
}

/// A number, or a string holding one (Apple's booleans and numbers may come as strings).
fn number(value: &Value) -> Option<i64> {
    match value {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}
