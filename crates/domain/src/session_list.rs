//! A user's own sessions (docs/api.md#your-sessions): which are live, when each was last used,
//! and ending one of them.

use crate::plan::{Write, WritePlan};
use crate::session::LoginMethod;
use crate::{AuditContext, AuditEventType, FamilyId, UserId};
use std::collections::HashMap;
use time::OffsetDateTime;

/// Most sessions a user's list shows: the newest.
pub const MAX_LISTED_SESSIONS: usize = 100;

/// Most sessions a store reads for a list: the newest created. A user who keeps logging in
/// cannot make one listing read without end; a session older than these (of a user with
/// that many) is not listed, though it still works.
pub const MAX_SESSIONS_READ: u64 = 1_000;

/// A session its store keeps and has not revoked (the stores read only those).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSession {
    pub id: FamilyId,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    /// `None` for a session from before the service recorded it.
    pub began_with: Option<LoginMethod>,
}

/// A live session as its user sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    pub id: FamilyId,
    pub created_at: OffsetDateTime,
    /// When its newest refresh token was issued (its login, or its last refresh).
    pub last_used_at: OffsetDateTime,
    pub began_with: Option<LoginMethod>,
}

/// The live sessions among `stored` at `now`, newest use first, at most
/// [`MAX_LISTED_SESSIONS`]; `issued` are the sessions' refresh tokens (session, issued at).
pub fn live_sessions(
    stored: Vec<StoredSession>,
    issued: impl IntoIterator<Item = (FamilyId, OffsetDateTime)>,
    now: OffsetDateTime,
) -> Vec<SessionSummary> {
    let mut newest: HashMap<FamilyId, OffsetDateTime> = HashMap::new();
    for (session, at) in issued {
        let last = newest.entry(session).or_insert(at);
        *last = (*last).max(at);
    }
    let mut live: Vec<SessionSummary> = stored
        .into_iter()
        .filter(|session| session.expires_at > now)
        .map(|session| SessionSummary {
            id: session.id,
            created_at: session.created_at,
            last_used_at: newest
                .get(&session.id)
                .copied()
                .unwrap_or(session.created_at),
            began_with: session.began_with,
        })
        .collect();
    live.sort_by(|a, b| b.last_used_at.cmp(&a.last_used_at).then(b.id.cmp(&a.id)));
    live.truncate(MAX_LISTED_SESSIONS);
    live
}

/// The user ending one of their own sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionEnding {
    pub user: UserId,
    pub session: FamilyId,
    /// Records `session.logout`.
    pub audit: AuditContext,
}

impl SessionEnding {
    /// Revokes the session and records `session.logout` when `stored` (the session as its
    /// transaction read it, with its user) is this user's and live; `None` otherwise (another
    /// user's, unknown, ended already): nothing is written, and the caller answers 404.
    pub fn plan(&self, stored: Option<(UserId, bool)>) -> Option<WritePlan> {
        let (owner, revoked) = stored?;
        if owner != self.user || revoked {
            return None;
        }
        let logout = AuditEventType::SessionLogout;
        Some(
            self.audit
                .plan(Write::RevokeFamily(self.session), logout, self.user, None),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::Duration;

    fn at(minutes: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap() + Duration::minutes(minutes)
    }

    fn stored(id: FamilyId, created: i64, expires: i64) -> StoredSession {
        StoredSession {
            id,
            created_at: at(created),
            expires_at: at(expires),
            began_with: Some(LoginMethod::Password),
        }
    }

    #[test]
    fn only_live_sessions_are_listed_newest_use_first() {
        let (old, new, expired) = (FamilyId::new(), FamilyId::new(), FamilyId::new());
        let sessions = vec![
            stored(old, 0, 100),
            stored(new, 10, 100),
            stored(expired, 0, 5),
        ];
        let issued = [(old, at(0)), (old, at(30)), (new, at(10))];
        let listed = live_sessions(sessions, issued, at(40));
        let ids: Vec<FamilyId> = listed.iter().map(|session| session.id).collect();
        assert_eq!(ids, [old, new], "the old one was refreshed last");
        assert_eq!(listed[0].last_used_at, at(30));
        assert_eq!(listed[1].last_used_at, at(10));
    }

    #[test]
    fn a_user_ends_only_a_live_session_of_their_own() {
        let ada = UserId::new();
        let ending = SessionEnding {
            user: ada,
            session: FamilyId::new(),
            audit: crate::test_fixtures::audit(),
        };
        let plan = ending.plan(Some((ada, false))).expect("her live session");
        assert_eq!(plan.writes, [Write::RevokeFamily(ending.session)]);
        assert_eq!(plan.events[0].kind, AuditEventType::SessionLogout);
        assert_eq!(ending.plan(Some((UserId::new(), false))), None, "another's");
        assert_eq!(ending.plan(Some((ada, true))), None, "ended already");
        assert_eq!(ending.plan(None), None, "unknown");
    }
}
