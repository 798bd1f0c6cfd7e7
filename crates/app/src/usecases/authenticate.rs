//! Bearer authentication and GET /users/me.

use crate::{AppError, AuthService};
use social_login_domain::{User, UserId};

impl AuthService {
    /// The user of a valid access token, or `None`.
    pub fn authenticate(&self, bearer: &str) -> Option<UserId> {
        let now = self.ports.clock.now();
        self.ports.sessions.verify_access(bearer, now)
    }

    /// The caller's own record. A valid token for a user that no longer exists is 401.
    pub async fn me(&self, caller: UserId) -> Result<User, AppError> {
        self.ports
            .users
            .find_user(caller)
            .await?
            .ok_or(AppError::Unauthorized)
    }
}
