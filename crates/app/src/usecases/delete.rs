//! DELETE /users/me (CONTRACT §6): the account, its links and sessions go in one
//! transaction; then each link's grant is revoked at its provider, best effort.

use crate::{AppError, AuthService};
use social_login_domain::Origin;
use social_login_ports::VerifiedAccess;
use time::Duration;
use tracing::{info, instrument};

/// How recent the login behind the bearer token must be to delete the account: a token
/// stolen or left on a shared screen should not be enough for something irreversible.
pub const REAUTHENTICATION_WINDOW: Duration = Duration::minutes(5);

impl AuthService {
    #[instrument(skip_all)]
    pub async fn delete_account(
        &self,
        caller: VerifiedAccess,
        origin: &Origin,
    ) -> Result<(), AppError> {
        let now = self.ports.clock.now();
        if now - caller.issued_at > REAUTHENTICATION_WINDOW {
            return Err(AppError::ReauthenticationRequired);
        }
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
