//! GET accounts and DELETE disconnect (docs/api.md#accounts, #disconnect).

use crate::EnabledProvider;
use crate::{AppError, AppResult, AuthService};
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::{AuditEvent, EventsView, LinkedAccount, Origin, UserEvents, UserId};
use social_login_ports::{LinkRemoval, RemoveLinkError};
use tracing::instrument;

/// How many of a user's events `GET /users/me/events` returns.
pub const MAX_EVENTS_LISTED: u64 = 100;

impl AuthService {
    /// The caller's linked accounts, oldest first.
    #[instrument(skip_all)]
    pub async fn accounts(&self, caller: UserId) -> AppResult<Vec<LinkedAccount>> {
        Ok(self.ports.users.list_links(caller).await?)
    }

    /// The caller's most recent audit events, newest first.
    #[instrument(skip_all)]
    pub async fn events(&self, caller: UserId) -> AppResult<Vec<AuditEvent>> {
        let users = &self.ports.users;
        let own = UserEvents {
            user: caller,
            limit: MAX_EVENTS_LISTED,
            view: EventsView::Own,
        };
        Ok(users.events_of(own).await?)
    }

    /// Removes the caller's link of a provider, unless it is their last way to log in; then
    /// revokes its grant at the provider, best effort.
    #[instrument(skip_all, fields(provider = %provider))]
    pub async fn disconnect(
        &self,
        caller: UserId,
        provider: EnabledProvider,
        origin: &Origin,
    ) -> AppResult<()> {
        let provider = provider.key();
        let audit = self.audit(origin, self.ports.clock.now());
        let grant = self
            .ports
            .users
            .remove_link(LinkRemoval {
                user: caller,
                provider,
                usable: self.ports.providers.keys(),
                audit,
            })
            .await
            .map_err(unlink_refused)?;
        self.revoke_removed(caller, vec![grant], origin).await;
        Ok(())
    }
}

/// What a refused unlink tells the client: the user's disconnect and an operator's alike.
pub(crate) fn unlink_refused(error: RemoveLinkError) -> AppError {
    match error {
        RemoveLinkError::Refused(DisconnectRefused::NotLinked) => AppError::AccountNotFound,
        RemoveLinkError::Refused(DisconnectRefused::LastLoginMethod) => AppError::LastLoginMethod,
        RemoveLinkError::Repository(error) => AppError::from(error),
    }
}
