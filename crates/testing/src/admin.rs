//! `AdminRepository` of the in-memory store: the operator's searches and changes, each one
//! step under the store's lock, as each is one transaction in the database.

use crate::InMemoryRepository;
use crate::repository::Tables;
use async_trait::async_trait;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::{ProviderKey, User, UserFilter, UserId};
use social_login_ports::{
    AdminRepository, LinkRemoval, LockChange, RemoveLinkError, RepositoryError, SessionsRevocation,
    Unlinked, UserPage, UserSearch,
};
use time::OffsetDateTime;

#[async_trait]
impl AdminRepository for InMemoryRepository {
    async fn find_users(&self, search: UserSearch) -> Result<UserPage, RepositoryError> {
        let tables = self.lock();
        let mut users: Vec<User> = tables
            .users
            .iter()
            .filter(|user| search.after.is_none_or(|after| user.id > after))
            .filter(|user| tables.filter_names(&search.filter, user))
            .cloned()
            .collect();
        users.sort_by_key(|user| user.id);
        Ok(UserPage::of_fetched(users, search.limit))
    }

    async fn active_sessions(
        &self,
        user: UserId,
        now: OffsetDateTime,
    ) -> Result<u64, RepositoryError> {
        let tables = self.lock();
        let active = tables
            .families
            .iter()
            .filter(|(id, family)| {
                family.user == user && family.ends_at > now && !tables.revoked.contains(id)
            })
            .count();
        Ok(active as u64)
    }

    async fn set_locked(&self, change: LockChange) -> Result<bool, RepositoryError> {
        self.transact(|tables| {
            let user = change.user;
            let Some(stored) = tables.users.iter_mut().find(|stored| stored.id == user) else {
                return Ok(false);
            };
            stored.locked = change.locked;
            if change.locked {
                tables.revoke_sessions_of(user, None);
            }
            tables.record(change.event(), change.audit.outbox)?;
            Ok(true)
        })
    }

    async fn revoke_sessions(
        &self,
        revocation: SessionsRevocation,
    ) -> Result<bool, RepositoryError> {
        self.transact(|tables| {
            if tables.user(revocation.user).is_none() {
                return Ok(false);
            }
            tables.revoke_sessions_of(revocation.user, None);
            tables.record(revocation.event(), revocation.audit.outbox)?;
            Ok(true)
        })
    }

    async fn unlink(&self, removal: LinkRemoval, force: bool) -> Result<Unlinked, RemoveLinkError> {
        self.remove_link_of(removal, force)
    }
}

impl InMemoryRepository {
    /// Removes the user's link under `domain::admin::decide_unlink` (the user's disconnect is
    /// `force = false`), in one step under the lock.
    pub(crate) fn remove_link_of(
        &self,
        removal: LinkRemoval,
        force: bool,
    ) -> Result<Unlinked, RemoveLinkError> {
        let user = removal.user;
        self.transact(|tables| {
            let Some(owner) = tables.user(user).cloned() else {
                return Err(DisconnectRefused::NotLinked.into());
            };
            let links = tables.links_of(user);
            let unlink = removal.decide(&owner, &links, force)?;
            let grant = tables
                .links
                .iter()
                .find(|link| link.id == unlink.link)
                .map(crate::users::grant_of)
                .ok_or_else(|| RepositoryError::Internal("the link to remove is gone".into()))?;
            tables.links.retain(|link| link.id != unlink.link);
            if unlink.lock {
                if let Some(stored) = tables.users.iter_mut().find(|stored| stored.id == user) {
                    stored.locked = true;
                }
                tables.revoke_sessions_of(user, None);
            }
            for event in removal.events(&unlink) {
                tables.record(event, removal.audit.outbox)?;
            }
            Ok(Unlinked {
                grant,
                locked: unlink.lock,
            })
        })
    }
}

impl Tables {
    /// Whether `filter` names `user`: by its claimed email, as the database's email column
    /// holds only claimed ones, or by a link of the provider (and account).
    fn filter_names(&self, filter: &UserFilter, user: &User) -> bool {
        let linked = |provider: ProviderKey, subject: Option<&_>| {
            self.links.iter().any(|link| {
                link.user_id == user.id
                    && link.provider == provider
                    && subject.is_none_or(|subject| &link.subject == subject)
            })
        };
        match filter {
            UserFilter::All => true,
            UserFilter::Email(email) => user
                .claimed_email()
                .is_some_and(|claimed| claimed.matches(email)),
            UserFilter::Provider(provider) => linked(*provider, None),
            UserFilter::Account(provider, subject) => linked(*provider, Some(subject)),
        }
    }
}
