//! `UserRepository` of the in-memory store, with the database's unique constraints.

use crate::InMemoryRepository;
use async_trait::async_trait;
use social_login_domain::admin::check_not_locked;
use social_login_domain::linking::{EmailOwner, LoginDecision, decide_sign_in};
use social_login_domain::{
    AuditContext, AuditEvent, AuditEventType, Email, EventSet, LinkedAccount, NewLinkedAccount,
    NewUser, ProviderKey, ProviderSubject, User, UserId,
};
use social_login_ports::{
    AddLinkError, CreateUserError, LinkRemoval, ProviderSignIn, RemoveLinkError, RepositoryError,
    SealedGrant, SignInError, SignedIn, UserDeletion, UserRepository,
};

pub(crate) fn grant_of(link: &NewLinkedAccount) -> SealedGrant {
    SealedGrant {
        provider: link.provider,
        access_token: link.access_token.clone(),
        refresh_token: link.refresh_token.clone(),
        client_id: link.grant_client_id.clone(),
    }
}

#[async_trait]
impl UserRepository for InMemoryRepository {
    async fn find_user(&self, id: UserId) -> Result<Option<User>, RepositoryError> {
        Ok(self.lock().user(id).cloned())
    }

    async fn find_user_by_email(&self, email: &Email) -> Result<Option<User>, RepositoryError> {
        Ok(self.lock().claimant(email).cloned())
    }

    async fn find_link(
        &self,
        provider: ProviderKey,
        subject: &ProviderSubject,
    ) -> Result<Option<LinkedAccount>, RepositoryError> {
        let tables = self.lock();
        Ok(tables
            .links
            .iter()
            .find(|link| link.provider == provider && &link.subject == subject)
            .map(NewLinkedAccount::to_linked_account))
    }

    async fn list_links(&self, user: UserId) -> Result<Vec<LinkedAccount>, RepositoryError> {
        Ok(self.lock().links_of(user))
    }

    async fn create_user(
        &self,
        user: NewUser,
        first_link: Option<NewLinkedAccount>,
        audit: AuditContext,
    ) -> Result<User, CreateUserError> {
        let mut tables = self.lock();
        if user
            .claimed_email()
            .is_some_and(|email| tables.claimant(email).is_some())
        {
            return Err(CreateUserError::EmailTaken);
        }
        if first_link
            .as_ref()
            .is_some_and(|link| tables.account_taken(link))
        {
            return Err(CreateUserError::ProviderAccountTaken);
        }
        if first_link
            .as_ref()
            .is_some_and(|link| link.user_id != user.id)
        {
            // A foreign key would refuse this: the first link belongs to the new user.
            return Err(RepositoryError::Internal("first link of another user".into()).into());
        }
        let user = user.into_user();
        let provider = first_link.as_ref().map(|link| link.provider);
        let event = audit.event(0, AuditEventType::UserRegistered, user.id, provider);
        tables.record(event, audit.outbox)?;
        tables.users.push(user.clone());
        tables.links.extend(first_link);
        Ok(user)
    }

    async fn add_link(
        &self,
        link: NewLinkedAccount,
        audit: AuditContext,
    ) -> Result<LinkedAccount, AddLinkError> {
        let mut tables = self.lock();
        if tables.user(link.user_id).is_none() {
            return Err(AddLinkError::UserNotFound);
        }
        if tables.account_taken(&link) || tables.provider_taken(&link) {
            return Err(AddLinkError::ProviderAlreadyLinked);
        }
        let stored = link.to_linked_account();
        let event = audit.event(
            0,
            AuditEventType::AccountLinked,
            link.user_id,
            Some(link.provider),
        );
        tables.record(event, audit.outbox)?;
        tables.links.push(link);
        Ok(stored)
    }

