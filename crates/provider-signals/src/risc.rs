//! Google's Cross-Account Protection: a Security Event Token (RFC 8417) as the whole request
//! body, signed with the RISC key set (`[oauth_providers.google.endpoints] risc_jwks`), `iss`
//! the RISC issuer (`risc_issuer`), `aud` the google `client_id` or one of its `client_ids`.
//! A SET has no `exp` to check: a retried SET is old by design, and the receipt of its
//! `jti` keeps it from acting twice (docs/providers.md, "Google").
//!
//! One event per token; its subject is `subject.sub` (or `subject.id`), with `subject_type`
//! `iss-sub` or none. A subject of another issuer names no account here.

use crate::jws::{JwsSignalSettings, JwsVerifier, malformed, parsed_string};
use async_trait::async_trait;
use serde_json::Value;
use social_login_domain::{ProviderSubject, SignalKind, SignalSource};
use social_login_ports::{Clock, SignalError, SignalRefused, SignalVerifier, VerifiedSignal};
use social_login_provider_core::ProviderHttp;
use std::sync::Arc;

/// Google's RISC key set, the `jwks_uri` of `https://accounts.google.com/.well-known/risc-configuration`.
pub const GOOGLE_RISC_JWKS_URL: &str = "https://www.googleapis.com/oauth2/v3/certs";
/// The `iss` of Google's Security Event Tokens (that document's `issuer`, with its slash).
pub const GOOGLE_RISC_ISSUER: &str = "https://accounts.google.com/";

/// The event a transmitter sends to check a receiver: no account, nothing to do.
pub const VERIFICATION: &str = "https://schemas.openid.net/secevent/risc/event-type/verification";

/// The event types a receiver asks Google for (what the registration request lists), and
/// what each one is here. Any other type is recorded and does nothing.
pub const RISC_EVENT_TYPES: [(&str, SignalKind); 7] = [
    (
        "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked",
        SignalKind::SessionsRevoked,
    ),
    (
        "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked",
        SignalKind::TokensRevoked,
    ),
    (
        "https://schemas.openid.net/secevent/risc/event-type/account-disabled",
        SignalKind::AccountDisabled,
    ),
    (
        "https://schemas.openid.net/secevent/risc/event-type/account-enabled",
        SignalKind::AccountEnabled,
    ),
    (
        "https://schemas.openid.net/secevent/risc/event-type/account-purged",
        SignalKind::AccountDeleted,
    ),
    (
        "https://schemas.openid.net/secevent/risc/event-type/account-credential-change-required",
        SignalKind::Other,
    ),
    (VERIFICATION, SignalKind::Other),
];

/// Verifies Google's Security Event Tokens.
pub struct GoogleRiscVerifier {
    jws: JwsVerifier,
    /// Issuers a subject may name: the RISC issuer, Google's id_token issuer, and the google
    /// provider's configured issuer when it has one.
    subject_issuers: Vec<String>,
}

impl GoogleRiscVerifier {
    /// `id_token_issuer`: `[oauth_providers.google.endpoints] issuer`, when set (the
    /// issuer of the accounts the links name).
    pub fn new(
        settings: JwsSignalSettings,
        id_token_issuer: Option<&str>,
        http: &ProviderHttp,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let mut subject_issuers = vec![
            settings.issuer.clone(),
            "https://accounts.google.com".into(),
        ];
        subject_issuers.extend(id_token_issuer.map(str::to_owned));
        Self {
            jws: JwsVerifier::new(settings, http, clock),
            subject_issuers,
        }
    }
}

#[async_trait]
impl SignalVerifier for GoogleRiscVerifier {
    fn source(&self) -> SignalSource {
        SignalSource::GoogleRisc
    }

    async fn verify(&self, token: &str) -> Result<VerifiedSignal, SignalError> {
        let claims = self.jws.verify(token.trim()).await?;
        let Value::Object(events) = claims.events else {
            return Err(malformed("events is not a JSON object").into());
        };
        let mut events = events.into_iter();
        let (Some((uri, event)), None) = (events.next(), events.next()) else {
            return Err(malformed("a SET here carries exactly one event").into());
        };
        let kind = RISC_EVENT_TYPES
            .iter()
            .find(|(known, _)| *known == uri)
            .map_or(SignalKind::Other, |(_, kind)| *kind);
        let subject = if uri == VERIFICATION {
            None
        } else {
            self.subject(&event)?
        };
        Ok(VerifiedSignal {
            source: SignalSource::GoogleRisc,
            id: claims.jti,
            issued_at: claims.issued_at,
            kind,
            subject,
            occurred_at: claims.issued_at,
            payload: None,
        })
    }
}

impl GoogleRiscVerifier {
    /// The Google account an event names; `None` when it names one of another issuer.
    fn subject(&self, event: &Value) -> Result<Option<ProviderSubject>, SignalRefused> {
        let subject = event
            .get("subject")
            .and_then(Value::as_object)
            .ok_or_else(|| malformed("the event has no subject"))?;
        let kind = subject.get("subject_type").and_then(Value::as_str);
        if !matches!(kind, None | Some("iss-sub" | "id")) {
            return Err(malformed("the subject is not an iss-sub subject"));
        }
        if let Some(issuer) = subject.get("iss") {
            let ours = issuer
                .as_str()
                .is_some_and(|iss| self.subject_issuers.iter().any(|known| same(iss, known)));
            if !ours {
                return Ok(None);
            }
        }
        let sub = subject.get("sub").or_else(|| subject.get("id"));
        parsed_string(
            sub,
            |sub| ProviderSubject::parse(sub),
            "the subject has no valid sub",
        )
        .map(Some)
    }
}

fn same(presented: &str, expected: &str) -> bool {
    presented.trim_end_matches('/') == expected.trim_end_matches('/')
}
