//! The signal ports (docs/api.md, "Signals from providers"): verifying what a provider sent,
//! before anything is stored, and acting on it in one transaction with its audit events.
//!
//! A signal acts once: the repository records a receipt keyed by (source, signal id) under a
//! unique constraint in the same transaction as the action, so a retry, a replay or the same
//! signal reaching two instances at once finds the receipt and changes nothing.

use crate::RepoResult;
use async_trait::async_trait;
use social_login_domain::{ProviderSubject, SignalId, SignalKind, SignalSource, UserId};

pub use social_login_domain::signal_plan::{SignalCommand, SignalReceipt};
use time::OffsetDateTime;

/// One verified signal: who sent it was checked, nothing was stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSignal {
    pub source: SignalSource,
    /// Its id (`jti`, or the confirmation code of a Facebook request).
    pub id: SignalId,
    /// When the provider issued it (`iat`, Facebook's `issued_at`).
    pub issued_at: OffsetDateTime,
    pub kind: SignalKind,
    /// The provider account it is about; `None` for one about no account (a RISC
    /// verification event).
    pub subject: Option<ProviderSubject>,
    /// When the change it reports happened (the event's own time when it carries one, else
    /// `issued_at`): orders account-state changes that arrive out of order.
    pub occurred_at: OffsetDateTime,
    /// See [`SignalReceipt::payload`].
    pub payload: Option<SignalId>,
}

/// Why a signal was refused, in the words of RFC 8935 §2.3 (Google's RISC endpoint answers
/// with them; the others map all of them to one code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalReason {
    /// Not a signal at all, or not one this endpoint can read.
    InvalidRequest,
    /// Not signed by a key of the provider, or with an algorithm that is not allowed.
    InvalidKey,
    /// Issued by someone else.
    InvalidIssuer,
    /// Meant for another app.
    InvalidAudience,
}

impl RefusalReason {
    /// The RFC 8935 `err` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidRequest => "invalid_request",
            Self::InvalidKey => "invalid_key",
            Self::InvalidIssuer => "invalid_issuer",
            Self::InvalidAudience => "invalid_audience",
        }
    }
}

/// A refused signal: the reason, and which check failed (safe to show and log: it never
/// repeats the signal).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct SignalRefused {
    pub reason: RefusalReason,
    pub detail: String,
}

impl SignalRefused {
    pub fn new(reason: RefusalReason, detail: impl Into<String>) -> Self {
        Self {
            reason,
            detail: detail.into(),
        }
    }
}

/// Why a signal was not taken: refused, or not checked at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignalError {
    /// It does not verify: 400, with the reason.
    #[error(transparent)]
    Refused(#[from] SignalRefused),
    /// It could not be checked: the provider's key set could not be fetched. A failure of
    /// ours, not the signal's: 503, so that the provider sends it again.
    #[error("the provider's key set could not be fetched: {0}")]
    KeysUnavailable(String),
}

/// Checks a signal as its provider signs it: Apple's JWS, Meta's `signed_request`, Google's
/// Security Event Token. One verifier per [`SignalSource`].
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait SignalVerifier: Send + Sync {
    fn source(&self) -> SignalSource;

    /// Verifies `token` as the endpoint received it (the JWS of Apple's `payload`, the value
    /// of Meta's `signed_request`, the RISC request body). Reads nothing from storage.
    async fn verify(&self, token: &str) -> Result<VerifiedSignal, SignalError>;
}

/// What acting on a signal did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalOutcome {
    /// The action ran for this user; `user_deleted` when the link removed was the last way in.
    Applied { user: UserId, user_deleted: bool },
    /// The provider account is linked to nobody: nothing was written, not even the receipt.
    NotLinked,
    /// The signal's receipt exists: it was handled before, nothing was written.
    Duplicate,
    /// Its payload acted at another endpoint of the provider: nothing was written.
    PayloadUsedElsewhere,
}

/// Acting on signals, and their receipts.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait SignalRepository: Send + Sync {
    /// In one transaction: records the receipt (one that exists already: `Duplicate`, and
    /// nothing else happens) and claims its payload (claimed at another endpoint already:
    /// `PayloadUsedElsewhere`, nothing is kept), finds the link of the subject (none: `NotLinked`, and nothing
    /// is kept), then takes the action (`domain::signal` says what each one does) and
    /// records `event` for the link's user (and `account.unlinked` or `user.deleted` when
    /// the link goes). Serialised with other writes to the same user, as a disconnect is.
    async fn apply_signal(&self, command: SignalCommand) -> RepoResult<SignalOutcome>;

    /// Records a receipt that acts on nothing (a data deletion request about an account
    /// never linked: its status URL must still answer), and claims its payload. Returns
    /// when the signal was first received (the receipt's time when it exists already);
    /// `None` when its payload was claimed at another endpoint (nothing is kept).
    async fn keep_receipt(&self, receipt: SignalReceipt) -> RepoResult<Option<OffsetDateTime>>;

    /// When the signal `id` of `source` was received, if its receipt is kept.
    async fn find_receipt(
        &self,
        source: SignalSource,
        id: &SignalId,
    ) -> RepoResult<Option<OffsetDateTime>>;

    /// Housekeeping: deletes up to `limit` receipts received before `before`; how many went.
    async fn prune_receipts(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64>;
}
