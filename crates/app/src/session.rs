//! Issuing the login result: a signed access token plus a new refresh-token family; and the
//! recent-login rule that deletion and linking apply to the session behind a bearer token.

use crate::{AppError, AppResult, AuthService};
use social_login_domain::reauthentication::require_recent_login;
use social_login_domain::refresh::token_expiry;
use social_login_domain::{FamilyId, LoginMethod, Origin, SecretText, User};
use social_login_ports::{
    AccessIssue, AccessToken, PlanError, RepositoryError, SessionOpening, SessionStart,
    VerifiedAccess,
};
use time::OffsetDateTime;

/// What a successful login, registration or refresh returns (docs/api.md#login-result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginResult {
    pub access_token: AccessToken,
    pub refresh_token: SecretText,
    pub user: User,
    pub is_new_user: bool,
}

impl AuthService {
    /// A new session started by a login `now` with `began_with`: what the repository stores
    /// (hash, family, expiries, the login's time and method) and the refresh token value that
    /// only the client gets.
    pub(crate) fn new_session(
        &self,
        now: OffsetDateTime,
        began_with: LoginMethod,
    ) -> (SessionStart, SecretText) {
        let refresh = self.ports.sessions.new_refresh();
        let family_expires_at = now + self.policy.refresh_family_max;
        let session = SessionStart {
            hash: refresh.hash,
            family: self.new_family_id(now),
            token_expires_at: token_expiry(
                now,
                self.ports.sessions.refresh_ttl(),
                family_expires_at,
            ),
            family_expires_at,
            auth_time: now,
            began_with,
        };
        let value = self
            .ports
            .sessions
            .refresh_value(&refresh, session.first_issue());
        (session, value)
    }

    /// The login result of a session the repository has stored, for a login `now`.
    pub(crate) fn login_result(
        &self,
        user: User,
        is_new_user: bool,
        (session, refresh_token): (FamilyId, SecretText),
        now: OffsetDateTime,
    ) -> AppResult<LoginResult> {
        Ok(LoginResult {
            access_token: self.ports.sessions.issue_access(
                AccessIssue {
                    user: user.id,
                    session,
                    auth_time: now,
                },
                now,
            )?,
            refresh_token,
            user,
            is_new_user,
        })
    }

    /// Starts a new session for `user` after a password login: a new refresh-token family.
    /// (A registration writes its first session with the user.)
    pub(crate) async fn start_session(
        &self,
        user: User,
        origin: &Origin,
    ) -> AppResult<LoginResult> {
        let now = self.ports.clock.now();
        let (session, refresh_token) = self.new_session(now, LoginMethod::Password);
        let family = session.family;
        self.ports
            .refresh_tokens
            .start_family(SessionOpening {
                user: user.id,
                session,
                now,
                audit: self.audit(origin, now),
            })
            .await
            .map_err(|refused| match refused {
                PlanError::Locked => AppError::UserLocked,
                other => RepositoryError::from(other).into(),
            })?;
        self.login_result(user, false, (family, refresh_token), now)
    }

    /// 401 `ReauthenticationRequired` unless the login of the caller's session happened at
    /// most `[tokens] reauthentication_seconds` ago, and that session is still live. A
    /// refresh keeps the session's login time, so a stolen refresh or access token does not
    /// pass; nor does the access token of a session that ended since (a logout on a shared
    /// screen, a reuse that revoked it, support), though it still reads until it expires.
    pub(crate) async fn require_recent_login(&self, caller: &VerifiedAccess) -> AppResult<()> {
        let now = self.ports.clock.now();
        let refused = || AppError::ReauthenticationRequired;
        require_recent_login(caller.auth_time, now, self.policy.reauthentication)
            .map_err(|_| refused())?;
        let session = caller.session.ok_or_else(refused)?;
        let stored = self.ports.refresh_tokens.find_session(session).await?;
        match stored {
            Some(family) if family.is_live_session_of(caller.user, now) => Ok(()),
            _ => Err(refused()),
        }
    }
}
