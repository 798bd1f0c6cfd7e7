//! Signals from providers (docs/api.md, "Signals from providers"): what Apple, Meta or Google
//! tell the service about one of their accounts, and what the service does about it.
//!
//! The rules here are pure: where a signal came from and what identifies it (so the same
//! signal acts once), the one action each kind of signal takes and the audit event it
//! records, how old a signal may be, whether a late account-state change still applies, and
//! when removing a link leaves a user with no way in.

use crate::named::named_enum;
use crate::{AuditEventType, LinkedAccount, LinkedAccountId, ProviderKey, User};
use time::{Duration, OffsetDateTime};

/// The endpoint a signal arrived at. With the signal's [`SignalId`] it is the key that makes
/// a signal act once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignalSource {
    /// `POST /auth/oauth/apple/notifications`: Sign in with Apple server-to-server notifications.
    AppleNotification,
    /// `POST /auth/oauth/facebook/data-deletion`: Meta's data deletion request callback.
    FacebookDataDeletion,
    /// `POST /auth/oauth/facebook/deauthorize`: Meta's deauthorize callback.
    FacebookDeauthorize,
    /// `POST /auth/oauth/google/risc`: Google's Cross-Account Protection (RISC).
    GoogleRisc,
}

impl SignalSource {
    pub const ALL: [SignalSource; 4] = [
        Self::AppleNotification,
        Self::FacebookDataDeletion,
        Self::FacebookDeauthorize,
        Self::GoogleRisc,
    ];

    /// The provider whose accounts the signal is about.
    pub fn provider(self) -> ProviderKey {
        match self {
            Self::AppleNotification => ProviderKey::APPLE,
            Self::FacebookDataDeletion | Self::FacebookDeauthorize => ProviderKey::FACEBOOK,
            Self::GoogleRisc => ProviderKey::GOOGLE,
        }
    }

    /// What a claim on a signed payload is stored under: one name for every endpoint of
    /// the provider, so one payload acts at one of them only.
    pub fn payload_scope(self) -> &'static str {
        match self.provider() {
            ProviderKey::FACEBOOK => "facebook.payload",
            ProviderKey::APPLE => "apple.payload",
            _ => "google.payload",
        }
    }

    /// As stored with a receipt.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AppleNotification => "apple.notification",
            Self::FacebookDataDeletion => "facebook.data-deletion",
            Self::FacebookDeauthorize => "facebook.deauthorize",
            Self::GoogleRisc => "google.risc",
        }
    }
}

/// Not one of the [`SignalSource`] names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown signal source")]
pub struct UnknownSignalSource;

named_enum!(SignalSource, all: SignalSource::ALL, unknown: UnknownSignalSource);

/// What identifies one signal of a source: Apple's and Google's `jti`, the confirmation code
/// of a Facebook request. A signal delivered twice carries the same id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignalId(String);

/// A signal id must be 1 to [`SignalId::MAX_BYTES`] visible ASCII characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a signal id is 1 to 255 visible ASCII characters")]
pub struct InvalidSignalId;

impl SignalId {
    pub const MAX_BYTES: usize = 255;

    pub fn parse(raw: impl Into<String>) -> Result<Self, InvalidSignalId> {
        let raw = raw.into();
        let visible = raw.bytes().all(|byte| byte.is_ascii_graphic());
        if raw.is_empty() || raw.len() > Self::MAX_BYTES || !visible {
            return Err(InvalidSignalId);
        }
        Ok(Self(raw))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a provider said about one of its accounts, in the service's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignalKind {
    /// The person stopped using the account with this app (Apple `consent-revoked`, Facebook
    /// deauthorize).
    ConsentRevoked,
    /// The provider account is gone (Apple `account-delete`/`account-deleted`, RISC
    /// `account-purged`).
    AccountDeleted,
    /// The person asked the app to delete their data (Facebook data deletion).
    DataDeletionRequested,
    /// Apple `email-disabled` / `email-enabled` (Hide My Email forwarding).
    EmailForwardingChanged,
    /// RISC `sessions-revoked`.
    SessionsRevoked,
    /// RISC `tokens-revoked`.
    TokensRevoked,
    /// RISC `account-disabled`.
    AccountDisabled,
    /// RISC `account-enabled`.
    AccountEnabled,
    /// Anything else the provider may send (RISC `account-credential-change-required`, an
    /// Apple type this service does not know yet): recorded, nothing more.
    Other,
}

/// What the service does to the link a signal names (and to that user's sessions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignalAction {
    /// Nothing but the audit event.
    Record,
    /// End every session that began with a login through this provider.
    EndProviderSessions,
    /// Delete the link's stored provider tokens; the link stays.
    ForgetTokens,
    /// Both of the above.
    EndProviderSessionsAndForgetTokens,
    /// Delete the link (no revocation call: the provider already knows) with the sessions
    /// it began; when it was the user's last way in, delete the user as `DELETE /users/me`
    /// does.
    RemoveLink,
    /// End every session of the user and refuse logins through this account.
    DisableAccount,
    /// Allow logins through this account again.
    EnableAccount,
}

