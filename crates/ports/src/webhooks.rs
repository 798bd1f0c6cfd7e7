//! The webhook ports: the outbox of audit events waiting for delivery, and the sender.
//!
//! Events are queued in the same transaction that records them (see the repository), so a
//! delivery is never lost to a crash. Each queued event has its own schedule (next attempt,
//! failed attempts) and is claimed under a lease, so any number of instances deliver several
//! events at once and never the same one twice at the same time. An event the receiver keeps
//! refusing, or that waited too long, becomes a dead letter: kept, never claimed again until
//! an operator redelivers it.

use crate::RepoResult;
use async_trait::async_trait;
use social_login_domain::{AuditEvent, AuditEventId};
use time::{Duration, OffsetDateTime};

/// An event claimed for delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDelivery {
    pub event: AuditEvent,
    /// Failed attempts counted so far (this one not included).
    pub attempts: u32,
    /// When an operator last redelivered it, if ever.
    pub redelivered_at: Option<OffsetDateTime>,
    /// When the claim that handed it out runs out: the fence of the writes that end the
    /// attempt (another claimant may hold it after).
    pub claimed_until: OffsetDateTime,
}

impl PendingDelivery {
    /// Since when it has waited to be delivered: its redelivery, else its event's creation.
    /// Its age, for dead-lettering, counts from here.
    pub fn queued_at(&self) -> OffsetDateTime {
        self.redelivered_at
            .map_or(self.event.created_at, |at| at.max(self.event.created_at))
    }
}

/// A claim of events for delivery: made at `now`, it lasts `lease`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    pub now: OffsetDateTime,
    pub lease: Duration,
}

impl Claim {
    pub fn new(now: OffsetDateTime, lease: Duration) -> Self {
        Self { now, lease }
    }

    /// When the claim runs out and another claimant may take its events.
    pub fn expires_at(&self) -> OffsetDateTime {
        self.now + self.lease
    }
}

/// What the outbox keeps of a failed attempt to deliver `event`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub event: AuditEventId,
    /// The event's failed attempts, this one included if it counted.
    pub attempts: u32,
    /// Why, for operators (a status or "no answer"; never a secret, at most
    /// [`Failure::MAX_ERROR_CHARS`] characters).
    pub error: String,
    /// The claim the attempt was made under ([`PendingDelivery::claimed_until`]): the failure
    /// is written only while the event is still held by it. `None`: whoever holds it.
    pub claimed_until: Option<OffsetDateTime>,
}

impl Failure {
    pub const MAX_ERROR_CHARS: usize = 200;

    pub fn new(event: AuditEventId, attempts: u32, error: &str) -> Self {
        Self {
            event,
            attempts,
            error: error.chars().take(Self::MAX_ERROR_CHARS).collect(),
            claimed_until: None,
        }
    }

    /// The failure of an attempt made under the claim that ends at `claimed_until`.
    pub fn under_claim(self, claimed_until: OffsetDateTime) -> Self {
        Self {
            claimed_until: Some(claimed_until),
            ..self
        }
    }
}

/// A sweep of pending events into the dead letters at `now`: at most `limit` of them, and
/// `reason` becomes the last error of those that never had one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sweep {
    pub now: OffsetDateTime,
    pub reason: &'static str,
    pub limit: u64,
}

impl Sweep {
    pub fn new(now: OffsetDateTime, reason: &'static str, limit: u64) -> Self {
        Self { now, reason, limit }
    }
}

/// An event given up on, as `social-login webhooks dead` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadLetter {
    pub event: AuditEvent,
    pub attempts: u32,
    pub dead_at: OffsetDateTime,
    pub last_error: Option<String>,
}

/// How many events wait for delivery, and how many were given up on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OutboxCounts {
    pub pending: u64,
    pub dead: u64,
}

