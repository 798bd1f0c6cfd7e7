//! Bearer authentication and GET /users/me.

use crate::{AppError, AppResult, AuthService};
use social_login_domain::admin::check_not_locked;
use social_login_domain::{User, UserId};
use social_login_ports::VerifiedAccess;

/// The authenticated caller: what its token says, and its user as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub access: VerifiedAccess,
    pub user: User,
}

impl AuthService {
    /// The user of a valid access token, or `None`. Checks the token alone (authorize uses
    /// it to tell a connect from a login); protected endpoints use [`Self::caller`].
    pub fn authenticate(&self, bearer: &str) -> Option<UserId> {
        self.verify_bearer(bearer).map(|access| access.user)
    }

    /// A valid access token's user and issue time, or `None`.
    pub fn verify_bearer(&self, bearer: &str) -> Option<VerifiedAccess> {
        let now = self.ports.clock.now();
        self.ports.sessions.verify_access(bearer, now)
    }

    /// The caller of a protected endpoint: a valid token of a user that still exists (a
    /// deleted account's tokens are refused from the moment it is gone) and is not locked
    /// (403 `UserLocked` from the moment an operator locks it, on every instance: the
    /// database says so). The user read for those checks comes back with it, so no handler
    /// reads it again.
    pub async fn caller(&self, bearer: &str) -> AppResult<Caller> {
        let access = self.verify_bearer(bearer).ok_or(AppError::Unauthorized)?;
        let user = self.me(access.user).await?;
        check_not_locked(&user).map_err(|_| AppError::UserLocked)?;
        Ok(Caller { access, user })
    }

    /// The caller's own record. A valid token for a user that no longer exists is 401.
    pub async fn me(&self, caller: UserId) -> AppResult<User> {
        self.ports
            .users
            .find_user(caller)
            .await?
            .ok_or(AppError::Unauthorized)
    }
}
