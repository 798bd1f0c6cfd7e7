//! DELETE /users/me (docs/api.md#account-deletion-and-revocation): the account, its links and sessions go in one
//! transaction; then each link's grant is revoked at its provider, best effort.

use crate::{AppError, AppResult, AuthService};
use social_login_domain::{Origin, UserId};
use social_login_ports::{UserDeletion, VerifiedAccess};
use tracing::{info, instrument};

impl AuthService {
    /// Needs a recent login ([`AuthService::require_recent_login`]): a token stolen or left
    /// on a shared screen, or refreshed since, is not enough for something irreversible.
    #[instrument(skip_all)]
    pub async fn delete_account(&self, caller: VerifiedAccess, origin: &Origin) -> AppResult<()> {
        self.require_recent_login(&caller).await?;
        if !self.delete_user(caller.user, origin).await? {
            return Err(AppError::Unauthorized);
        }
        Ok(())
    }

    /// Deletes `user` with its links and sessions, then revokes each grant (best effort).
    /// False when there is no such user. The user's own deletion and an operator's.
    pub(crate) async fn delete_user(&self, user: UserId, origin: &Origin) -> AppResult<bool> {
        let now = self.ports.clock.now();
        let Some(grants) = self
            .ports
            .users
            .delete_user(UserDeletion {
                user,
                audit: self.audit(origin, now),
            })
            .await?
        else {
            return Ok(false);
        };
        info!(links = grants.len(), "account deleted");
        self.revoke_removed(user, grants, origin).await;
        Ok(true)
    }
}
