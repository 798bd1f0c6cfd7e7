//! The operator's use cases (docs/api.md#operator-api): find users, read one, unlink, end
//! sessions, lock, unlock, delete. The HTTP layer has checked the admin key and put it in
//! the `Origin`, so every event these write says `"actor": "admin"` and which key.

use crate::{AppError, AppResult, AuthService};
use futures_util::Stream;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::event_query::EventPageLimit;
use social_login_domain::{
    AuditEvent, AuditEventType, EventsView, LinkedAccount, Origin, PageLimit, ProviderKey, User,
    UserFilter, UserId,
};
use social_login_ports::{
    AdminRepository, EventQuery, LinkRemoval, LockChange, OperatorUnlink, RemoveLinkError,
    SessionsRevocation, UserPage, UserSearch,
};
use std::sync::Arc;
use tracing::{info, instrument};

/// A user as support sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserDetails {
    pub user: User,
    pub links: Vec<LinkedAccount>,
    pub active_sessions: u64,
}

/// The operator's use cases over the user's ([`AuthService`]) and the operator's port.
#[derive(Clone)]
pub struct AdminService {
    auth: AuthService,
    directory: Arc<dyn AdminRepository>,
}

impl AdminService {
    pub fn new(auth: AuthService, directory: Arc<dyn AdminRepository>) -> Self {
        Self { auth, directory }
    }

    /// One page of the users `filter` names, after the user `after`, by id.
    #[instrument(skip_all)]
    pub async fn find_users(
        &self,
        filter: &UserFilter,
        after: Option<UserId>,
        limit: PageLimit,
    ) -> AppResult<UserPage> {
        Ok(self
            .directory
            .find_users(UserSearch {
                filter: filter.clone(),
                after,
                limit,
            })
            .await?)
    }

    /// The user, its links and how many sessions it has; 404 when there is no such user. A
    /// read of that user's data: recorded (`admin.read`).
    #[instrument(skip_all)]
    pub async fn user(&self, id: UserId, origin: &Origin) -> AppResult<UserDetails> {
        let ports = &self.auth.ports;
        let user = ports
            .users
            .find_user(id)
            .await?
            .ok_or(AppError::UserNotFound)?;
        let links = ports.users.list_links(id).await?;
        let active_sessions = self
            .directory
            .active_sessions(id, ports.clock.now())
            .await?;
        self.record_read(id, origin).await?;
        Ok(UserDetails {
            user,
            links,
            active_sessions,
        })
    }

    /// Everything held about the user (docs/api.md#export), its reads by support included;
    /// the read is recorded (`admin.read`).
    #[instrument(skip_all)]
    pub async fn export(&self, id: UserId, origin: &Origin) -> AppResult<crate::UserExport> {
        let export = self.auth.export(id, EventsView::Operator).await?;
        self.record_read(id, origin).await?;
        Ok(export)
    }

    /// The audit events `query` selects, newest first (docs/api.md#audit-trail); a query
    /// about one user is a read of that user's data (`admin.read`).
    #[instrument(skip_all)]
    pub async fn events(&self, query: EventQuery, origin: &Origin) -> AppResult<Vec<AuditEvent>> {
        let events = self.events_page(query).await?;
        self.record_query(query, origin).await?;
        Ok(events)
    }

    /// Every event `selection` selects, newest first, a page of [`EventPageLimit::MAX`] read
    /// at a time as the stream is polled; the query is recorded once, before the first.
    #[instrument(skip_all)]
    pub async fn event_pages(
        &self,
        selection: EventQuery,
        origin: &Origin,
    ) -> AppResult<impl Stream<Item = AppResult<Vec<AuditEvent>>> + use<>> {
        self.record_query(selection, origin).await?;
        let first = EventQuery {
            limit: EventPageLimit::MAX,
            ..selection
        };
        let service = self.clone();
        Ok(futures_util::stream::unfold(Some(first), move |next| {
            let service = service.clone();
            async move {
                let query = next?;
                match service.events_page(query).await {
                    Ok(page) => {
                        let following = query.next_cursor(&page).map(|last| query.after(last));
                        Some((Ok(page), following))
                    }
                    Err(error) => Some((Err(error), None)),
                }
            }
        }))
    }

    async fn events_page(&self, query: EventQuery) -> AppResult<Vec<AuditEvent>> {
        Ok(self.directory.find_events(query).await?)
    }

    /// Records a query about one user's events as a read of that user's data.
    async fn record_query(&self, query: EventQuery, origin: &Origin) -> AppResult<()> {
        match query.user {
            Some(user) => self.record_read(user, origin).await,
            None => Ok(()),
        }
    }

    /// Records that support read `user`'s data, with the key's id (in `origin`).
    async fn record_read(&self, user: UserId, origin: &Origin) -> AppResult<()> {
        let kind = AuditEventType::AdminRead;
        Ok(self
            .auth
            .record_lone_event(origin, kind, user, None)
            .await?)
    }

    /// Removes the user's link of `provider`, with the sessions it began, and revokes its
    /// grant (best effort). The last way to log in goes only with `force`, which locks the
    /// user too.
    #[instrument(skip_all, fields(provider = %provider))]
    pub async fn unlink(
        &self,
        id: UserId,
        provider: ProviderKey,
        force: bool,
        origin: &Origin,
    ) -> AppResult<()> {
        self.exists(id).await?;
        let ports = &self.auth.ports;
        let audit = self.auth.audit(origin, ports.clock.now());
        let unlinked = self
            .directory
            .unlink(OperatorUnlink {
                removal: LinkRemoval {
                    user: id,
                    provider,
                    usable: ports.providers.keys(),
                    audit,
                },
                force,
            })
            .await
            .map_err(|error| match error {
                // The operator asked for what only `force` does: a conflict with the
                // account's state, not a bad request.
                RemoveLinkError::Refused(DisconnectRefused::LastLoginMethod) => {
                    AppError::LastLoginMethodNeedsForce
                }
                other => crate::usecases::accounts::unlink_refused(other),
            })?;
        info!(locked = unlinked.locked, "link removed by an operator");
        self.auth
            .revoke_removed(id, vec![unlinked.grant], origin)
            .await;
        Ok(())
    }

    /// Ends every session of the user: its refresh tokens stop working.
    #[instrument(skip_all)]
    pub async fn revoke_sessions(&self, id: UserId, origin: &Origin) -> AppResult<()> {
        let revocation = SessionsRevocation {
            user: id,
            audit: self.auth.audit(origin, self.auth.ports.clock.now()),
        };
        found(self.directory.revoke_sessions(revocation).await?)
    }

    /// Locks (every session ends) or unlocks the user. Unlocking gives back the logins,
    /// not the sessions the lock ended.
    #[instrument(skip_all)]
    pub async fn set_locked(&self, id: UserId, locked: bool, origin: &Origin) -> AppResult<()> {
        let change = LockChange {
            user: id,
            locked,
            audit: self.auth.audit(origin, self.auth.ports.clock.now()),
        };
        found(self.directory.set_locked(change).await?)
    }

    /// Deletes the user exactly as `DELETE /users/me` does (without the recent-login rule,
    /// which is the user's).
    #[instrument(skip_all)]
    pub async fn delete_user(&self, id: UserId, origin: &Origin) -> AppResult<()> {
        found(self.auth.delete_user(id, origin).await?)
    }

    async fn exists(&self, id: UserId) -> AppResult<()> {
        found(self.auth.ports.users.find_user(id).await?.is_some())
    }
}

fn found(found: bool) -> AppResult<()> {
    found.then_some(()).ok_or(AppError::UserNotFound)
}
