//! `RefreshTokenRepository` on SQLite (see `crate::refresh_tokens` for the rules). The
//! single connection runs one transaction at a time: a rotation and a revocation of one
//! family never interleave, with no lock to take.

use super::columns::{count, execute, query_all, query_one, time_at, time_text, uuid_at};
use super::rows::user_is_locked;
use super::statements::Db;
use super::{SqliteRepository, plan, sql, write};
use async_trait::async_trait;
use rusqlite::params;
use social_login_domain::refresh::{PresentedRefresh, RefreshFamily, RefreshRecord};
use social_login_domain::session_list::{MAX_SESSIONS_READ, live_sessions};
use social_login_domain::{FamilyId, LoginMethod, UserId};
use social_login_ports::{
    Logout, PlanError, RefreshRotation, RefreshTokenRepository, RepoResult, RepositoryError,
    RotateError, Rotated, SessionEnding, SessionOpening, SessionSummary, StoredSession,
};
use time::OffsetDateTime;

#[async_trait]
impl RefreshTokenRepository for SqliteRepository {
    async fn start_family(&self, opening: SessionOpening) -> Result<(), PlanError> {
        self.transact(move |tx| {
            // One writer at a time: the lock read here holds until the commit.
            let locked = user_is_locked(tx, opening.user)?;
            let plan = opening.plan(locked).map_err(|_| PlanError::Locked)?;
            plan::apply(tx, &plan)
        })
        .await
    }

    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError> {
        let outcome = self
            .transact(move |tx| -> RepoResult<_> {
                let record = record_of(tx, &rotation.presented)?;
                let locked = match &record {
                    Some(record) => user_is_locked(tx, record.user_id)?,
                    None => false,
                };
                let plan = rotation.plan(record.as_ref(), locked);
                plan::apply(tx, &plan.writes)?;
                Ok(plan.outcome)
            })
            .await?;
        Ok(outcome?)
    }

    async fn revoke_refresh(&self, logout: Logout) -> RepoResult<()> {
        self.transact(move |tx| {
            let record = record_of(tx, &logout.presented)?;
            Ok(plan::apply(tx, &logout.plan(record.as_ref()))?)
        })
        .await
    }

    async fn find_session(&self, id: FamilyId) -> RepoResult<Option<RefreshFamily>> {
        self.call(move |db| family_of(db, id)).await
    }

    async fn list_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<SessionSummary>> {
        self.call(move |db| {
            let user = user.as_uuid().into_bytes();
            let most = i64::try_from(MAX_SESSIONS_READ).unwrap_or(i64::MAX);
            let newest = params![user, most];
            let sessions = query_all(db, sql::SESSIONS_OF, newest, |row| {
                Ok(StoredSession {
                    id: FamilyId::from_uuid(uuid_at(row, 0)?),
                    created_at: time_at(row, 1)?,
                    expires_at: time_at(row, 2)?,
                    began_with: row
                        .get::<_, Option<String>>(3)?
                        .as_deref()
                        .and_then(LoginMethod::from_stored),
                })
            })?;
            let newest = params![user, most];
            let issued = query_all(db, sql::TOKENS_ISSUED_OF, newest, |row| {
                Ok((FamilyId::from_uuid(uuid_at(row, 0)?), time_at(row, 1)?))
            })?;
            Ok(live_sessions(sessions, issued, now))
        })
        .await
    }

    async fn end_session(&self, ending: SessionEnding) -> RepoResult<bool> {
        self.transact(move |tx| {
            let stored = family_of(tx, ending.session)?.map(|f| (f.user_id, f.revoked));
            let Some(plan) = ending.plan(stored) else {
                return Ok(false);
            };
            plan::apply(tx, &plan)?;
            Ok(true)
        })
        .await
    }

    async fn prune_expired(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        self.call(move |db| prune(db, now, limit)).await
    }
}

/// The presented token with its family's state, or the family a token whose row went
/// proves; `None` for an unknown token.
fn record_of(db: &Db, presented: &PresentedRefresh) -> RepoResult<Option<RefreshRecord>> {
    let token = query_one(db, sql::TOKEN, [presented.hash.0], |row| {
        Ok((uuid_at(row, 0)?, time_at(row, 1)?, row.get::<_, bool>(2)?))
    })?;
    Ok(match (token, presented.issued_in) {
        (Some((family, expires_at, used)), _) => family_of(db, FamilyId::from_uuid(family))?
            .map(|family| RefreshRecord::stored(expires_at, used, &family)),
        (None, Some(issue)) => family_of(db, issue.family)?
            .and_then(|family| RefreshRecord::row_gone(presented, &family)),
        (None, None) => None,
    })
}

fn family_of(db: &Db, id: FamilyId) -> RepoResult<Option<RefreshFamily>> {
    query_one(db, sql::FAMILY, [id.as_uuid().into_bytes()], |row| {
        Ok(RefreshFamily {
            id,
            user_id: UserId::from_uuid(uuid_at(row, 1)?),
            expires_at: time_at(row, 2)?,
            revoked: row.get(3)?,
            auth_time: time_at(row, 4)?,
        })
    })
}

/// Ended families with their tokens first, then expired tokens of live families, each
/// batch one transaction (see `crate::refresh_tokens` for why).
fn prune(db: &Db, now: OffsetDateTime, limit: u64) -> RepoResult<u64> {
    let (now, limit) = (time_text(now)?, count(limit));
    let ended = write(db, |tx| {
        let ended = query_all(tx, sql::ENDED_FAMILIES, params![now, limit], |row| {
            row.get::<_, [u8; 16]>(0)
        })?;
        let mut pruned = 0;
        for family in ended {
            pruned += execute(tx, sql::DELETE_TOKENS_OF_FAMILY, [family])?;
            pruned += execute(tx, sql::DELETE_FAMILY, [family])?;
        }
        Ok::<_, RepositoryError>(pruned)
    })?;
    let expired = write(db, |tx| {
        execute(tx, sql::DELETE_EXPIRED_TOKENS, params![now, limit])
    })?;
    Ok((ended + expired) as u64)
}
