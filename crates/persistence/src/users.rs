//! `UserRepository` on sea-orm: users and their linked accounts.

use crate::SeaOrmRepository;
use crate::entity::linked_account;
use crate::error::repository_error;
use crate::mapping::{grant_from_columns, link_from_row, user_from_row};
use crate::queries;
use crate::rows::{RowLock, one_as};
use async_trait::async_trait;
use social_login_domain::{
    AuditEvent, Email, EventSet, LinkedAccount, ProviderAccount, User, UserEvents, UserId,
};
use social_login_ports::{AccountLink, LinkRenewal, UserCreation};
use social_login_ports::{
    AddLinkError, CreateUserError, LinkRemoval, ProviderSignIn, RemoveLinkError, Remover,
    RepoResult, SealedGrant, SignInError, SignedIn, UserDeletion, UserRepository,
};

#[async_trait]
impl UserRepository for SeaOrmRepository {
    async fn find_user(&self, id: UserId) -> RepoResult<Option<User>> {
        let find = queries::user_by_id(id);
        one_as(self.connection(), find, user_from_row).await
    }

    async fn find_user_by_email(&self, email: &Email) -> RepoResult<Option<User>> {
        let find = queries::user_by_email(&email.normalized());
        one_as(self.connection(), find, user_from_row).await
    }

    async fn find_link(&self, account: &ProviderAccount) -> RepoResult<Option<LinkedAccount>> {
        let find = queries::link(account.provider, &account.subject);
        one_as(self.connection(), find, link_from_row).await
    }

    async fn list_links(&self, user: UserId) -> RepoResult<Vec<LinkedAccount>> {
        crate::rows::links_of(self.connection(), user).await
    }

    async fn create_user(&self, creation: UserCreation) -> Result<User, CreateUserError> {
        let plan = creation.plan()?;
        let txn = self.begin_write().await?;
        crate::plan::apply(&txn, &plan).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(creation.user)
    }

    async fn renew_link(&self, renewal: LinkRenewal) -> RepoResult<bool> {
        self.apply_unless_gone(renewal.plan()).await
    }

    async fn add_link(&self, link: AccountLink) -> Result<LinkedAccount, AddLinkError> {
        let txn = self.begin_write().await?;
        crate::plan::apply(&txn, &link.plan()).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(link.link.to_linked_account())
    }

    async fn sign_in_with_provider(
        &self,
        sign_in: ProviderSignIn,
    ) -> Result<SignedIn, SignInError> {
        crate::sign_in::sign_in_with_provider(self, sign_in).await
    }

    async fn remove_link(&self, removal: LinkRemoval) -> Result<SealedGrant, RemoveLinkError> {
        let unlinked = crate::admin::unlink(self, removal, Remover::User).await?;
        Ok(unlinked.grant)
    }

    async fn delete_user(&self, deletion: UserDeletion) -> RepoResult<Option<Vec<SealedGrant>>> {
        let user = deletion.user;
        let txn = self.begin_write().await?;
        // Serialises with a concurrent disconnect or deletion of the same user.
        if crate::rows::locked_user_row(&txn, user, RowLock::Exclusive)
            .await?
            .is_none()
        {
            return Ok(None);
        }
        let grants = (crate::rows::locked_link_rows(&txn, user).await?)
            .into_iter()
            .map(grant_of)
            .collect::<Result<Vec<_>, _>>()?;
        crate::plan::apply(&txn, &deletion.plan()).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(Some(grants))
    }

    async fn record_event(&self, event: AuditEvent, outbox: EventSet) -> RepoResult<()> {
        let txn = self.begin_write().await?;
        crate::audit::commit_with(txn, [event], outbox).await
    }

    async fn prune_events(&self, before: time::OffsetDateTime, limit: u64) -> RepoResult<u64> {
        Ok(queries::delete_events_before(before, limit)
            .exec(self.connection())
            .await
            .map_err(repository_error)?
            .rows_affected)
    }

    async fn events_of(&self, query: UserEvents) -> RepoResult<Vec<AuditEvent>> {
        crate::audit::list(self.connection(), query).await
    }

    async fn ping(&self) -> RepoResult<()> {
        self.connection().ping().await.map_err(repository_error)
    }
}

/// The sealed tokens of a link row, for revocation.
fn grant_of(row: linked_account::Model) -> RepoResult<SealedGrant> {
    grant_from_columns(
        &row.provider,
        row.access_token,
        row.refresh_token,
        row.grant_client_id,
    )
}
