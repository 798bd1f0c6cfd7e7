//! An in-memory user repository with the database's unique constraints.

use async_trait::async_trait;
use social_login_domain::disconnect::{DisconnectRefused, check_disconnect};
use social_login_domain::{
    Email, LinkedAccount, LinkedAccountId, NewLinkedAccount, NewUser, ProviderKey, ProviderSubject,
    SealedToken, User, UserId,
};
use social_login_ports::{
    AddLinkError, CreateUserError, RemoveLinkError, RepositoryError, UserRepository,
};
use std::sync::Mutex;
use time::OffsetDateTime;

/// Users and links behind one lock, so each port call is as atomic as a transaction.
/// Enforces what the schema enforces: unique email ignoring case, unique
/// (provider, subject), unique (user, provider), and links only to existing users.
#[derive(Default)]
pub struct InMemoryUsers {
    tables: Mutex<Tables>,
}

#[derive(Default)]
struct Tables {
    users: Vec<User>,
    /// Kept with their sealed tokens, as the `linked_accounts` table keeps them.
    links: Vec<NewLinkedAccount>,
}

impl Tables {
    fn user(&self, id: UserId) -> Option<&User> {
        self.users.iter().find(|user| user.id == id)
    }

    /// The user who claims `email`; unverified provider emails claim nothing (the schema
    /// keeps them out of the unique column).
    fn claimant(&self, email: &Email) -> Option<&User> {
        self.users.iter().find(|user| {
            user.claimed_email()
                .is_some_and(|claimed| claimed.matches(email))
        })
    }

    fn account_taken(&self, link: &NewLinkedAccount) -> bool {
        self.links
            .iter()
            .any(|old| old.provider == link.provider && old.subject == link.subject)
    }

    fn provider_taken(&self, link: &NewLinkedAccount) -> bool {
        self.links
            .iter()
            .any(|old| old.user_id == link.user_id && old.provider == link.provider)
    }

    fn links_of(&self, user: UserId) -> Vec<LinkedAccount> {
        let mut links: Vec<LinkedAccount> = self
            .links
            .iter()
            .filter(|link| link.user_id == user)
            .map(NewLinkedAccount::to_linked_account)
            .collect();
        links.sort_by_key(|link| (link.created_at, link.id));
        links
    }
}

impl InMemoryUsers {
    pub fn user_count(&self) -> usize {
        self.tables.lock().unwrap().users.len()
    }

    pub fn link_count(&self) -> usize {
        self.tables.lock().unwrap().links.len()
    }

    /// The sealed (access, refresh) tokens stored with the link of this provider account.
    pub fn stored_tokens(
        &self,
        provider: ProviderKey,
        subject: &str,
    ) -> Option<(SealedToken, Option<SealedToken>)> {
        let tables = self.tables.lock().unwrap();
        tables
            .links
            .iter()
            .find(|link| link.provider == provider && link.subject.as_str() == subject)
            .map(|link| (link.access_token.clone(), link.refresh_token.clone()))
    }
}

#[async_trait]
impl UserRepository for InMemoryUsers {
    async fn find_user(&self, id: UserId) -> Result<Option<User>, RepositoryError> {
        Ok(self.tables.lock().unwrap().user(id).cloned())
    }

    async fn find_user_by_email(&self, email: &Email) -> Result<Option<User>, RepositoryError> {
        Ok(self.tables.lock().unwrap().claimant(email).cloned())
    }

    async fn find_link(
        &self,
        provider: ProviderKey,
        subject: &ProviderSubject,
    ) -> Result<Option<LinkedAccount>, RepositoryError> {
        let tables = self.tables.lock().unwrap();
        Ok(tables
            .links
            .iter()
            .find(|link| link.provider == provider && &link.subject == subject)
            .map(NewLinkedAccount::to_linked_account))
    }

    async fn list_links(&self, user: UserId) -> Result<Vec<LinkedAccount>, RepositoryError> {
        Ok(self.tables.lock().unwrap().links_of(user))
    }

    async fn create_user(
        &self,
        user: NewUser,
        first_link: Option<NewLinkedAccount>,
    ) -> Result<User, CreateUserError> {
        let mut tables = self.tables.lock().unwrap();
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
        tables.users.push(user.clone());
        tables.links.extend(first_link);
        Ok(user)
    }

    async fn add_link(&self, link: NewLinkedAccount) -> Result<LinkedAccount, AddLinkError> {
        let mut tables = self.tables.lock().unwrap();
        if tables.user(link.user_id).is_none() {
            return Err(AddLinkError::UserNotFound);
        }
        if tables.account_taken(&link) || tables.provider_taken(&link) {
            return Err(AddLinkError::ProviderAlreadyLinked);
        }
        let stored = link.to_linked_account();
        tables.links.push(link);
        Ok(stored)
    }

    async fn update_link_tokens(
        &self,
        link: LinkedAccountId,
        email: Option<Email>,
        access_token: SealedToken,
        refresh_token: Option<SealedToken>,
        _now: OffsetDateTime,
    ) -> Result<bool, RepositoryError> {
        let mut tables = self.tables.lock().unwrap();
        let Some(stored) = tables.links.iter_mut().find(|stored| stored.id == link) else {
            return Ok(false);
        };
        stored.email = email;
        stored.access_token = access_token;
        if refresh_token.is_some() {
            stored.refresh_token = refresh_token;
        }
        Ok(true)
    }

    async fn remove_link(
        &self,
        user: UserId,
        provider: ProviderKey,
        usable: Vec<ProviderKey>,
    ) -> Result<(), RemoveLinkError> {
        let mut tables = self.tables.lock().unwrap();
        let Some(owner) = tables.user(user).cloned() else {
            return Err(DisconnectRefused::NotLinked.into());
        };
        let target = check_disconnect(&owner, &tables.links_of(user), provider, &usable)?;
        tables.links.retain(|link| link.id != target);
        Ok(())
    }

    async fn ping(&self) -> Result<(), RepositoryError> {
        Ok(())
    }
}
