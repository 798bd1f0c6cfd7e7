//! DELETE /users/me (docs/api.md#account-deletion-and-revocation): the account, its links and sessions go in one
//! transaction; then each link's grant is revoked at its provider, best effort.

use crate::{AppError, AuthService};
use social_login_domain::Origin;
use social_login_ports::VerifiedAccess;
use tracing::{info, instrument};

impl AuthService {
    /// Needs a recent login ([`AuthService::require_recent_login`]): a token stolen or left
    /// on a shared screen, or refreshed since, is not enough for something irreversible.
    #[instrument(skip_all)]
    pub async fn delete_account(
        &self,
        caller: VerifiedAccess,
        origin: &Origin,
    ) -> Result<(), AppError> {
        self.require_recent_login(&caller)?;
        let now = self.ports.clock.now();
        let grants = self
            .ports
            .users
            .delete_user(caller.user, self.audit(origin, now))
            .await?
            .ok_or(AppError::Unauthorized)?;
        info!(links = grants.len(), "account deleted");
        for grant in grants {
            self.revoke_grant(caller.user, grant, origin).await;
        }
        Ok(())
    }
}