/// The queue of events to deliver, shared by every instance.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait WebhookOutbox: Send + Sync {
    /// Claims up to `limit` due events (next attempt not after the claim's `now`) that no
    /// live claim holds, the soonest due first (then the oldest); each claim lasts its
    /// `lease`. Two claimants never get the same event while its lease runs.
    async fn claim_due(&self, claim: Claim, limit: u32) -> RepoResult<Vec<PendingDelivery>>;

    /// Claims the one pending event whose turn comes first, due or not (a probe of a
    /// receiver that seemed away), under the same lease rule.
    async fn claim_probe(&self, claim: Claim) -> RepoResult<Option<PendingDelivery>>;

    /// Takes the turn to probe a receiver that seems away: true when no turn taken before is
    /// still running at `now`; the next may then be taken at `next`. Settled by the database,
    /// so of every instance that holds the receiver for away, one probes per period.
    async fn take_probe_turn(&self, now: OffsetDateTime, next: OffsetDateTime) -> RepoResult<bool>;

    /// Delivered: leaves the outbox, if the claim that ends at `claimed_until` still holds
    /// it (`None`: whoever holds it). Settled by the database: an attempt that outlived its
    /// lease never undoes what the instance that took the event over does.
    async fn remove(
        &self,
        id: AuditEventId,
        claimed_until: Option<OffsetDateTime>,
    ) -> RepoResult<()>;

    /// Failed: released, due again at `at`, under the same fence as [`Self::remove`].
    /// Nothing happens to a dead letter.
    async fn retry_at(&self, failure: Failure, at: OffsetDateTime) -> RepoResult<()>;

    /// Failed for good: kept as a dead letter, never claimed again until redelivered (under
    /// the same fence).
    async fn dead_letter(&self, failure: Failure, now: OffsetDateTime) -> RepoResult<()>;

    /// Sweeps the pending events written before `before` that no live claim holds and that
    /// were not redelivered since `before`. Returns how many.
    async fn dead_letter_written_before(
        &self,
        before: OffsetDateTime,
        sweep: Sweep,
    ) -> RepoResult<u64>;

    /// Keeps the newest `keep` pending events and sweeps the others, oldest first (the
    /// outbox's bound). Returns how many.
    async fn dead_letter_beyond(&self, keep: u64, sweep: Sweep) -> RepoResult<u64>;

    /// Keeps the `keep` dead letters that died last and forgets up to `limit` of the
    /// others, those that died first (their events stay in the audit trail until pruned).
    /// Returns how many.
    async fn forget_dead_beyond(&self, keep: u64, limit: u64) -> RepoResult<u64>;

    async fn counts(&self) -> RepoResult<OutboxCounts>;

    /// Up to `limit` dead letters, in the order they died. Events pruned since are left out.
    async fn dead_letters(&self, limit: u64) -> RepoResult<Vec<DeadLetter>>;

    /// Puts one dead letter back in the queue, due at `now`, its attempts reset. False when
    /// `id` is no dead letter.
    async fn redeliver(&self, id: AuditEventId, now: OffsetDateTime) -> RepoResult<bool>;

    /// [`WebhookOutbox::redeliver`] for up to `limit` dead letters, the oldest first; returns
    /// how many (the caller repeats while it is `limit`).
    async fn redeliver_dead(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64>;

    /// Housekeeping: forgets up to `limit` rows of events written before `before` (dead
    /// letters whose event is pruned). Returns how many.
    async fn forget_written_before(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64>;
}

/// Why a delivery failed; the text is for logs and the dead-letter list (never a secret).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeliveryError {
    /// No answer (refused connection, timeout) or an answer saying the receiver itself is
    /// unavailable (429, any 5xx): says nothing about the event.
    #[error("receiver unavailable: {0}")]
    Unavailable(String),
    /// The receiver answered and did not accept this event (any other status).
    #[error("receiver answered {0}")]
    Refused(u16),
}

/// Posts one event to the receiver.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait WebhookSender: Send + Sync {
    async fn send(&self, event: &AuditEvent, now: OffsetDateTime) -> Result<(), DeliveryError>;
}
