//! The audit trail as a query (docs/api.md#audit-trail): which events an operator asks for,
//! newest first, a page at a time by event id (time-ordered), so a page boundary never
//! skips or repeats an event, whatever is written meanwhile.

pub use crate::page_limit::EventPageLimit;
use crate::{AuditEvent, AuditEventId, AuditEventType, UserId};
use time::OffsetDateTime;

/// Which events, and where the page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventQuery {
    pub user: Option<UserId>,
    pub kind: Option<AuditEventType>,
    /// At or after this instant.
    pub since: Option<OffsetDateTime>,
    /// Before this instant.
    pub until: Option<OffsetDateTime>,
    /// Events older than this one: the previous page's last (the cursor).
    pub before: Option<AuditEventId>,
    pub limit: EventPageLimit,
}

impl EventQuery {
    /// The ids that bound the selection from below and above: `since` and `until` as ids
    /// (an id starts with its event's millisecond), and the cursor.
    pub fn id_bounds(&self) -> (Option<AuditEventId>, Option<AuditEventId>) {
        let lowest = self.since.map(|at| AuditEventId::at(at, [0; 8]));
        let until = self.until.map(|at| AuditEventId::at(at, [0; 8]));
        let highest = match (until, self.before) {
            (Some(until), Some(before)) => Some(until.min(before)),
            (bound, None) | (None, bound) => bound,
        };
        (lowest, highest)
    }

    /// Where the next page starts: after this page's last event, when the page is full (a
    /// shorter page is the last).
    pub fn next_cursor(&self, page: &[AuditEvent]) -> Option<AuditEventId> {
        let full = u64::try_from(page.len()).unwrap_or(u64::MAX) == self.limit.get();
        page.last().filter(|_| full).map(|last| last.id)
    }

    /// The next page's query, after a page whose last event is `last`.
    pub fn after(self, last: AuditEventId) -> Self {
        Self {
            before: Some(last),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::Duration;

    #[test]
    fn a_page_holds_one_to_a_thousand_events() {
        assert_eq!(EventPageLimit::new(0), None);
        assert_eq!(EventPageLimit::new(1).map(EventPageLimit::get), Some(1));
        assert_eq!(EventPageLimit::new(1000), Some(EventPageLimit::MAX));
        assert_eq!(EventPageLimit::new(1001), None);
        assert_eq!(EventPageLimit::new(u64::MAX), None);
    }

    #[test]
    fn the_time_bounds_become_id_bounds_and_the_cursor_the_tighter_upper_one() {
        let at = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let query = EventQuery {
            user: None,
            kind: None,
            since: Some(at),
            until: Some(at + Duration::hours(1)),
            before: None,
            limit: EventPageLimit::new(10).unwrap(),
        };
        let (lowest, highest) = query.id_bounds();
        assert_eq!(lowest, Some(AuditEventId::at(at, [0; 8])));
        let until = AuditEventId::at(at + Duration::hours(1), [0; 8]);
        assert_eq!(highest, Some(until));
        let earlier = AuditEventId::at(at + Duration::minutes(5), [9; 8]);
        assert_eq!(query.after(earlier).id_bounds().1, Some(earlier));
    }
}
