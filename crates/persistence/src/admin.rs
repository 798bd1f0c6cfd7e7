//! `AdminRepository` on sea-orm: the operator's searches and changes (see the port for the
//! rules). Removing a link is shared with the user's disconnect: one transaction that
//! re-reads the user and its links under the user row's lock.

use crate::SeaOrmRepository;
use crate::entity::linked_account;
use crate::error::repository_error;
use crate::mapping::{grant_from_columns, user_from_row, user_page};
use crate::queries;
use async_trait::async_trait;
use sea_orm::{ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait};
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::{ProviderKey, User, UserFilter, UserId};
use social_login_ports::{
    AdminRepository, LinkRemoval, LockChange, RemoveLinkError, RepositoryError, SessionsRevocation,
    Unlinked, UserPage, UserSearch,
};
use time::OffsetDateTime;
use uuid::Uuid;

#[async_trait]
impl AdminRepository for SeaOrmRepository {
    async fn find_users(&self, search: UserSearch) -> Result<UserPage, RepositoryError> {
        let db = self.connection();
        let after = search.after.map_or(Uuid::nil(), |id| id.as_uuid());
        // One more than a page: whether another page follows.
        let fetch = u64::from(search.limit.get()) + 1;
        let rows = match &search.filter {
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
        user_page(rows, search.limit)
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

    async fn set_locked(&self, change: LockChange) -> Result<bool, RepositoryError> {
        let txn = self.begin_write().await?;
        let changed = queries::set_locked(change.user, change.locked)
            .exec(&txn)
            .await
            .map_err(repository_error)?;
        if changed.rows_affected == 0 {
            return Ok(false);
        }
        if change.locked {
            end_sessions(&txn, change.user).await?;
        }
        crate::audit::commit_with(txn, [change.event()], change.audit.outbox).await?;
        Ok(true)
    }

    async fn revoke_sessions(
        &self,
        revocation: SessionsRevocation,
    ) -> Result<bool, RepositoryError> {
        let txn = self.begin_write().await?;
        if locked_user(&txn, revocation.user).await?.is_none() {
            return Ok(false);
        }
        end_sessions(&txn, revocation.user).await?;
        crate::audit::commit_with(txn, [revocation.event()], revocation.audit.outbox).await?;
        Ok(true)
    }

    async fn unlink(&self, removal: LinkRemoval, force: bool) -> Result<Unlinked, RemoveLinkError> {
        unlink(self, removal, force).await
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

/// [`crate::rows::locked_user_row`], as the user.
async fn locked_user(
    txn: &DatabaseTransaction,
    user: UserId,
) -> Result<Option<User>, RepositoryError> {
    crate::rows::locked_user_row(txn, user)
        .await?
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
    removal: LinkRemoval,
    force: bool,
) -> Result<Unlinked, RemoveLinkError> {
    let txn = repo.begin_write().await?;
    // Two disconnects of one user's two links must not both see two links and each delete
    // one: the user row's lock makes the second wait, then re-read the links the first left.
    // SQLite needs no lock (it has none): its single connection runs one transaction at a
    // time.
    let Some(user) = locked_user(&txn, removal.user).await? else {
        return Err(DisconnectRefused::NotLinked.into());
    };
    let links = crate::rows::links_of(&txn, user.id).await?;
    let unlink = removal.decide(&user, &links, force)?;
    let row = linked_account::Entity::find_by_id(unlink.link.as_uuid())
        .one(&txn)
        .await
        .map_err(repository_error)?
        .ok_or_else(|| RepositoryError::Internal("the link to remove is gone".into()))?;
    linked_account::Entity::delete_by_id(unlink.link.as_uuid())
        .exec(&txn)
        .await
        .map_err(repository_error)?;
    if unlink.lock {
        queries::set_locked(user.id, true)
            .exec(&txn)
            .await
            .map_err(repository_error)?;
        end_sessions(&txn, user.id).await?;
    }
    let events = removal.events(&unlink);
    crate::audit::commit_with(txn, events, removal.audit.outbox).await?;
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
