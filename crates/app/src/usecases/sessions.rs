//! The caller's own sessions (docs/api.md#your-sessions): listing the live ones and ending one.

use crate::{AppError, AppResult, AuthService};
use social_login_domain::{FamilyId, Origin, UserId};
use social_login_ports::{SessionEnding, SessionSummary, VerifiedAccess};

/// One of the caller's sessions, and whether the caller's own token belongs to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionListed {
    pub session: SessionSummary,
    pub current: bool,
}

impl AuthService {
    /// The caller's live sessions, newest use first.
    pub async fn sessions(&self, caller: &VerifiedAccess) -> AppResult<Vec<SessionListed>> {
        let now = self.ports.clock.now();
        let sessions = self
            .ports
            .refresh_tokens
            .list_sessions(caller.user, now)
            .await?;
        Ok(sessions
            .into_iter()
            .map(|session| SessionListed {
                current: caller.session == Some(session.id),
                session,
            })
            .collect())
    }

    /// Ends one of `user`'s live sessions: its refresh token stops working on every
    /// instance at once. 404 for anything else (another user's, unknown, ended already).
    pub async fn end_session(
        &self,
        user: UserId,
        session: FamilyId,
        origin: &Origin,
    ) -> AppResult<()> {
        let now = self.ports.clock.now();
        let ending = SessionEnding {
            user,
            session,
            audit: self.audit(origin, now),
        };
        match self.ports.refresh_tokens.end_session(ending).await? {
            true => Ok(()),
            false => Err(AppError::SessionNotFound),
        }
    }
}
