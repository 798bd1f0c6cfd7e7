//! `AdminRepository` on sea-orm: the operator's searches and changes (see the port for the
//! rules). Removing a link is shared with the user's disconnect: one transaction that
//! re-reads the user and its links under the user row's lock.

use crate::SeaOrmRepository;
use crate::error::repository_error;
use crate::mapping::{grant_from_columns, user_from_row, user_page};
use crate::queries;
use crate::rows::RowLock;
use async_trait::async_trait;
use sea_orm::{ConnectionTrait, DatabaseTransaction, PaginatorTrait};
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::plan::WritePlan;
use social_login_domain::{AuditEvent, ProviderKey, User, UserFilter, UserId};
use social_login_ports::{
    AdminRepository, EventQuery, LinkRemoval, LockChange, OperatorUnlink, RemoveLinkError, Remover,
    RepoResult, RepositoryError, SessionsRevocation, Unlinked, UserPage, UserSearch,
};
use time::OffsetDateTime;
use uuid::Uuid;

#[async_trait]
impl AdminRepository for SeaOrmRepository {
    async fn find_users(&self, search: UserSearch) -> RepoResult<UserPage> {
        let db = self.connection();
        let after = search.after.map_or(Uuid::nil(), |id| id.as_uuid());
        // One more than a page: whether another page follows.
        let fetch = search.limit.get() + 1;
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

    async fn active_sessions(&self, user: UserId, now: OffsetDateTime) -> RepoResult<u64> {
        queries::active_sessions_of(user, now)
            .count(self.connection())
            .await
            .map_err(repository_error)
    }

    async fn set_locked(&self, change: LockChange) -> RepoResult<bool> {
        change_user(self, change.user, change.plan()).await
    }

    async fn revoke_sessions(&self, revocation: SessionsRevocation) -> RepoResult<bool> {
        change_user(self, revocation.user, revocation.plan()).await
    }

    async fn unlink(&self, unlink: OperatorUnlink) -> Result<Unlinked, RemoveLinkError> {
        let by = unlink.remover();
        self::unlink(self, unlink.removal, by).await
    }

    async fn find_events(&self, query: EventQuery) -> RepoResult<Vec<AuditEvent>> {
        use sea_orm::FromQueryResult;
        let (lowest, above) = query.id_bounds();
        let values = vec![
            query.user.map(|user| user.as_uuid()).into(),
            query.kind.map(|kind| kind.as_str().to_owned()).into(),
            lowest
                .map_or(crate::outbox_sql::NO_LOWER_ID, |id| id.as_uuid())
                .into(),
            above
                .map_or(crate::outbox_sql::NO_UPPER_ID, |id| id.as_uuid())
                .into(),
            crate::raw_sql::count(query.limit.get()),
        ];
        let sql = crate::outbox_sql::find_events(&query);
        let rows = crate::raw_sql::query_all(self.connection(), sql, values).await?;
        rows.iter()
            .map(|row| {
                let row = crate::entity::audit_event::Model::from_query_result(row, "")
                    .map_err(repository_error)?;
                crate::audit::from_row(row)
            })
            .collect()
    }
}

/// Applies `plan` if `user` exists (its row locked first, so the change serialises with
/// the user's other changes); whether it did.
async fn change_user(repo: &SeaOrmRepository, user: UserId, plan: WritePlan) -> RepoResult<bool> {
    let txn = repo.begin_write().await?;
    if crate::rows::locked_user_row(&txn, user, RowLock::AgainstChanges)
        .await?
        .is_none()
    {
        return Ok(false);
    }
    crate::plan::apply(&txn, &plan).await?;
    txn.commit().await.map_err(repository_error)?;
    Ok(true)
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
async fn locked_user(txn: &DatabaseTransaction, user: UserId) -> RepoResult<Option<User>> {
    crate::rows::locked_user_row(txn, user, RowLock::Exclusive)
        .await?
        .map(user_from_row)
        .transpose()
}

/// Removes the user's link of `provider` in one transaction under
/// `domain::admin::decide_unlink`, as `by` may.
pub(crate) async fn unlink(
    repo: &SeaOrmRepository,
    removal: LinkRemoval,
    by: Remover,
) -> Result<Unlinked, RemoveLinkError> {
    let txn = repo.begin_write().await?;
    // Two disconnects of one user's two links must not both see two links and each delete
    // one: the user row's lock makes the second wait, then re-read the links the first left.
    // SQLite needs no lock (it has none): its single connection runs one transaction at a
    // time.
    let Some(user) = locked_user(&txn, removal.user).await? else {
        return Err(DisconnectRefused::NotLinked.into());
    };
    // Locked, as a deletion's are: the tokens revoked are the ones stored last.
    let rows = crate::rows::locked_link_rows(&txn, user.id).await?;
    let links = crate::rows::links_from_rows(rows.iter().cloned())?;
    let plan = removal.plan(&user, &links, by)?;
    let row = (rows.into_iter())
        .find(|row| row.id == plan.unlink.link.as_uuid())
        .ok_or_else(|| RepositoryError::Internal("the planned link is not the user's".into()))?;
    crate::plan::apply(&txn, &plan.writes).await?;
    txn.commit().await.map_err(repository_error)?;
    Ok(Unlinked {
        grant: grant_from_columns(
            &row.provider,
            row.access_token,
            row.refresh_token,
            row.grant_client_id,
        )?,
        locked: plan.unlink.lock,
    })
}
