//! The webhook outbox's statements, written once for both adapters: SQLite's text as is,
//! PostgreSQL's with `$n` placeholders (`crate::raw_sql`). Every one is in the `EXPLAIN` tests.
//!
//! Times are Unix milliseconds. A dead letter (`dead_at_ms` set) is never due: its next
//! attempt is [`NEVER`], so the claim's index range excludes it.

/// The next attempt of a dead letter.
pub(crate) const NEVER: i64 = i64::MAX;

pub(crate) const INSERT: &str = "INSERT INTO webhook_outbox (event_id, attempts, \
     next_attempt_ms, locked_until_ms) VALUES (?1, 0, ?2, 0)";

/// ?1 lease end, ?2 due by (below [`NEVER`], which keeps dead letters out through the
/// index range), ?3 now, ?4 how many. `/*lock*/` becomes `FOR UPDATE SKIP LOCKED` on
/// PostgreSQL: a concurrent claimant skips the rows this one is taking (and re-checks the
/// lease of the rows it does take); SQLite runs one writer at a time.
pub(crate) const CLAIM: &str = "UPDATE webhook_outbox SET locked_until_ms = ?1 \
     WHERE seq IN (SELECT seq FROM webhook_outbox WHERE next_attempt_ms <= ?2 \
     AND locked_until_ms <= ?3 ORDER BY next_attempt_ms, seq \
     LIMIT ?4 /*lock*/) RETURNING next_attempt_ms, seq, event_id, attempts, redelivered_ms";

/// ?1 event, ?2 next attempt, ?3 attempts, ?4 error, ?5 the claim's end (NULL: any claim).
pub(crate) const RETRY: &str = "UPDATE webhook_outbox SET next_attempt_ms = ?2, \
     locked_until_ms = 0, attempts = ?3, last_error = ?4 \
     WHERE event_id = ?1 AND dead_at_ms IS NULL AND (?5 IS NULL OR locked_until_ms = ?5)";

/// ?1 event, ?2 now, ?3 attempts, ?4 error, ?5 the claim's end (NULL: any claim).
pub(crate) const DEAD_LETTER: &str = "UPDATE webhook_outbox SET dead_at_ms = ?2, \
     next_attempt_ms = 9223372036854775807, locked_until_ms = 0, attempts = ?3, \
     last_error = ?4 WHERE event_id = ?1 AND dead_at_ms IS NULL \
     AND (?5 IS NULL OR locked_until_ms = ?5)";

/// ?1 event, ?2 the claim's end (NULL: any claim).
pub(crate) const DELETE: &str =
    "DELETE FROM webhook_outbox WHERE event_id = ?1 AND (?2 IS NULL OR locked_until_ms = ?2)";

/// ?1 bound (event ids are time-ordered UUIDv7: "written before" is "smaller id"), ?2 now,
/// ?3 reason, ?4 how many, ?5 the bound in Unix ms (a redelivered row counts its age from
/// its redelivery). A range of `(dead_at_ms, event_id)`: only old pending rows are read,
/// never the old dead letters.
pub(crate) const DEAD_LETTER_BEFORE: &str = "UPDATE webhook_outbox SET dead_at_ms = ?2, \
     next_attempt_ms = 9223372036854775807, last_error = COALESCE(last_error, ?3) \
     WHERE seq IN (SELECT seq FROM webhook_outbox WHERE dead_at_ms IS NULL \
     AND event_id < ?1 AND locked_until_ms <= ?2 \
     AND (redelivered_ms IS NULL OR redelivered_ms < ?5) LIMIT ?4)";

/// ?1 how many to keep (the newest), ?2 now, ?3 reason, ?4 how many at most. The types of
/// `AuditEventType::KEPT_WHEN_FULL` are never swept (a test holds the list to it).
pub(crate) const DEAD_LETTER_BEYOND: &str = "UPDATE webhook_outbox SET dead_at_ms = ?2, \
     next_attempt_ms = 9223372036854775807, last_error = COALESCE(last_error, ?3) \
     WHERE seq IN (SELECT o.seq FROM webhook_outbox o JOIN audit_events e ON e.id = o.event_id \
     WHERE o.dead_at_ms IS NULL AND e.type NOT IN ('user.deleted', 'user.locked') \
     ORDER BY o.event_id DESC LIMIT ?4 OFFSET ?1)";

/// ?1 how many to keep (those that died last), ?2 how many to forget at most.
pub(crate) const FORGET_DEAD_BEYOND: &str = "DELETE FROM webhook_outbox WHERE seq IN \
     (SELECT seq FROM webhook_outbox WHERE dead_at_ms IS NOT NULL \
     ORDER BY dead_at_ms DESC, event_id DESC LIMIT ?2 OFFSET ?1)";

pub(crate) const COUNT_PENDING: &str =
    "SELECT COUNT(*) AS n FROM webhook_outbox WHERE dead_at_ms IS NULL";
pub(crate) const COUNT_DEAD: &str =
    "SELECT COUNT(*) AS n FROM webhook_outbox WHERE dead_at_ms IS NOT NULL";

/// The audit trail as a query, newest first: ?1 NULL (any user; named so that both
/// statements take the same values, and PostgreSQL types every one), ?2 type (NULL: any), ids
/// from ?3 up to below ?4 ([`NO_LOWER_ID`], [`NO_UPPER_ID`]: no bound), ?5 how many. The
/// id range is always given, so each page is a range of the primary key rather than a scan
/// from the newest event past every page already read. The columns as `EVENTS_OF` reads
/// them.
pub(crate) const FIND_EVENTS: &str = "SELECT id, user_id, type, provider, ip, user_agent, \
     request_id, created_at, admin_key_id, via FROM audit_events \
     WHERE ?1 IS NULL AND id >= ?3 AND id < ?4 \
     AND (?2 IS NULL OR type = ?2) ORDER BY id DESC LIMIT ?5";
