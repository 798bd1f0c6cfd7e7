//! `UserRepository` on sea-orm: users and their linked accounts.

use crate::SeaOrmRepository;
use crate::entity::{linked_account, user};
use crate::error::{UniqueIndex, is_foreign_key_violation, repository_error, unique_violation};
use crate::mapping::{grant_from_columns, link_from_row, link_to_row, user_from_row, user_to_row};
use crate::queries;
use async_trait::async_trait;
use sea_orm::EntityTrait;
use social_login_domain::{
    AuditContext, AuditEvent, AuditEventType, Email, EventSet, LinkedAccount, NewLinkedAccount,
    NewUser, ProviderKey, ProviderSubject, User, UserId,
};
use social_login_ports::{
    AddLinkError, CreateUserError, LinkRemoval, ProviderSignIn, RemoveLinkError, RepositoryError,
    SealedGrant, SignInError, SignedIn, UserDeletion, UserRepository,
};

#[async_trait]
impl UserRepository for SeaOrmRepository {
    async fn find_user(&self, id: UserId) -> Result<Option<User>, RepositoryError> {
        queries::user_by_id(id)
            .one(self.connection())
            .await
            .map_err(repository_error)?
            .map(user_from_row)
            .transpose()
    }

    async fn find_user_by_email(&self, email: &Email) -> Result<Option<User>, RepositoryError> {
        queries::user_by_email(&email.normalized())
            .one(self.connection())
            .await
            .map_err(repository_error)?
            .map(user_from_row)
            .transpose()
    }

    async fn find_link(
        &self,
        provider: ProviderKey,
        subject: &ProviderSubject,
    ) -> Result<Option<LinkedAccount>, RepositoryError> {
        queries::link(provider, subject)
            .one(self.connection())
            .await
            .map_err(repository_error)?
            .map(link_from_row)
            .transpose()
    }

    async fn list_links(&self, user: UserId) -> Result<Vec<LinkedAccount>, RepositoryError> {
        crate::rows::links_of(self.connection(), user).await
    }

    async fn create_user(
        &self,
        user: NewUser,
        first_link: Option<NewLinkedAccount>,
        audit: AuditContext,
    ) -> Result<User, CreateUserError> {
        first_link_is_the_users(&user, first_link.as_ref())?;
        let txn = self.begin_write().await?;
        user::Entity::insert(user_to_row(&user))
            .exec_without_returning(&txn)
            .await
            .map_err(|err| match unique_violation(&err) {
                Some(UniqueIndex::UserEmail) => CreateUserError::EmailTaken,
                _ => repository_error(err).into(),
            })?;
        if let Some(link) = &first_link {
            // On failure `txn` is dropped, which rolls back the user as well.
            linked_account::Entity::insert(link_to_row(link))
                .exec_without_returning(&txn)
                .await
                .map_err(|err| match unique_violation(&err) {
                    Some(UniqueIndex::LinkProviderSubject) => CreateUserError::ProviderAccountTaken,
                    _ => repository_error(err).into(),
                })?;
        }
        let provider = first_link.as_ref().map(|link| link.provider);
        let event = audit.event(0, AuditEventType::UserRegistered, user.id, provider);
        crate::audit::commit_with(txn, [event], audit.outbox).await?;
        Ok(user.into_user())
    }

    async fn add_link(
        &self,
        link: NewLinkedAccount,
        audit: AuditContext,
    ) -> Result<LinkedAccount, AddLinkError> {
        let txn = self.begin_write().await?;
        linked_account::Entity::insert(link_to_row(&link))
            .exec_without_returning(&txn)
            .await
            .map_err(|err| match unique_violation(&err) {
                Some(UniqueIndex::LinkProviderSubject | UniqueIndex::LinkUserProvider) => {
                    AddLinkError::ProviderAlreadyLinked
                }
                _ if is_foreign_key_violation(&err) => AddLinkError::UserNotFound,
                _ => repository_error(err).into(),
            })?;
        let event = audit.event(
            0,
            AuditEventType::AccountLinked,
            link.user_id,
            Some(link.provider),
        );
        crate::audit::commit_with(txn, [event], audit.outbox).await?;
        Ok(link.to_linked_account())
    }

    async fn sign_in_with_provider(
        &self,
        sign_in: ProviderSignIn,
    ) -> Result<SignedIn, SignInError> {
        crate::sign_in::sign_in_with_provider(self, sign_in).await
    }

    async fn remove_link(&self, removal: LinkRemoval) -> Result<SealedGrant, RemoveLinkError> {
        let unlinked = crate::admin::unlink(self, removal, false).await?;
        Ok(unlinked.grant)
    }

    async fn delete_user(
        &self,
        deletion: UserDeletion,
    ) -> Result<Option<Vec<SealedGrant>>, RepositoryError> {
        let user = deletion.user;
        let txn = self.begin_write().await?;
        // Serialises with a concurrent disconnect or deletion of the same user.
        if crate::rows::locked_user_row(&txn, user).await?.is_none() {
            return Ok(None);
        }
        let grants = queries::links_of(user)
            .all(&txn)
            .await
            .map_err(repository_error)?
            .into_iter()
            .map(grant_of)
            .collect::<Result<Vec<_>, _>>()?;
        crate::plan::apply(&txn, &deletion.plan()).await?;
        txn.commit().await.map_err(repository_error)?;
        Ok(Some(grants))
    }

    async fn record_event(
        &self,
        event: AuditEvent,
        outbox: EventSet,
    ) -> Result<(), RepositoryError> {
        let txn = self.begin_write().await?;
        crate::audit::commit_with(txn, [event], outbox).await
    }

    async fn prune_events(
        &self,
        before: time::OffsetDateTime,
        limit: u64,
    ) -> Result<u64, RepositoryError> {
        Ok(queries::delete_events_before(before, limit)
            .exec(self.connection())
            .await
            .map_err(repository_error)?
            .rows_affected)
    }

    async fn list_events(
        &self,
        user: UserId,
        limit: u64,
    ) -> Result<Vec<AuditEvent>, RepositoryError> {
        crate::audit::list(self.connection(), user, limit).await
    }

    async fn ping(&self) -> Result<(), RepositoryError> {
        self.connection().ping().await.map_err(repository_error)
    }
}

/// `create_user`'s precondition, on both adapters: a first link belongs to the new user.
pub(crate) fn first_link_is_the_users(
    user: &NewUser,
    first_link: Option<&NewLinkedAccount>,
) -> Result<(), RepositoryError> {
    if first_link.is_some_and(|link| link.user_id != user.id) {
        return Err(RepositoryError::Internal(
            "the first link must belong to the new user".to_owned(),
        ));
    }
    Ok(())
}

/// The sealed tokens of a link row, for revocation.
fn grant_of(row: linked_account::Model) -> Result<SealedGrant, RepositoryError> {
    grant_from_columns(
        &row.provider,
        row.access_token,
        row.refresh_token,
        row.grant_client_id,
    )
}
