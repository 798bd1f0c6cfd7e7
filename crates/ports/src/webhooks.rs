//! The webhook ports: the outbox of audit events waiting for delivery, and the sender.
//!
//! Events are queued in the same transaction that records them (see the repository), so a
//! delivery is never lost to a crash; the delivery loop claims them one at a time, oldest
//! first, so a receiver sees a user's events in order, at least once.

use crate::RepositoryError;
use async_trait::async_trait;
use social_login_domain::{AuditEvent, AuditEventId};
use time::{Duration, OffsetDateTime};

/// An event claimed for delivery, and how many attempts it has had (this one included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingDelivery {
    pub event: AuditEvent,
    pub attempts: u32,
}

/// The queue of events to deliver, shared by every instance.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait WebhookOutbox: Send + Sync {
    /// Claims the oldest queued event if it is due (its next attempt is not after `now`)
    /// and no other claim on it is still running; the claim lasts `lease`. Only ever the
    /// oldest, so deliveries keep their order across instances.
    async fn claim_next(
        &self,
        now: OffsetDateTime,
        lease: Duration,
    ) -> Result<Option<PendingDelivery>, RepositoryError>;

    /// Delivered (or given up on): leaves the queue.
    async fn remove(&self, id: AuditEventId) -> Result<(), RepositoryError>;

    /// Failed: released, due again at `at`.
    async fn retry_at(&self, id: AuditEventId, at: OffsetDateTime) -> Result<(), RepositoryError>;
}

/// Why a delivery failed; the text is for logs (never a secret).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("webhook delivery failed: {0}")]
pub struct DeliveryError(pub String);

/// Posts one event to the receiver.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait WebhookSender: Send + Sync {
    async fn send(&self, event: &AuditEvent, now: OffsetDateTime) -> Result<(), DeliveryError>;
}