/// [`FIND_EVENTS`] of one user, ?1: a range of the user's index (`user_id, id`), which an
/// `?1 IS NULL OR user_id = ?1` would keep the planner from choosing.
pub(crate) const FIND_EVENTS_OF_USER: &str = "SELECT id, user_id, type, provider, ip, \
     user_agent, request_id, created_at, admin_key_id, via FROM audit_events \
     WHERE user_id = ?1 AND id >= ?3 AND id < ?4 \
     AND (?2 IS NULL OR type = ?2) ORDER BY id DESC LIMIT ?5";

/// The statement that serves `query`.
pub(crate) fn find_events(query: &social_login_domain::event_query::EventQuery) -> &'static str {
    match query.user {
        Some(_) => FIND_EVENTS_OF_USER,
        None => FIND_EVENTS,
    }
}
/// The ids of [`FIND_EVENTS`] without a bound on that side.
pub(crate) const NO_LOWER_ID: uuid::Uuid = uuid::Uuid::nil();
pub(crate) const NO_UPPER_ID: uuid::Uuid = uuid::Uuid::max();

/// ?1 how many. The event's columns first, as `EVENTS_OF` reads them.
pub(crate) const DEAD_LETTERS: &str = "SELECT e.id, e.user_id, e.type, e.provider, e.ip, \
     e.user_agent, e.request_id, e.created_at, e.admin_key_id, e.via, o.attempts, o.dead_at_ms, \
     o.last_error \
     FROM webhook_outbox o JOIN audit_events e ON e.id = o.event_id \
     WHERE o.dead_at_ms IS NOT NULL ORDER BY o.dead_at_ms, o.event_id LIMIT ?1";

/// ?1 event, ?2 now.
pub(crate) const REDELIVER: &str = "UPDATE webhook_outbox SET dead_at_ms = NULL, \
     next_attempt_ms = ?2, locked_until_ms = 0, attempts = 0, last_error = NULL, \
     redelivered_ms = ?2 WHERE event_id = ?1 AND dead_at_ms IS NOT NULL";

/// ?1 now, ?2 how many.
pub(crate) const REDELIVER_DEAD: &str = "UPDATE webhook_outbox SET dead_at_ms = NULL, \
     next_attempt_ms = ?1, locked_until_ms = 0, attempts = 0, last_error = NULL, \
     redelivered_ms = ?1 WHERE seq IN (SELECT seq FROM webhook_outbox WHERE dead_at_ms IS NOT NULL \
     ORDER BY dead_at_ms, event_id LIMIT ?2)";

/// ?1 bound (as in [`DEAD_LETTER_BEFORE`]), ?2 how many.
pub(crate) const FORGET_BEFORE: &str = "DELETE FROM webhook_outbox WHERE seq IN \
     (SELECT seq FROM webhook_outbox WHERE event_id < ?1 LIMIT ?2)";

/// ?1 now, ?2 when the next probe may go. Updates the one row only when no taken turn is
/// still running; a concurrent taker waits for the row's lock and then finds it taken.
pub(crate) const TAKE_PROBE_TURN: &str =
    "UPDATE webhook_probe_turn SET next_ms = ?2 WHERE id = 1 AND next_ms <= ?1";

/// Every statement with a plan (all but the insert), for the `EXPLAIN` tests.
#[cfg(test)]
pub(crate) const ALL: [(&str, &str); 16] = [
    ("CLAIM", CLAIM),
    ("RETRY", RETRY),
    ("DEAD_LETTER", DEAD_LETTER),
    ("DELETE", DELETE),
    ("DEAD_LETTER_BEFORE", DEAD_LETTER_BEFORE),
    ("DEAD_LETTER_BEYOND", DEAD_LETTER_BEYOND),
    ("COUNT_PENDING", COUNT_PENDING),
    ("COUNT_DEAD", COUNT_DEAD),
    ("DEAD_LETTERS", DEAD_LETTERS),
    ("REDELIVER", REDELIVER),
    ("REDELIVER_DEAD", REDELIVER_DEAD),
    ("FORGET_BEFORE", FORGET_BEFORE),
    ("FIND_EVENTS", FIND_EVENTS),
    ("FIND_EVENTS_OF_USER", FIND_EVENTS_OF_USER),
    ("TAKE_PROBE_TURN", TAKE_PROBE_TURN),
    ("FORGET_DEAD_BEYOND", FORGET_DEAD_BEYOND),
];

/// The id below which every event was written before `at` (ids are time-ordered UUIDv7).
pub(crate) fn id_bound(at: time::OffsetDateTime) -> uuid::Uuid {
    social_login_domain::AuditEventId::at(at, [0; 8]).as_uuid()
}

#[cfg(test)]
mod tests {
    use social_login_domain::AuditEventType;

    #[test]
    fn the_overflow_sweep_spares_exactly_the_types_kept_when_full() {
        let kept = AuditEventType::KEPT_WHEN_FULL.map(|kind| format!("'{}'", kind.as_str()));
        let spared = format!("e.type NOT IN ({})", kept.join(", "));
        assert!(super::DEAD_LETTER_BEYOND.contains(&spared), "{spared}");
    }
}
