//! `UserRepository` on SQLite: users and their linked accounts. The single connection runs
//! one transaction at a time, which is what makes `remove_link` race-free without row locks.

use super::columns::{failed, link_at, query_all, query_one};
use super::rows::{find_user, links_of, user_by_email};
use super::{SqliteRepository, audit, sql};
use crate::mapping::{grant_from_columns, link_from_columns};
use async_trait::async_trait;
use rusqlite::params;
use social_login_domain::{
    AuditEvent, Email, EventSet, LinkedAccount, ProviderAccount, User, UserEvents, UserId,
};
use social_login_ports::{AccountLink, LinkRenewal, UserCreation};
use social_login_ports::{
    AddLinkError, CreateUserError, LinkRemoval, ProviderSignIn, RemoveLinkError, Remover,
    RepoResult, SealedGrant, SignInError, SignedIn, UserDeletion, UserRepository,
};
use time::OffsetDateTime;

#[async_trait]
impl UserRepository for SqliteRepository {
    async fn find_user(&self, id: UserId) -> RepoResult<Option<User>> {
        self.call(move |db| find_user(db, id)).await
    }

    async fn find_user_by_email(&self, email: &Email) -> RepoResult<Option<User>> {
        let normalized = email.normalized();
        self.call(move |db| user_by_email(db, &normalized)).await
    }

    async fn find_link(&self, account: &ProviderAccount) -> RepoResult<Option<LinkedAccount>> {
        let ProviderAccount { provider, subject } = account.clone();
        self.call(move |db| {
            query_one(
                db,
                sql::LINK_BY_ACCOUNT,
                params![provider.as_str(), subject.as_str()],
                link_at,
            )?
            .map(link_from_columns)
            .transpose()
        })
        .await
    }

    async fn list_links(&self, user: UserId) -> RepoResult<Vec<LinkedAccount>> {
        self.call(move |db| links_of(db, user)).await
    }

    async fn create_user(&self, creation: UserCreation) -> Result<User, CreateUserError> {
        let plan = creation.plan()?;
        self.transact(move |tx| super::plan::apply(tx, &plan))
            .await?;
        Ok(creation.user)
    }

    async fn renew_link(&self, renewal: LinkRenewal) -> RepoResult<bool> {
        self.apply_unless_gone(renewal.plan()).await
    }

    async fn add_link(&self, link: AccountLink) -> Result<LinkedAccount, AddLinkError> {
        let plan = link.plan();
        self.transact(move |tx| super::plan::apply(tx, &plan))
            .await?;
        Ok(link.link.to_linked_account())
    }

    async fn sign_in_with_provider(
        &self,
        sign_in: ProviderSignIn,
    ) -> Result<SignedIn, SignInError> {
        self.transact(move |tx| super::sign_in::sign_in(tx, &sign_in))
            .await
    }

    async fn remove_link(&self, removal: LinkRemoval) -> Result<SealedGrant, RemoveLinkError> {
        self.transact(move |tx| {
            super::admin::unlink(tx, &removal, Remover::User).map(|unlinked| unlinked.grant)
        })
        .await
    }

    async fn delete_user(&self, deletion: UserDeletion) -> RepoResult<Option<Vec<SealedGrant>>> {
        self.transact(move |tx| {
            if find_user(tx, deletion.user)?.is_none() {
                return Ok(None);
            }
            let id = deletion.user.as_uuid().into_bytes();
            let grants = query_all(tx, sql::GRANTS_OF, [id], grant_at)?
                .into_iter()
                .collect::<Result<Vec<_>, _>>()?;
            super::plan::apply(tx, &deletion.plan())?;
            Ok(Some(grants))
        })
        .await
    }

    async fn record_event(&self, event: AuditEvent, outbox: EventSet) -> RepoResult<()> {
        self.transact(move |tx| audit::record(tx, &event, outbox))
            .await
    }

    async fn prune_events(&self, before: OffsetDateTime, limit: u64) -> RepoResult<u64> {
        self.call(move |db| audit::prune(db, before, limit)).await
    }

    async fn events_of(&self, query: UserEvents) -> RepoResult<Vec<AuditEvent>> {
        self.call(move |db| audit::list(db, query)).await
    }

    /// Reads the file's schema, not just `SELECT 1` (which SQLite answers without opening
    /// the file): a file that cannot be read is not ready.
    async fn ping(&self) -> RepoResult<()> {
        self.call(|db| {
            db.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))
                .map_err(failed)
        })
        .await
    }
}

/// The sealed tokens of one row of `sql::GRANTS_OF`.
fn grant_at(row: &rusqlite::Row) -> rusqlite::Result<RepoResult<SealedGrant>> {
    let provider: String = row.get(0)?;
    Ok(grant_from_columns(
        &provider,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
    ))
}
