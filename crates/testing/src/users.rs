//! `UserRepository` of the in-memory store, with the database's unique constraints.

use crate::InMemoryRepository;
use async_trait::async_trait;
use social_login_domain::sign_in::{SignInRead, StoredLink};
use social_login_domain::{
    AuditEvent, Email, EventSet, LinkedAccount, NewLinkedAccount, ProviderAccount, User,
    UserEvents, UserId,
};
use social_login_ports::{AccountLink, LinkRenewal, PlanError, UserCreation};
use social_login_ports::{
    AddLinkError, CreateUserError, LinkRemoval, ProviderSignIn, RemoveLinkError, Remover,
    RepoResult, SealedGrant, SignInError, SignedIn, UserDeletion, UserRepository,
};

pub(crate) fn grant_of(link: &NewLinkedAccount) -> SealedGrant {
    SealedGrant {
        provider: link.provider,
        access_token: link.tokens.access_token.clone(),
        refresh_token: link.tokens.refresh_token.clone(),
        client_id: link.tokens.client_id.clone(),
    }
}

#[async_trait]
impl UserRepository for InMemoryRepository {
    async fn find_user(&self, id: UserId) -> RepoResult<Option<User>> {
        Ok(self.lock().user(id).cloned())
    }

    async fn find_user_by_email(&self, email: &Email) -> RepoResult<Option<User>> {
        Ok(self.lock().claimant(email).cloned())
    }

    async fn find_link(&self, account: &ProviderAccount) -> RepoResult<Option<LinkedAccount>> {
        let tables = self.lock();
        Ok(tables
            .links
            .iter()
            .find(|link| link.provider == account.provider && link.subject == account.subject)
            .map(|link| tables.linked_account(link)))
    }

    async fn list_links(&self, user: UserId) -> RepoResult<Vec<LinkedAccount>> {
        Ok(self.lock().links_of(user))
    }

    async fn create_user(&self, creation: UserCreation) -> Result<User, CreateUserError> {
        let plan = creation.plan()?;
        self.transact(|tables| tables.apply(plan))?;
        Ok(creation.user)
    }

    async fn renew_link(&self, renewal: LinkRenewal) -> RepoResult<bool> {
        PlanError::written_unless_gone(self.transact(|tables| tables.apply(renewal.plan())))
    }

    async fn add_link(&self, link: AccountLink) -> Result<LinkedAccount, AddLinkError> {
        self.transact(|tables| tables.apply(link.plan()))?;
        Ok(link.link.to_linked_account())
    }

    async fn sign_in_with_provider(
        &self,
        sign_in: ProviderSignIn,
    ) -> Result<SignedIn, SignInError> {
        self.transact(|tables| {
            let identity = &sign_in.identity;
            let linked = tables
                .links
                .iter()
                .find(|link| link.provider == identity.provider && link.subject == identity.subject)
                .and_then(|link| {
                    let user = tables.user(link.user_id)?.clone();
                    Some(StoredLink {
                        link: tables.linked_account(link),
                        user,
                    })
                });
            let email_owner = sign_in
                .email_to_look_up(linked.as_ref())
                .and_then(|email| tables.claimant(email).cloned())
                .map(|user| {
                    let links = tables.links_of(user.id);
                    (user, links)
                });
            let plan = sign_in.plan(SignInRead {
                linked,
                email_owner,
            })?;
            tables.apply(plan.writes)?;
            Ok(SignedIn {
                user: plan.user,
                is_new_user: plan.is_new_user,
            })
        })
    }

    async fn remove_link(&self, removal: LinkRemoval) -> Result<SealedGrant, RemoveLinkError> {
        let unlinked = self.remove_link_of(removal, Remover::User)?;
        Ok(unlinked.grant)
    }

    async fn delete_user(&self, deletion: UserDeletion) -> RepoResult<Option<Vec<SealedGrant>>> {
        let user = deletion.user;
        self.transact(|tables| {
            if tables.user(user).is_none() {
                return Ok(None);
            }
            let grants = tables
                .links
                .iter()
                .filter(|link| link.user_id == user)
                .map(grant_of)
                .collect();
            tables.apply(deletion.plan())?;
            Ok(Some(grants))
        })
    }

    async fn record_event(&self, event: AuditEvent, outbox: EventSet) -> RepoResult<()> {
        self.lock().record(event, outbox)
    }

    async fn prune_events(&self, before: time::OffsetDateTime, limit: u64) -> RepoResult<u64> {
        let mut tables = self.lock();
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut pruned = 0;
        // As the database: an event the outbox still holds stays.
        let queued: std::collections::HashSet<_> =
            tables.outbox.iter().map(|row| row.event.id).collect();
        tables.events.retain(|event| {
            let old = event.created_at < before && pruned < limit && !queued.contains(&event.id);
            pruned += usize::from(old);
            !old
        });
        Ok(pruned as u64)
    }

    async fn events_of(&self, query: UserEvents) -> RepoResult<Vec<AuditEvent>> {
        let UserEvents { user, limit, view } = query;
        let tables = self.lock();
        // Newest first by when they were written (the database orders by the time-ordered
        // id, which agrees whenever the clock moved between them).
        Ok(tables
            .events
            .iter()
            .rev()
            .filter(|event| event.user_id == user && Some(event.kind) != view.hidden())
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .cloned()
            .collect())
    }

    async fn ping(&self) -> RepoResult<()> {
        Ok(())
    }
}
