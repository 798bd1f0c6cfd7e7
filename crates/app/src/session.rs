//! Issuing the login result: a signed access token plus a new refresh-token family.

use crate::{AppError, AuthService};
use social_login_domain::refresh::token_expiry;
use social_login_domain::{FamilyId, SecretText, User};
use social_login_ports::{AccessToken, NewRefreshToken};

/// What a successful login, registration or refresh returns (spec §2 "Login result").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginResult {
    pub access_token: AccessToken,
    pub refresh_token: SecretText,
    pub user: User,
    pub is_new_user: bool,
}

impl AuthService {
    /// Starts a new session for `user`: a new refresh-token family.
    pub(crate) async fn start_session(
        &self,
        user: User,
        is_new_user: bool,
    ) -> Result<LoginResult, AppError> {
        let now = self.ports.clock.now();
        let access_token = self.ports.sessions.issue_access(user.id, now)?;
        let refresh = self.ports.sessions.new_refresh();
        let family_expires_at = now + self.policy.refresh_family_max;
        self.ports
            .refresh_tokens
            .start_family(
                NewRefreshToken {
                    hash: refresh.hash,
                    user_id: user.id,
                    family: FamilyId::new(),
                    created_at: now,
                    expires_at: token_expiry(
                        now,
                        self.ports.sessions.refresh_ttl(),
                        family_expires_at,
                    ),
                },
                family_expires_at,
            )
            .await?;
        Ok(LoginResult {
            access_token,
            refresh_token: refresh.value,
            user,
            is_new_user,
        })
    }
}
