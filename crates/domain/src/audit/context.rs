//! What a write records its events with: the request's origin, the time, and the ids its
//! events get.

use super::{AuditEvent, AuditEventId, AuditEventType, EventSet, Origin};
use crate::{ProviderKey, UserId};
use time::{Duration, OffsetDateTime};

/// Most events one operation records (a signal's, the unlink it causes, the profile that
/// goes with it).
pub const EVENTS_PER_OPERATION: usize = 3;

/// What a write needs to record its events: where the request came from, when, ids for the
/// events, and which types go to the webhook outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditContext {
    pub origin: Origin,
    pub at: OffsetDateTime,
    pub ids: [AuditEventId; EVENTS_PER_OPERATION],
    pub outbox: EventSet,
}

impl AuditContext {
    /// Ids for the events of an operation at `at`, each a microsecond after the one before,
    /// so they sort in the order they are recorded (a login after its registration).
    pub fn ids_at(
        at: OffsetDateTime,
        mut random: impl FnMut() -> [u8; 8],
    ) -> [AuditEventId; EVENTS_PER_OPERATION] {
        std::array::from_fn(|index| {
            let after = Duration::microseconds(i64::try_from(index).unwrap_or(0));
            AuditEventId::at(at + after, random())
        })
    }

    /// The plan of one write that records one event (`kind`, about `user` and `provider`).
    pub fn plan(
        &self,
        write: crate::plan::Write,
        kind: AuditEventType,
        user: UserId,
        provider: Option<ProviderKey>,
    ) -> crate::plan::WritePlan {
        let mut plan = crate::plan::WritePlan::new(self.outbox);
        plan.write(write)
            .record(self.event(0, kind, user, provider));
        plan
    }

    /// The `index`-th event of this operation (below [`EVENTS_PER_OPERATION`]).
    pub fn event(
        &self,
        index: usize,
        kind: AuditEventType,
        user: UserId,
        provider: Option<ProviderKey>,
    ) -> AuditEvent {
        AuditEvent {
            id: self.ids[index.min(EVENTS_PER_OPERATION - 1)],
            kind,
            user_id: user,
            provider,
            origin: self.origin.clone(),
            created_at: self.at,
        }
    }
}
