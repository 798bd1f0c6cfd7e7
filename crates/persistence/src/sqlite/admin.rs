//! `AdminRepository` on SQLite (see `crate::admin` for the rules). The single connection
//! runs one transaction at a time, so a lock, an unlink and a rotation never interleave.

use super::columns::{count, query_all, query_one, time_text, user_at};
use super::rows::{find_user, links_of};
use super::statements::Db;
use super::{SqliteRepository, sql};
use crate::mapping::{grant_from_columns, user_page};
use async_trait::async_trait;
use rusqlite::params;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::plan::WritePlan;
use social_login_domain::{AuditEvent, UserFilter, UserId};
use social_login_ports::{
    AdminRepository, EventQuery, LinkRemoval, LockChange, OperatorUnlink, RemoveLinkError, Remover,
    RepoResult, RepositoryError, SessionsRevocation, Unlinked, UserPage, UserSearch,
};
use time::OffsetDateTime;

#[async_trait]
impl AdminRepository for SqliteRepository {
    async fn find_users(&self, search: UserSearch) -> RepoResult<UserPage> {
        let after = search.after.map_or([0; 16], |id| id.as_uuid().into_bytes());
        // One more than a page: whether another page follows.
        let fetch = count(search.limit.get()).saturating_add(1);
        let read = |row: &rusqlite::Row| user_at(row, 0);
        self.call(move |db| {
            let rows = match &search.filter {
                UserFilter::All => query_all(db, sql::USERS_AFTER, params![after, fetch], read),
                UserFilter::Email(email) => query_all(
                    db,
                    sql::USERS_BY_EMAIL_AFTER,
                    params![email.normalized(), after, fetch],
                    read,
                ),
                UserFilter::Provider(provider) => query_all(
                    db,
                    sql::LINKED_USERS_AFTER,
                    params![provider.as_str(), after, fetch],
                    read,
                ),
                UserFilter::Account(provider, subject) => query_all(
                    db,
                    sql::LINKED_USER_OF_ACCOUNT_AFTER,
                    params![provider.as_str(), subject.as_str(), after, fetch],
                    read,
                ),
            }?;
            user_page(rows, search.limit)
        })
        .await
    }

    async fn active_sessions(&self, user: UserId, now: OffsetDateTime) -> RepoResult<u64> {
        let now = time_text(now)?;
        self.call(move |db| {
            let count = query_one(
                db,
                sql::COUNT_ACTIVE_SESSIONS,
                params![user.as_uuid().into_bytes(), now],
                |row| row.get::<_, i64>(0),
            )?;
            Ok(u64::try_from(count.unwrap_or(0)).unwrap_or(0))
        })
        .await
    }

    async fn set_locked(&self, change: LockChange) -> RepoResult<bool> {
        self.transact(move |tx| change_user(tx, change.user, &change.plan()))
            .await
    }

    async fn revoke_sessions(&self, revocation: SessionsRevocation) -> RepoResult<bool> {
        self.transact(move |tx| change_user(tx, revocation.user, &revocation.plan()))
            .await
    }

    async fn unlink(&self, unlink: OperatorUnlink) -> Result<Unlinked, RemoveLinkError> {
        self.transact(move |tx| super::admin::unlink(tx, &unlink.removal, unlink.remover()))
            .await
    }

    async fn find_events(&self, query: EventQuery) -> RepoResult<Vec<AuditEvent>> {
        self.call(move |db| {
            let (lowest, above) = query.id_bounds();
            let blob = |id: Option<social_login_domain::AuditEventId>, none: uuid::Uuid| {
                id.map_or(none, |id| id.as_uuid()).into_bytes()
            };
            let rows = super::columns::query_all(
                db,
                crate::outbox_sql::find_events(&query),
                rusqlite::params![
                    query.user.map(|user| user.as_uuid().into_bytes()),
                    query.kind.map(|kind| kind.as_str()),
                    blob(lowest, crate::outbox_sql::NO_LOWER_ID),
                    blob(above, crate::outbox_sql::NO_UPPER_ID),
                    count(query.limit.get()),
                ],
                super::columns::event_at,
            )?;
            rows.into_iter().map(crate::audit::from_row).collect()
        })
        .await
    }
}

/// Applies `plan` if `user` exists; whether it did.
fn change_user(tx: &Db, user: UserId, plan: &WritePlan) -> RepoResult<bool> {
    if find_user(tx, user)?.is_none() {
        return Ok(false);
    }
    super::plan::apply(tx, plan)?;
    Ok(true)
}

/// Removes the user's link of `provider` under `domain::admin::decide_unlink`, inside the
/// caller's transaction, as `by` may.
pub(super) fn unlink(
    tx: &Db,
    removal: &LinkRemoval,
    by: Remover,
) -> Result<Unlinked, RemoveLinkError> {
    let Some(user) = find_user(tx, removal.user)? else {
        return Err(DisconnectRefused::NotLinked.into());
    };
    let links = links_of(tx, user.id)?;
    let plan = removal.plan(&user, &links, by)?;
    let doomed = plan.unlink.link.as_uuid().into_bytes();
    let grant = query_one(tx, sql::GRANT_OF_LINK, [doomed], |row| {
        Ok(grant_from_columns(
            &row.get::<_, String>(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
        ))
    })?
    .ok_or_else(|| RepositoryError::Internal("the link to remove is gone".into()))??;
    super::plan::apply(tx, &plan.writes)?;
    Ok(Unlinked {
        grant,
        locked: plan.unlink.lock,
    })
}
