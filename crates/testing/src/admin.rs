//! `AdminRepository` of the in-memory store: the operator's searches and changes, each one
//! step under the store's lock, as each is one transaction in the database.

use crate::InMemoryRepository;
use crate::repository::Tables;
use async_trait::async_trait;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::plan::WritePlan;
use social_login_domain::{ProviderKey, User, UserFilter, UserId};
use social_login_ports::{
    AdminRepository, LinkRemoval, LockChange, OperatorUnlink, RemoveLinkError, Remover, RepoResult,
    RepositoryError, SessionsRevocation, Unlinked, UserPage, UserSearch,
};
use time::OffsetDateTime;

#[async_trait]
impl AdminRepository for InMemoryRepository {
    async fn find_users(&self, search: UserSearch) -> RepoResult<UserPage> {
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

    async fn active_sessions(&self, user: UserId, now: OffsetDateTime) -> RepoResult<u64> {
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

    async fn set_locked(&self, change: LockChange) -> RepoResult<bool> {
        self.change_user(change.user, change.plan())
    }

    async fn revoke_sessions(&self, revocation: SessionsRevocation) -> RepoResult<bool> {
        self.change_user(revocation.user, revocation.plan())
    }

    async fn unlink(&self, unlink: OperatorUnlink) -> Result<Unlinked, RemoveLinkError> {
        let by = unlink.remover();
        self.remove_link_of(unlink.removal, by)
    }

    async fn find_events(
        &self,
        query: social_login_ports::EventQuery,
    ) -> RepoResult<Vec<social_login_domain::AuditEvent>> {
        let tables = self.lock();
        let (lowest, above) = query.id_bounds();
        let mut events: Vec<_> = tables
            .events
            .iter()
            .filter(|event| query.user.is_none_or(|user| event.user_id == user))
            .filter(|event| query.kind.is_none_or(|kind| event.kind == kind))
            .filter(|event| lowest.is_none_or(|lowest| event.id >= lowest))
            .filter(|event| above.is_none_or(|above| event.id < above))
            .cloned()
            .collect();
        events.sort_by_key(|event| std::cmp::Reverse(event.id));
        events.truncate(usize::try_from(query.limit.get()).unwrap_or(usize::MAX));
        Ok(events)
    }
}

impl InMemoryRepository {
    /// Applies `plan` if `user` exists; whether it did.
    fn change_user(&self, user: UserId, plan: WritePlan) -> RepoResult<bool> {
        self.transact(|tables| {
            if tables.user(user).is_none() {
                return Ok(false);
            }
            tables.apply(plan)?;
            Ok(true)
        })
    }

    /// Removes the user's link under `domain::admin::decide_unlink`, as `by` may, in one
    /// step under the lock.
    pub(crate) fn remove_link_of(
        &self,
        removal: LinkRemoval,
        by: Remover,
    ) -> Result<Unlinked, RemoveLinkError> {
        self.transact(|tables| {
            let Some(owner) = tables.user(removal.user).cloned() else {
                return Err(DisconnectRefused::NotLinked.into());
            };
            let links = tables.links_of(owner.id);
            let plan = removal.plan(&owner, &links, by)?;
            let grant = tables
                .links
                .iter()
                .find(|link| link.id == plan.unlink.link)
                .map(crate::users::grant_of)
                .ok_or_else(|| RepositoryError::Internal("the link to remove is gone".into()))?;
            tables.apply(plan.writes)?;
            Ok(Unlinked {
                grant,
                locked: plan.unlink.lock,
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
