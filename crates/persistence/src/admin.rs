//! `AdminRepository` on sea-orm: the operator's searches and changes (see the port for the
//! rules). Removing a link is shared with the user's disconnect: one transaction that
//! re-reads the user and its links under the user row's lock.

use crate::SeaOrmRepository;
use crate::entity::linked_account;
use crate::error::repository_error;
use crate::mapping::{grant_from_columns, user_from_row};
use crate::queries;
use async_trait::async_trait;
use sea_orm::{
    ConnectionTrait, DatabaseTransaction, DbBackend, EntityTrait, PaginatorTrait, QuerySelect,
};
use social_login_domain::admin::decide_unlink;
use social_login_domain::disconnect::{DisconnectRefused, check_disconnect};
use social_login_domain::{
    AuditContext, AuditEventType, PageLimit, ProviderKey, User, UserFilter, UserId,
};
use social_login_ports::{AdminRepository, RemoveLinkError, RepositoryError, Unlinked, UserPage};
use time::OffsetDateTime;
use uuid::Uuid;

#[async_trait]
impl AdminRepository for SeaOrmRepository {
    async fn find_users(
        &self,
        filter: &UserFilter,
        after: Option<UserId>,
        limit: PageLimit,
    ) -> Result<UserPage, RepositoryError> {
        let db = self.connection();
        let after = after.map_or(Uuid::nil(), |id| id.as_uuid());
        // One more than a page: whether another page follows.
        let fetch = u64::from(limit.get()) + 1;
        let rows = match filter {
            UserFilter::All => queries::users_after(after, fetch).all(db).await,
            UserFilter::Email(email) => {
                queries::users_by_email_after(&email.normalized(), after, fetch)
                    .all(db)
                    .await
            }
            UserFilter::Provider(provider) => linked(db, *provider, None, after, fetch).await,
            UserFilter::Account(provider, subject) => {
                linked(db, *provider, Some(subject), after, fetch).await
            }
        }
        .map_err(repository_error)?;
        let users = rows
            .into_iter()
            .map(user_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(UserPage::of_fetched(users, limit))
    }

    async fn active_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> Result<u64, RepositoryError> {
        queries::active_sessions_of(user, now)
            .count(self.connection())
            .await
            .map_err(repository_error)
    }

    async fn set_locked(
        &self,
        user: UserId,
        locked: bool,
        audit: AuditContext,
    ) -> Result<bool, RepositoryError> {
        let txn = self.begin_write().await?;
        let changed = queries::set_locked(user, locked)
            .exec(&txn)
            .await
            .map_err(repository_error)?;
        if changed.rows_affected == 0 {
            return Ok(false);
        }
        let kind = if locked {
            end_sessions(&txn, user).await?;
            AuditEventType::UserLocked
        } else {
            AuditEventType::UserUnlocked
        };
        crate::audit::record(&txn, &audit.event(0, kind, user, None), audit.outbox).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(true)
    }

    async fn revoke_sessions(
        &self,
        user: UserId,
        audit: AuditContext,
    ) -> Result<bool, RepositoryError> {
        let txn = self.begin_write().await?;
        if locked_user(&txn, user).await?.is_none() {
            return Ok(false);
        }
        end_sessions(&txn, user).await?;
        let event = audit.event(0, AuditEventType::UserSessionsRevoked, user, None);
        crate::audit::record(&txn, &event, audit.outbox).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(true)
    }

    async fn unlink(
        &self,
        user: UserId,
        provider: ProviderKey,
        usable: Vec<ProviderKey>,
        force: bool,
        audit: AuditContext,
    ) -> Result<Unlinked, RemoveLinkError> {
        unlink(self, user, provider, &usable, force, audit).await
    }
}

async fn linked<C: ConnectionTrait>(
    db: &C,
    provider: ProviderKey,
    subject: Option<&social_login_domain::ProviderSubject>,
    after: Uuid,
    fetch: u64,
) -> Result<Vec<crate::entity::user::Model>, sea_orm::DbErr> {
    let rows = queries::linked_users_after(provider, subject, after, fetch)
        .all(db)
        .await?;
    // The foreign key gives every link its user.
    Ok(rows.into_iter().filter_map(|(_, user)| user).collect())
}

/// The user row, locked on PostgreSQL until the transaction ends: a concurrent unlink,
/// deletion or lock of the same user waits, then re-reads what this one left.
async fn locked_user(
    txn: &DatabaseTransaction,
    user: UserId,
) -> Result<Option<User>, RepositoryError> {
    let mut find = queries::user_by_id(user);
    if txn.get_database_backend() == DbBackend::Postgres {
        find = find.lock_exclusive();
    }
    find.one(txn)
        .await
        .map_err(repository_error)?
        .map(user_from_row)
        .transpose()
}

async fn end_sessions(txn: &DatabaseTransaction, user: UserId) -> Result<(), RepositoryError> {
    queries::revoke_sessions_of(user, None)
        .exec(txn)
        .await
        .map_err(repository_error)?;
    Ok(())
}

/// Removes the user's link of `provider` in one transaction under
/// `domain::admin::decide_unlink` (the user's disconnect is `force = false`).
pub(crate) async fn unlink(
    repo: &SeaOrmRepository,
    user: UserId,
    provider: ProviderKey,
    usable: &[ProviderKey],
    force: bool,
    audit: AuditContext,
) -> Result<Unlinked, RemoveLinkError> {
    let txn = repo.begin_write().await?;
    // Two disconnects of one user's two links must not both see two links and each delete
    // one: the user row's lock makes the second wait, then re-read the links the first left.
    // SQLite needs no lock (it has none): its single connection runs one transaction at a
    // time.
    let Some(user) = locked_user(&txn, user).await? else {
        return Err(DisconnectRefused::NotLinked.into());
    };
    let links = crate::users::links_of(&txn, user.id).await?;
    let rule = check_disconnect(&user, &links, provider, usable);
    let unlink = decide_unlink(rule, &links, provider, force)?;
    let row = linked_account::Entity::find_by_id(unlink.link.as_uuid())
        .one(&txn)
        .await
        .map_err(repository_error)?
        .ok_or_else(|| RepositoryError::Internal("the link to remove is gone".into()))?;
    linked_account::Entity::delete_by_id(unlink.link.as_uuid())
        .exec(&txn)
        .await
        .map_err(repository_error)?;
    let mut events = vec![audit.event(0, AuditEventType::AccountUnlinked, user.id, Some(provider))];
    if unlink.lock {
        queries::set_locked(user.id, true)
            .exec(&txn)
            .await
            .map_err(repository_error)?;
        end_sessions(&txn, user.id).await?;
        events.push(audit.event(1, AuditEventType::UserLocked, user.id, None));
    }
    crate::audit::record_all(&txn, events, audit.outbox).await?;
    txn.commit().await.map_err(repository_error)?;
    Ok(Unlinked {
        grant: grant_from_columns(
            &row.provider,
            row.access_token,
            row.refresh_token,
            row.grant_client_id,
        )?,
        locked: unlink.lock,
    })
}
