//! Audit events: what happened to an account, where from and when (docs/api.md, "Webhooks").
//!
//! An event is written in the same transaction as the change it records, so there is never
//! one without the other. It carries who and where (user, provider, client IP, user agent,
//! request id), never a token or a password.

use crate::admin::AdminKeyId;
use crate::ids::id_type;
use crate::linking::LoginDecision;
use crate::named::named_enum;
use crate::{ProviderKey, UserId};
use std::borrow::Cow;
use std::net::IpAddr;
use time::OffsetDateTime;

id_type!(
    /// One audit event; also the `webhook-id` of its delivery.
    AuditEventId
);

impl AuditEventId {
    /// A UUIDv7 whose 12 sub-millisecond bits hold the time too (RFC 9562 §6.2, method 3),
    /// so events written a few microseconds apart sort in the order they happened.
    pub fn at(time: OffsetDateTime, random: [u8; 8]) -> Self {
        let nanos = time.unix_timestamp_nanos().max(0);
        let millis = u64::try_from(nanos / 1_000_000).unwrap_or(0);
        let fraction = u16::try_from((nanos % 1_000_000) * 4096 / 1_000_000).unwrap_or(0);
        let [high, low] = fraction.to_be_bytes();
        let mut bytes = [0u8; 10];
        bytes[0] = high & 0x0F;
        bytes[1] = low;
        bytes[2..].copy_from_slice(&random);
        Self::from_parts(millis, bytes)
    }
}

/// What happened. The strings are the event types of docs/api.md#event-types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum AuditEventType {
    UserRegistered,
    UserLogin,
    AccountLinked,
    AccountUnlinked,
    SessionLogout,
    SessionRefreshReuseDetected,
    UserDeleted,
    ProviderRevocationFailed,
    /// A provider said the person stopped using the account with this app.
    ProviderConsentRevoked,
    /// A provider said the account is gone.
    ProviderAccountDeleted,
    /// Apple said Hide My Email forwarding was switched off or on.
    ProviderEmailForwardingChanged,
    /// Meta asked for the person's data to be deleted.
    ProviderDataDeletionRequested,
    /// Google's Cross-Account Protection reported a security event.
    ProviderSecurityEvent,
    /// An operator locked the user (every session ended with it).
    UserLocked,
    /// An operator unlocked the user.
    UserUnlocked,
    /// An operator ended every session of the user.
    UserSessionsRevoked,
    /// Password attempts for the user hit a throttle: a client's limit, or the account's.
    UserLoginThrottled,
    /// A link's provider tokens were renewed (the user connected the same account again, or
    /// a relayed call refreshed them).
    ProviderTokenRefreshed,
    /// A link's provider refused to refresh its tokens: the user must connect it again.
    ProviderReauthorizationRequired,
    /// An operator read the user's data (their account, export or events): for operators
    /// only, never in the user's own list.
    AdminRead,
    /// The email, name and avatar the user registered with went with the provider account
    /// that gave them (its provider asked for its data to go, or deleted the account).
    UserProfileErased,
}

impl AuditEventType {
    /// The events a full webhook outbox never pushes out: those a backend reacts to at once
    /// (a deleted or locked user's tokens must stop working elsewhere too). Operators' acts
    /// and deletions come far too slowly to fill an outbox.
    pub const KEPT_WHEN_FULL: [AuditEventType; 2] = [Self::UserDeleted, Self::UserLocked];