impl SignalAction {
    /// Whether the sessions begun through the provider end.
    pub fn ends_provider_sessions(self) -> bool {
        matches!(
            self,
            Self::EndProviderSessions | Self::EndProviderSessionsAndForgetTokens | Self::RemoveLink
        )
    }

    /// Whether the link's stored provider tokens are deleted.
    pub fn forgets_tokens(self) -> bool {
        matches!(
            self,
            Self::ForgetTokens | Self::EndProviderSessionsAndForgetTokens
        )
    }
}

impl SignalKind {
    /// The one action this kind of signal takes.
    pub fn action(self) -> SignalAction {
        match self {
            Self::ConsentRevoked => SignalAction::EndProviderSessionsAndForgetTokens,
            Self::AccountDeleted | Self::DataDeletionRequested => SignalAction::RemoveLink,
            Self::SessionsRevoked => SignalAction::EndProviderSessions,
            Self::TokensRevoked => SignalAction::ForgetTokens,
            Self::AccountDisabled => SignalAction::DisableAccount,
            Self::AccountEnabled => SignalAction::EnableAccount,
            Self::EmailForwardingChanged | Self::Other => SignalAction::Record,
        }
    }

    /// The audit event it records (also sent by webhook).
    pub fn event(self) -> AuditEventType {
        match self {
            Self::ConsentRevoked => AuditEventType::ProviderConsentRevoked,
            Self::AccountDeleted => AuditEventType::ProviderAccountDeleted,
            Self::DataDeletionRequested => AuditEventType::ProviderDataDeletionRequested,
            Self::EmailForwardingChanged => AuditEventType::ProviderEmailForwardingChanged,
            Self::SessionsRevoked
            | Self::TokensRevoked
            | Self::AccountDisabled
            | Self::AccountEnabled
            | Self::Other => AuditEventType::ProviderSecurityEvent,
        }
    }
}

/// How long a receipt (the record that a signal was handled) is kept: a retried or replayed
/// signal inside this window is recognised and acts no more, and a data-deletion status URL
/// answers this long.
pub const RECEIPT_RETENTION: Duration = Duration::days(90);

/// The oldest signal accepted. Kept well inside [`RECEIPT_RETENTION`], so a signal is
/// refused as too old before its receipt could be forgotten: nothing can act twice.
pub const MAX_SIGNAL_AGE: Duration = Duration::days(30);

/// How far ahead of the service's clock a signal's issue time may be.
pub const CLOCK_LEEWAY: Duration = Duration::minutes(5);

/// A signal issued too long ago, or in the future.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UntimelySignal {
    #[error("the signal was issued more than 30 days ago")]
    TooOld,
    #[error("the signal was issued in the future")]
    FromTheFuture,
}

/// Whether a signal issued at `issued_at` may act `now` (see [`MAX_SIGNAL_AGE`]).
pub fn check_issued_at(
    issued_at: OffsetDateTime,
    now: OffsetDateTime,
) -> Result<(), UntimelySignal> {
    if issued_at > now + CLOCK_LEEWAY {
        return Err(UntimelySignal::FromTheFuture);
    }
    if issued_at < now - MAX_SIGNAL_AGE {
        return Err(UntimelySignal::TooOld);
    }
    Ok(())
}

/// A provider's time as seconds or milliseconds since the epoch (Apple's `event_time` has
/// been both): a value past the year 5138 in seconds is taken as milliseconds. `None` for a
/// value no calendar holds.
pub fn time_from_seconds_or_millis(raw: i64) -> Option<OffsetDateTime> {
    const LARGEST_SECONDS: i64 = 100_000_000_000;
    let seconds = if raw.unsigned_abs() >= LARGEST_SECONDS.unsigned_abs() {
        raw / 1_000
    } else {
        raw
    };
    OffsetDateTime::from_unix_timestamp(seconds).ok()
}

/// Whether an account-state change (disabled, enabled) that happened at `occurred` applies
/// after the last one applied, at `last_change`: one delivered late never undoes a newer one.
pub fn state_change_applies(occurred: OffsetDateTime, last_change: Option<OffsetDateTime>) -> bool {
    last_change.is_none_or(|last| occurred >= last)
}

/// Whether removing the link `removed` leaves `user` no way to log in: no password and no
/// other link. Unlike a disconnect's rule, a link to a provider disabled in the configuration
/// still counts: deleting an account is irreversible, and the provider may be enabled again.
pub fn leaves_no_way_in(user: &User, links: &[LinkedAccount], removed: LinkedAccountId) -> bool {
    !user.has_password()
        && links
            .iter()
            .filter(|link| link.user_id == user.id)
            .all(|link| link.id == removed)
}

#[cfg(test)]
mod tests;
