//! `RefreshTokenRepository` on SQLite (see `crate::refresh_tokens` for the rules). The
//! single connection runs one transaction at a time: a rotation and a revocation of one
//! family never interleave, with no lock to take.

use super::columns::{execute, query_all, query_one, time_at, time_text, uuid_at};
use super::{SqliteRepository, audit, sql, write};
use async_trait::async_trait;
use rusqlite::{Connection, params};
use social_login_domain::refresh::{
    RefreshRecord, RefreshTokenHash, RefreshVerdict, judge, token_expiry,
};
use social_login_domain::{AuditContext, AuditEventType, FamilyId, UserId};
use social_login_ports::{
    NewRefreshToken, RefreshTokenRepository, RepositoryError, RotateError, Rotated, SessionStart,
};
use time::{Duration, OffsetDateTime};

/// What a rotation decided, committed before it is told.
enum Rotation {
    Rotated(Rotated),
    Reused,
    Refused,
    Locked,
}

#[async_trait]
impl RefreshTokenRepository for SqliteRepository {
    async fn start_family(
        &self,
        user: UserId,
        session: SessionStart,
        now: OffsetDateTime,
        audit: AuditContext,
    ) -> Result<(), RepositoryError> {
        let first = session.first_token(user, now);
        self.transact(move |tx| {
            insert_family(tx, &first, &session)?;
            insert_token(tx, &first)?;
            let event = audit.event(0, AuditEventType::UserLogin, first.user_id, None);
            audit::record(tx, &event, audit.outbox)
        })
        .await
    }

    async fn rotate_refresh(
        &self,
        presented: RefreshTokenHash,
        successor_hash: RefreshTokenHash,
        now: OffsetDateTime,
        successor_ttl: Duration,
        audit: AuditContext,
    ) -> Result<Rotated, RotateError> {
        let rotation = self
            .call(move |db| {
                write(db, |tx| -> Result<Rotation, RepositoryError> {
                    let Some(record) = record_of(tx, presented)? else {
                        return Ok(Rotation::Refused);
                    };
                    if super::admin::user_is_locked(tx, record.user_id)? {
                        return Ok(Rotation::Locked);
                    }
                    match judge(Some(&record), now) {
                        RefreshVerdict::Rotate {
                            user,
                            family: id,
                            auth_time,
                        } => {
                            execute(tx, sql::MARK_USED, [presented.0])?;
                            insert_token(
                                tx,
                                &NewRefreshToken {
                                    hash: successor_hash,
                                    user_id: user,
                                    family: id,
                                    created_at: now,
                                    expires_at: token_expiry(
                                        now,
                                        successor_ttl,
                                        record.family_expires_at,
                                    ),
                                },
                            )?;
                            Ok(Rotation::Rotated(Rotated { user, auth_time }))
                        }
                        RefreshVerdict::ReuseDetected { family: id } => {
                            execute(tx, sql::REVOKE_FAMILY, [id.as_uuid().into_bytes()])?;
                            let kind = AuditEventType::SessionRefreshReuseDetected;
                            let event = audit.event(0, kind, record.user_id, None);
                            audit::record(tx, &event, audit.outbox)?;
                            Ok(Rotation::Reused)
                        }
                        RefreshVerdict::Refuse => Ok(Rotation::Refused),
                    }
                })
            })
            .await?;
        match rotation {
            Rotation::Rotated(rotated) => Ok(rotated),
            Rotation::Reused => Err(RotateError::ReuseDetected),
            Rotation::Refused => Err(RotateError::Refused),
            Rotation::Locked => Err(RotateError::UserLocked),
        }
    }

    async fn revoke_refresh(
        &self,
        presented: RefreshTokenHash,
        audit: AuditContext,
    ) -> Result<(), RepositoryError> {
        // Only the first logout of a session records an event.
        self.transact(move |tx| {
            if let Some(record) = record_of(tx, presented)?
                && !record.revoked
            {
                let family = record.family.as_uuid().into_bytes();
                execute(tx, sql::REVOKE_FAMILY, [family])?;
                let event = audit.event(0, AuditEventType::SessionLogout, record.user_id, None);
                audit::record(tx, &event, audit.outbox)?;
            }
            Ok(())
        })
        .await
    }

    async fn prune_expired(&self, now: OffsetDateTime, limit: u64) -> Result<u64, RepositoryError> {
        self.call(move |db| prune(db, now, limit)).await
    }
}

/// The presented token with its family's state; `None` for an unknown token.
fn record_of(
    db: &Connection,
    presented: RefreshTokenHash,
) -> Result<Option<RefreshRecord>, RepositoryError> {
    let token = query_one(db, sql::TOKEN, [presented.0], |row| {
        Ok((
            uuid_at(row, 0)?,
            uuid_at(row, 1)?,
            time_at(row, 2)?,
            row.get::<_, bool>(3)?,
        ))
    })?;
    let Some((user_id, family_id, expires_at, used)) = token else {
        return Ok(None);
    };
    let family = query_one(db, sql::FAMILY, [family_id.into_bytes()], |row| {
        Ok((time_at(row, 2)?, row.get::<_, bool>(3)?, time_at(row, 4)?))
    })?;
    Ok(
        family.map(|(family_expires_at, revoked, auth_time)| RefreshRecord {
            user_id: UserId::from_uuid(user_id),
            family: FamilyId::from_uuid(family_id),
            expires_at,
            used,
            revoked,
            family_expires_at,
            auth_time,
        }),
    )
}

/// The family row of `session`, whose first token is `first`.
pub(super) fn insert_family(
    db: &Connection,
    first: &NewRefreshToken,
    session: &SessionStart,
) -> Result<usize, RepositoryError> {
    execute(
        db,
        sql::INSERT_FAMILY,
        params![
            first.family.as_uuid().into_bytes(),
            first.user_id.as_uuid().into_bytes(),
            time_text(first.created_at)?,
            time_text(session.family_expires_at)?,
            time_text(session.auth_time)?,
            session.began_with.as_str(),
        ],
    )
}

pub(super) fn insert_token(
    db: &Connection,
    token: &NewRefreshToken,
) -> Result<usize, RepositoryError> {
    execute(
        db,
        sql::INSERT_TOKEN,
        params![
            token.hash.0,
            token.user_id.as_uuid().into_bytes(),
            token.family.as_uuid().into_bytes(),
            time_text(token.created_at)?,
            time_text(token.expires_at)?,
        ],
    )
}

/// Ended families with their tokens first, then expired tokens of live families, each
/// batch one transaction (see `crate::refresh_tokens` for why).
fn prune(db: &mut Connection, now: OffsetDateTime, limit: u64) -> Result<u64, RepositoryError> {
    let (now, limit) = (time_text(now)?, i64::try_from(limit).unwrap_or(i64::MAX));
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
