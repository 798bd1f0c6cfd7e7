//! `RefreshTokenRepository` on sea-orm: single-use refresh tokens in families, with reuse
//! detection and an absolute end per family.
//!
//! Rotation and revocation of a family serialise on its `refresh_families` row: rotation
//! locks it (`SELECT … FOR UPDATE` on PostgreSQL) before judging and inserting the
//! successor, and revocation updates it. So a revocation either commits first (the rotation
//! then sees the family revoked) or waits for the rotation to commit (its successor dies with
//! the family). A per-token update alone could not give this at READ COMMITTED: a rotation in
//! flight would insert its successor after the revocation's snapshot.
//!
//! Lock order: the user row, then the token, then the family. A deletion, a provider signal,
//! an operator's unlink and an operator's lock take the user before its sessions, so a
//! rotation share-locks the user first too (its successor's foreign key would otherwise take
//! a lock on it last).

use crate::SeaOrmRepository;
use crate::entity::{refresh_family, refresh_token};
use crate::error::repository_error;
use crate::mapping::family_from_row;
use crate::queries;
use crate::rows::{RowLock, user_is_locked};
use async_trait::async_trait;
use sea_orm::{ConnectionTrait, DatabaseTransaction, DbBackend, FromQueryResult};
use social_login_domain::refresh::{
    PresentedRefresh, RefreshFamily, RefreshRecord, RefreshTokenHash,
};
use social_login_domain::session_list::live_sessions;
use social_login_domain::{FamilyId, LoginMethod, UserId};
use social_login_ports::{
    Logout, PlanError, RefreshRotation, RefreshTokenRepository, RepoResult, RotateError, Rotated,
    RotationRefused, SessionEnding, SessionOpening, SessionSummary, StoredSession,
};
use time::OffsetDateTime;

#[async_trait]
impl RefreshTokenRepository for SeaOrmRepository {
    async fn start_family(&self, opening: SessionOpening) -> Result<(), PlanError> {
        let txn = self.begin_write().await?;
        // Under a share lock: an operator's lock in flight commits first, or waits for this
        // session and ends it.
        let locked = user_is_locked(&txn, opening.user, RowLock::Shared).await?;
        let plan = opening.plan(locked).map_err(|_| PlanError::Locked)?;
        crate::plan::apply(&txn, &plan).await?;
        Ok(txn.commit().await.map_err(repository_error)?)
    }

    async fn rotate_refresh(&self, rotation: RefreshRotation) -> Result<Rotated, RotateError> {
        let txn = self.begin_write().await?;
        // Under the user row's share lock: an operator's lock in flight is waited for and seen
        // here (403 `UserLocked`); one that comes later waits for this rotation, then revokes
        // the family, the successor with it.
        let Some(locked) = owner_locked(&txn, &rotation.presented).await? else {
            return Err(RotationRefused::Invalid.into());
        };
        // The token and its family as every earlier rotation of this family committed them
        // (read under their locks). The domain judges expiry, reuse and revocation. (Expiry
        // stays out of SQL also because SQLite stores timestamps as text that does not
        // compare chronologically.)
        let Some(record) = locked_record(&txn, &rotation.presented).await? else {
            return Err(RotationRefused::Invalid.into());
        };
        let plan = rotation.plan(Some(&record), locked);
        if !plan.writes.writes.is_empty() {
            crate::plan::apply(&txn, &plan.writes).await?;
            txn.commit().await.map_err(repository_error)?;
        }
        Ok(plan.outcome?)
    }

    async fn revoke_refresh(&self, logout: Logout) -> RepoResult<()> {
        // Under the family row's lock: it waits for a rotation in flight, then revokes the
        // successor that rotation committed with the rest.
        let txn = self.begin_write().await?;
        let record = locked_record(&txn, &logout.presented).await?;
        crate::plan::apply(&txn, &logout.plan(record.as_ref())).await?;
        txn.commit().await.map_err(repository_error)
    }

    async fn find_session(&self, id: FamilyId) -> RepoResult<Option<RefreshFamily>> {
        let found = queries::family(id.as_uuid())
            .one(self.connection())
            .await
            .map_err(repository_error)?;
        Ok(found.as_ref().map(family_from_row))
    }

    async fn list_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<SessionSummary>> {
        let families = queries::newest_sessions_of(user)
            .all(self.connection())
            .await
            .map_err(repository_error)?;
        let read = families.iter().map(|family| family.id);
        let issued = queries::tokens_issued_of(read)
            .into_tuple::<(uuid::Uuid, OffsetDateTime)>()
            .all(self.connection())
            .await
            .map_err(repository_error)?;
        let issued = issued
            .into_iter()
            .map(|(family, at)| (FamilyId::from_uuid(family), at));
        Ok(live_sessions(
            families.into_iter().map(stored_session).collect(),
            issued,
            now,
        ))
    }

    async fn end_session(&self, ending: SessionEnding) -> RepoResult<bool> {
        // Under the family row's lock, as logout: a rotation in flight dies with it.
        let txn = self.begin_write().await?;
        let family = crate::rows::locked_family_row(&txn, ending.session).await?;
        let stored = family.map(|family| (UserId::from_uuid(family.user_id), family.revoked));
        let Some(plan) = ending.plan(stored) else {
            return Ok(false);
        };
        crate::plan::apply(&txn, &plan).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(true)
    }

