//! `RefreshTokenRepository` of the in-memory store: rotation judged by the domain's `judge`.

use crate::InMemoryRepository;
use async_trait::async_trait;
use social_login_domain::refresh::RefreshFamily;
use social_login_domain::session_list::{MAX_SESSIONS_READ, live_sessions};
use social_login_domain::{FamilyId, UserId};
use social_login_ports::{
    Logout, PlanError, RefreshRotation, RefreshTokenRepository, RepoResult, RepositoryError,
    RotateError, Rotated, SessionEnding, SessionOpening, SessionSummary, StoredSession,
};
use std::collections::HashSet;
use time::OffsetDateTime;

#[async_trait]
impl RefreshTokenRepository for InMemoryRepository {
    async fn start_family(&self, opening: SessionOpening) -> Result<(), PlanError> {
        self.transact(|tables| {
            let locked = tables.user(opening.user).is_some_and(|user| user.locked);
            let plan = opening.plan(locked).map_err(|_| PlanError::Locked)?;
            tables.apply(plan)
        })
    }

    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError> {
        let outcome = self.transact(|tables| -> RepoResult<_> {
            let record = tables.refresh_record(&rotation.presented);
            // As the database: a token of a locked user is refused whatever its state.
            let owner = record.as_ref().and_then(|r| tables.user(r.user_id));
            let plan = rotation.plan(record.as_ref(), owner.is_some_and(|owner| owner.locked));
            tables.apply(plan.writes)?;
            Ok(plan.outcome)
        })?;
        Ok(outcome?)
    }

    async fn revoke_refresh(&self, logout: Logout) -> RepoResult<()> {
        self.transact(|tables| {
            let record = tables.refresh_record(&logout.presented);
            Ok(tables.apply(logout.plan(record.as_ref()))?)
        })
    }

    async fn find_session(&self, id: FamilyId) -> RepoResult<Option<RefreshFamily>> {
        Ok(self.lock().family(id))
    }

    async fn list_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<SessionSummary>> {
        let tables = self.lock();
        let mut sessions: Vec<StoredSession> = tables
            .families
            .iter()
            .filter(|(id, family)| family.user == user && !tables.revoked.contains(id))
            .map(|(id, family)| StoredSession {
                id: *id,
                created_at: family.created_at,
                expires_at: family.ends_at,
                began_with: family.began_with,
            })
            .collect();
        // The newest created, as the stores read them.
        sessions.sort_by_key(|session| std::cmp::Reverse(session.created_at));
        sessions.truncate(usize::try_from(MAX_SESSIONS_READ).unwrap_or(usize::MAX));
        let read: HashSet<FamilyId> = sessions.iter().map(|session| session.id).collect();
        let issued = tables
            .tokens
            .values()
            .filter(|token| read.contains(&token.family))
            .map(|token| (token.family, token.issued_at));
        Ok(live_sessions(sessions, issued, now))
    }

    async fn end_session(&self, ending: SessionEnding) -> RepoResult<bool> {
        self.transact(|tables| {
            let stored = tables
                .families
                .get(&ending.session)
                .map(|family| (family.user, tables.revoked.contains(&ending.session)));
            match ending.plan(stored) {
                Some(plan) => tables.apply(plan).map(|()| true),
                None => Ok(false),
            }
        })
        .map_err(RepositoryError::from)
    }

    async fn prune_expired(&self, now: OffsetDateTime, _limit: u64) -> RepoResult<u64> {
        let mut tables = self.lock();
        let ended: HashSet<FamilyId> = tables
            .families
            .iter()
            .filter(|(_, family)| family.ends_at < now)
            .map(|(id, _)| *id)
            .collect();
        let before = tables.tokens.len() + tables.families.len();
        tables
            .tokens
            .retain(|_, token| token.expires_at >= now && !ended.contains(&token.family));
        tables.families.retain(|id, _| !ended.contains(id));
        tables.revoked.retain(|id| !ended.contains(id));
        Ok((before - tables.tokens.len() - tables.families.len()) as u64)
    }
}
