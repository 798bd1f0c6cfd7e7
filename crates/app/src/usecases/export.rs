//! What the service holds about a user, as one document (docs/api.md#export): the right of
//! access and portability (GDPR Art. 15 and 20). No token, hash or secret is part of it:
//! only what the API shows anyway, gathered.

use crate::{AppError, AppResult, AuthService};
use social_login_domain::{
    AuditEvent, EventsView, LinkedAccount, ProviderKey, User, UserEvents, UserId,
};
use social_login_ports::SessionSummary;
use time::OffsetDateTime;

/// Most audit events an export carries: the newest.
pub const MAX_EXPORTED_EVENTS: u64 = 10_000;

/// Everything held about one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserExport {
    pub exported_at: OffsetDateTime,
    pub user: User,
    pub links: Vec<LinkedAccount>,
    pub sessions: Vec<SessionSummary>,
    /// Newest first, at most [`MAX_EXPORTED_EVENTS`].
    pub events: Vec<AuditEvent>,
}

impl UserExport {
    /// The provider of the linked account the user registered through, whose email, name
    /// and avatar the user's are ([`User::registered_through`]).
    pub fn profile_from(&self) -> Option<ProviderKey> {
        let registering = self
            .links
            .iter()
            .find(|link| self.user.registered_through(link));
        registering.map(|link| link.provider)
    }
}

impl AuthService {
    /// The export of `user`; 404 `NotFound` when there is no such user. Support's reads of
    /// the user's data (`admin.read`) are in it only in an operator's `view`.
    pub async fn export(&self, user: UserId, view: EventsView) -> AppResult<UserExport> {
        let ports = &self.ports;
        let now = ports.clock.now();
        let found = ports
            .users
            .find_user(user)
            .await?
            .ok_or(AppError::UserNotFound)?;
        Ok(UserExport {
            exported_at: now,
            user: found,
            links: ports.users.list_links(user).await?,
            sessions: ports.refresh_tokens.list_sessions(user, now).await?,
            events: ports
                .users
                .events_of(UserEvents {
                    user,
                    limit: MAX_EXPORTED_EVENTS,
                    view,
                })
                .await?,
        })
    }
}