    async fn prune_expired(&self, now: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        // Ended families first, tokens included: none of their tokens can work any more.
        let ended = queries::ended_families(now, limit)
            .into_tuple::<uuid::Uuid>()
            .all(self.connection())
            .await
            .map_err(repository_error)?;
        let mut pruned = 0;
        if !ended.is_empty() {
            let txn = self.begin_write().await?;
            pruned += queries::delete_tokens_of(ended.clone())
                .exec(&*txn)
                .await
                .map_err(repository_error)?
                .rows_affected;
            pruned += queries::delete_families(ended)
                .exec(&*txn)
                .await
                .map_err(repository_error)?
                .rows_affected;
            txn.commit().await.map_err(repository_error)?;
        }
        // Then expired tokens of live families. A rotated-away token presented after this
        // is refused as unknown instead of revoking its family: past its expiry it is dead
        // anyway, and keeping every rotation until its family ends would grow without need.
        pruned += queries::delete_expired_tokens(now, limit)
            .exec(self.connection())
            .await
            .map_err(repository_error)?
            .rows_affected;
        Ok(pruned)
    }
}

/// A family's row as the domain reads a session.
fn stored_session(family: refresh_family::Model) -> StoredSession {
    StoredSession {
        id: FamilyId::from_uuid(family.id),
        created_at: family.created_at,
        expires_at: family.expires_at,
        began_with: family
            .began_with
            .as_deref()
            .and_then(LoginMethod::from_stored),
    }
}

/// The presented token as every earlier rotation of its family committed it, its family
/// locked until the transaction ends on PostgreSQL; `None` for an unknown token. SQLite
/// needs no lock: its single connection runs one transaction at a time.
async fn locked_record(
    txn: &DatabaseTransaction,
    presented: &PresentedRefresh,
) -> RepoResult<Option<RefreshRecord>> {
    if let Some((token, family)) = lock_token_and_family(txn, presented.hash).await? {
        let family = family_from_row(&family);
        return Ok(Some(RefreshRecord::stored(
            token.expires_at,
            token.used,
            &family,
        )));
    }
    // A token whose row went with its rotation: the family it proves, under the same lock.
    let Some(issue) = presented.issued_in else {
        return Ok(None);
    };
    let family = crate::rows::locked_family_row(txn, issue.family).await?;
    Ok(family.and_then(|family| RefreshRecord::row_gone(presented, &family_from_row(&family))))
}

/// Whether an operator locked the presented token's user (`None`: no such token, family or
/// user), the user row share-locked on PostgreSQL: first, in the lock order every writer of
/// a user's sessions keeps (the module's comment).
async fn owner_locked(
    txn: &DatabaseTransaction,
    presented: &PresentedRefresh,
) -> RepoResult<Option<bool>> {
    let backend = txn.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => format!("{TOKEN_OWNER} FOR SHARE"),
        _ => TOKEN_OWNER.to_owned(),
    };
    let family = presented.issued_in.map(|issue| issue.family.as_uuid());
    let values = vec![presented.hash.0.to_vec().into(), family.into()];
    let query = crate::raw_sql::statement(backend, &sql, values);
    let Some(row) = txn.query_one_raw(query).await.map_err(repository_error)? else {
        return Ok(None);
    };
    row.try_get("", "locked")
        .map(Some)
        .map_err(repository_error)
}

/// The user of a token (or, its row gone with its rotation, of the family it proves).
pub(crate) const TOKEN_OWNER: &str = "SELECT u.locked AS locked FROM users u WHERE u.id = \
     COALESCE((SELECT t.user_id FROM refresh_tokens t WHERE t.token_hash = ?1), \
     (SELECT f.user_id FROM refresh_families f WHERE f.id = ?2))";

/// The token's row and its family's, both locked on PostgreSQL (`FOR UPDATE OF t, f`: once
/// it holds the locks, PostgreSQL reads both rows again, so a row a rotation deleted
/// meanwhile is not returned), in one statement.
async fn lock_token_and_family(
    txn: &DatabaseTransaction,
    hash: RefreshTokenHash,
) -> RepoResult<Option<(refresh_token::Model, refresh_family::Model)>> {
    let backend = txn.get_database_backend();
    let sql = match backend {
        DbBackend::Postgres => format!("{TOKEN_AND_FAMILY} FOR UPDATE OF t, f"),
        _ => TOKEN_AND_FAMILY.to_owned(),
    };
    let query = crate::raw_sql::statement(backend, &sql, vec![hash.0.to_vec().into()]);
    let Some(row) = txn.query_one_raw(query).await.map_err(repository_error)? else {
        return Ok(None);
    };
    let token = refresh_token::Model::from_query_result(&row, "t_").map_err(repository_error)?;
    let family = refresh_family::Model::from_query_result(&row, "f_").map_err(repository_error)?;
    Ok(Some((token, family)))
}

/// A token's row and its family's, each column named with its table's prefix.
pub(crate) const TOKEN_AND_FAMILY: &str = "SELECT t.token_hash AS t_token_hash, t.user_id AS t_user_id, \
     t.family_id AS t_family_id, t.created_at AS t_created_at, t.expires_at AS t_expires_at, \
     t.used AS t_used, f.id AS f_id, f.user_id AS f_user_id, f.created_at AS f_created_at, \
     f.expires_at AS f_expires_at, f.revoked AS f_revoked, f.auth_time AS f_auth_time, \
     f.began_with AS f_began_with \
     FROM refresh_tokens t JOIN refresh_families f ON f.id = t.family_id \
     WHERE t.token_hash = ?1";

#[cfg(test)]
mod tests;