    pub const ALL: [AuditEventType; 21] = [
        Self::UserRegistered,
        Self::UserLogin,
        Self::AccountLinked,
        Self::AccountUnlinked,
        Self::SessionLogout,
        Self::SessionRefreshReuseDetected,
        Self::UserDeleted,
        Self::ProviderRevocationFailed,
        Self::ProviderConsentRevoked,
        Self::ProviderAccountDeleted,
        Self::ProviderEmailForwardingChanged,
        Self::ProviderDataDeletionRequested,
        Self::ProviderSecurityEvent,
        Self::UserLocked,
        Self::UserUnlocked,
        Self::UserSessionsRevoked,
        Self::UserLoginThrottled,
        Self::ProviderTokenRefreshed,
        Self::ProviderReauthorizationRequired,
        Self::AdminRead,
        Self::UserProfileErased,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::UserRegistered => "user.registered",
            Self::UserLogin => "user.login",
            Self::AccountLinked => "account.linked",
            Self::AccountUnlinked => "account.unlinked",
            Self::SessionLogout => "session.logout",
            Self::SessionRefreshReuseDetected => "session.refresh_reuse_detected",
            Self::UserDeleted => "user.deleted",
            Self::ProviderRevocationFailed => "provider.revocation_failed",
            Self::ProviderConsentRevoked => "provider.consent_revoked",
            Self::ProviderAccountDeleted => "provider.account_deleted",
            Self::ProviderEmailForwardingChanged => "provider.email_forwarding_changed",
            Self::ProviderDataDeletionRequested => "provider.data_deletion_requested",
            Self::ProviderSecurityEvent => "provider.security_event",
            Self::UserLocked => "user.locked",
            Self::UserUnlocked => "user.unlocked",
            Self::UserSessionsRevoked => "user.sessions_revoked",
            Self::UserLoginThrottled => "user.login_throttled",
            Self::ProviderTokenRefreshed => "provider.token_refreshed",
            Self::ProviderReauthorizationRequired => "provider.reauthorization_required",
            Self::AdminRead => "admin.read",
            Self::UserProfileErased => "user.profile_erased",
        }
    }

    fn bit(self) -> u32 {
        1 << Self::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an audit event type")]
pub struct UnknownEventType;

named_enum!(AuditEventType, all: AuditEventType::ALL, unknown: UnknownEventType);

/// A set of event types (which ones go to the webhook outbox). Copy, no allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EventSet(u32);

impl EventSet {
    pub const NONE: EventSet = EventSet(0);

    pub fn all() -> Self {
        Self::ALL_BITS
    }

    const ALL_BITS: EventSet = EventSet((1 << AuditEventType::ALL.len()) - 1);

    pub fn contains(self, kind: AuditEventType) -> bool {
        self.0 & kind.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl FromIterator<AuditEventType> for EventSet {
    fn from_iter<I: IntoIterator<Item = AuditEventType>>(iter: I) -> Self {
        EventSet(iter.into_iter().fold(0, |bits, kind| bits | kind.bit()))
    }
}

/// Longest user agent kept; the rest is cut (a header is not a place to store a novel).
pub const MAX_USER_AGENT_CHARS: usize = 256;
/// Longest request id kept.
pub const MAX_REQUEST_ID_CHARS: usize = 64;

/// Whether a client's request id is kept as it is: at most [`MAX_REQUEST_ID_CHARS`] visible
/// ASCII characters (the HTTP layer replaces any other with a fresh one).
pub fn is_sound_request_id(id: &[u8]) -> bool {
    id.len() <= MAX_REQUEST_ID_CHARS && id.iter().all(u8::is_ascii_graphic)
}

/// Where a request came from, as the HTTP layer saw it, and who sent it when it was not
/// the user: an operator's admin key (by its id, never the key).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    pub ip: Option<IpAddr>,
    user_agent: Option<String>,
    request_id: Option<String>,
    admin: Option<AdminKeyId>,
    via: Option<Via>,
}

/// How a change came about when that is not told by its type: an event of it says
/// `"via"`. (`account.linked` after a 409: the link token.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// A link a provider login offered, completed with its link token.
    LinkToken,
}

impl Via {
    pub const ALL: [Self; 1] = [Self::LinkToken];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::LinkToken => "link_token",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a way a change comes about")]
pub struct UnknownVia;

named_enum!(Via, all: Via::ALL, unknown: UnknownVia);

impl Origin {
    /// Keeps at most [`MAX_USER_AGENT_CHARS`] / [`MAX_REQUEST_ID_CHARS`] printable
    /// characters of each text, so what a client sends cannot bloat or garble the log.
    pub fn new(ip: Option<IpAddr>, user_agent: Option<&str>, request_id: Option<&str>) -> Self {
        Self {
            ip,
            user_agent: user_agent.and_then(|text| printable(text, MAX_USER_AGENT_CHARS)),
            request_id: request_id.and_then(|text| printable(text, MAX_REQUEST_ID_CHARS)),
            admin: None,
            via: None,
        }
    }

    /// The same origin, its change made `via` something its events name.
    pub fn via(self, via: Via) -> Self {
        Self {
            via: Some(via),
            ..self
        }
    }

    /// How the change came about, when its events say.
    pub fn how(&self) -> Option<Via> {
        self.via
    }

    /// The same origin, acting with the admin key `key`: its events say `"actor": "admin"`.
    pub fn by_admin(self, key: AdminKeyId) -> Self {
        Self {
            admin: Some(key),
            ..self
        }
    }

    /// The admin key that made the change, or `None` when the user did.
    pub fn admin(&self) -> Option<AdminKeyId> {
        self.admin
    }

    /// The client IP the user may see in their own events: none when an operator acted,
    /// whose address (like the key's id) is the operator's own business.
    pub fn ip_shown_to_user(&self) -> Option<IpAddr> {
        self.ip.filter(|_| self.admin.is_none())
    }

    pub fn user_agent(&self) -> Option<&str> {
        self.user_agent.as_deref()
    }

    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// The user agent the user may see in their own data: none when an operator acted.
    pub fn user_agent_shown_to_user(&self) -> Option<&str> {
        self.user_agent().filter(|_| self.admin.is_none())
    }

    /// The request id the user may see in their own data: none when an operator acted.
    pub fn request_id_shown_to_user(&self) -> Option<&str> {
        self.request_id().filter(|_| self.admin.is_none())
    }
}

fn printable(text: &str, max_chars: usize) -> Option<String> {
    let kept = if text.chars().any(char::is_control) {
        Cow::Owned(
            text.chars()
                .filter(|c| !c.is_control())
                .take(max_chars)
                .collect::<String>(),
        )
    } else {
        // Nothing to drop (the usual case): the first `max_chars` characters are a prefix of
        // `text`, so only the result is allocated, not a String grown char by char as well.
        let end = text
            .char_indices()
            .nth(max_chars)
            .map_or(text.len(), |(at, _)| at);
        Cow::Borrowed(&text[..end])
    };
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_owned())
}

mod context;
pub use context::{AuditContext, EVENTS_PER_OPERATION};

/// One recorded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEvent {
    pub id: AuditEventId,
    pub kind: AuditEventType,
    pub user_id: UserId,
    pub provider: Option<ProviderKey>,
    pub origin: Origin,
    pub created_at: OffsetDateTime,
}

/// The events a provider login records: a login always; before it, the registration or the
/// link by email it decided on.
pub fn sign_in_events(decision: &LoginDecision) -> &'static [AuditEventType] {
    match decision {
        LoginDecision::SignIn { .. } => &[AuditEventType::UserLogin],
        LoginDecision::LinkThenSignIn { .. } => {
            &[AuditEventType::AccountLinked, AuditEventType::UserLogin]
        }
        LoginDecision::Register => &[AuditEventType::UserRegistered, AuditEventType::UserLogin],
    }
}

/// Whose view of a user's audit events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventsView {
    /// The user's own: support's reads of their data (`admin.read`) are for operators only.
    Own,
    /// An operator's: every event.
    Operator,
}

impl EventsView {
    /// The kind of event this view leaves out, if any.
    pub fn hidden(self) -> Option<AuditEventType> {
        match self {
            Self::Own => Some(AuditEventType::AdminRead),
            Self::Operator => None,
        }
    }
}

/// A user's most recent events as `view` shows them, newest first, at most `limit` (the
/// events `view` hides are left out before the limit, not after).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserEvents {
    pub user: UserId,
    pub limit: u64,
    pub view: EventsView,
}

#[cfg(test)]
mod tests;
