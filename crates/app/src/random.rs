//! Unguessable values, all drawn from the `Randomness` port: state ids, PKCE verifiers,
//! nonces, and the random part of new ids (their time part comes from the clock).

use crate::AuthService;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use social_login_domain::{AuditContext, FamilyId, LinkedAccountId, Origin, StateId, UserId};
use time::OffsetDateTime;

impl AuthService {
    fn random<const N: usize>(&self) -> [u8; N] {
        let mut bytes = [0u8; N];
        self.ports.random.fill(&mut bytes);
        bytes
    }

    /// A fresh state id: 128 random bits.
    pub(crate) fn random_state_id(&self) -> StateId {
        StateId::from_bytes(self.random())
    }

    /// 43 URL-safe characters carrying 256 bits: a valid PKCE verifier (RFC 7636 §4.1 wants
    /// 43 to 128) and an unguessable nonce.
    pub(crate) fn random_url_token(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.random::<32>())
    }

    pub(crate) fn new_user_id(&self, now: OffsetDateTime) -> UserId {
        UserId::from_parts(unix_millis(now), self.random())
    }

    pub(crate) fn new_link_id(&self, now: OffsetDateTime) -> LinkedAccountId {
        LinkedAccountId::from_parts(unix_millis(now), self.random())
    }

    pub(crate) fn new_family_id(&self, now: OffsetDateTime) -> FamilyId {
        FamilyId::from_parts(unix_millis(now), self.random())
    }

    /// What a write needs to record its audit events: the request's origin, the time,
    /// fresh event ids, and which types the webhooks want.
    pub(crate) fn audit(&self, origin: &Origin, now: OffsetDateTime) -> AuditContext {
        AuditContext {
            origin: origin.clone(),
            at: now,
            ids: AuditContext::ids_at(now, || self.random()),
            outbox: self.policy.webhook_events,
        }
    }
}

/// Milliseconds since the epoch; an instant before it (a clock gone wrong) counts as 0.
fn unix_millis(now: OffsetDateTime) -> u64 {
    u64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap_or(0)
}