    async fn sign_in_with_provider(
        &self,
        sign_in: ProviderSignIn,
    ) -> Result<SignedIn, SignInError> {
        self.transact(|tables| {
            let identity = &sign_in.identity;
            let existing = tables
                .links
                .iter()
                .find(|link| link.provider == identity.provider && link.subject == identity.subject)
                .map(NewLinkedAccount::to_linked_account);
            if existing
                .as_ref()
                .is_some_and(|link| tables.disabled.contains(&link.id))
            {
                return Err(SignInError::AccountDisabled);
            }
            let owner = match (&existing, &identity.email) {
                (None, Some(email)) => tables
                    .claimant(email)
                    .cloned()
                    .map(|user| (tables.links_of(user.id), user)),
                _ => None,
            };
            let decision = decide_sign_in(
                identity,
                existing.as_ref(),
                owner
                    .as_ref()
                    .map(|(links, user)| EmailOwner { user, links }),
                sign_in.auto_link_by_email,
                &sign_in.signup,
            )?;
            let events = social_login_domain::audit::sign_in_events(&decision);
            let (user, is_new_user) = match (decision, existing) {
                (LoginDecision::SignIn { user }, Some(link)) => {
                    let stored = tables
                        .links
                        .iter_mut()
                        .find(|stored| stored.id == link.id)
                        .ok_or(SignInError::Raced)?;
                    stored.email = identity.email.clone();
                    // A login that brought no provider token (native sign-in) keeps the stored
                    // ones: they are what disconnect and deletion revoke the grant with.
                    if !sign_in.access_token.is_none() {
                        stored.access_token = sign_in.access_token.clone();
                        stored.grant_client_id = sign_in.grant_client_id.clone();
                    }
                    if sign_in.refresh_token.is_some() {
                        stored.refresh_token = sign_in.refresh_token.clone();
                    }
                    let user = tables.user(user).cloned().ok_or(SignInError::Raced)?;
                    check_not_locked(&user)?;
                    (user, false)
                }
                (LoginDecision::LinkThenSignIn { user }, _) => {
                    check_not_locked(tables.user(user).ok_or(SignInError::Raced)?)?;
                    let link = sign_in.new_link(user);
                    if tables.account_taken(&link) || tables.provider_taken(&link) {
                        return Err(SignInError::Raced);
                    }
                    tables.links.push(link);
                    let user = tables.user(user).cloned().ok_or(SignInError::Raced)?;
                    (user, false)
                }
                (LoginDecision::Register, _) => {
                    let user = sign_in.new_user().into_user();
                    if user
                        .claimed_email()
                        .is_some_and(|email| tables.claimant(email).is_some())
                    {
                        return Err(SignInError::Raced);
                    }
                    tables.users.push(user.clone());
                    tables.links.push(sign_in.new_link(user.id));
                    (user, true)
                }
                (LoginDecision::SignIn { .. }, None) => {
                    return Err(RepositoryError::Internal("sign-in without a link".into()).into());
                }
            };
            tables.start_family(user.id, &sign_in.session, sign_in.now)?;
            for (index, kind) in events.iter().enumerate() {
                let event = sign_in
                    .audit
                    .event(index, *kind, user.id, Some(identity.provider));
                tables.record(event, sign_in.audit.outbox)?;
            }
            Ok(SignedIn { user, is_new_user })
        })
    }

    async fn remove_link(&self, removal: LinkRemoval) -> Result<SealedGrant, RemoveLinkError> {
        let unlinked = self.remove_link_of(removal, false)?;
        Ok(unlinked.grant)
    }

    async fn delete_user(
        &self,
        deletion: UserDeletion,
    ) -> Result<Option<Vec<SealedGrant>>, RepositoryError> {
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
            // As ON DELETE CASCADE: the links, sessions and tokens go with the user.
            let families: Vec<_> = tables
                .tokens
                .values()
                .filter(|token| token.user_id == user)
                .map(|token| token.family)
                .collect();
            tables.users.retain(|kept| kept.id != user);
            tables.links.retain(|link| link.user_id != user);
            tables.tokens.retain(|_, token| token.user_id != user);
            tables
                .families
                .retain(|family, _| !families.contains(family));
            tables.record(deletion.event(), deletion.audit.outbox)?;
            Ok(Some(grants))
        })
    }

    async fn record_event(
        &self,
        event: AuditEvent,
        outbox: EventSet,
    ) -> Result<(), RepositoryError> {
        self.lock().record(event, outbox)
    }

    async fn prune_events(
        &self,
        before: time::OffsetDateTime,
        limit: u64,
    ) -> Result<u64, RepositoryError> {
        let mut tables = self.lock();
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut pruned = 0;
        tables.events.retain(|event| {
            let old = event.created_at < before && pruned < limit;
            pruned += usize::from(old);
            !old
        });
        Ok(pruned as u64)
    }

    async fn list_events(
        &self,
        user: UserId,
        limit: u64,
    ) -> Result<Vec<AuditEvent>, RepositoryError> {
        let tables = self.lock();
        // Newest first by when they were written (the database orders by the time-ordered
        // id, which agrees whenever the clock moved between them).
        Ok(tables
            .events
            .iter()
            .rev()
            .filter(|event| event.user_id == user)
            .take(usize::try_from(limit).unwrap_or(usize::MAX))
            .cloned()
            .collect())
    }

    async fn ping(&self) -> Result<(), RepositoryError> {
        Ok(())
    }
}
