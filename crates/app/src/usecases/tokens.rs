//! POST /auth/refresh and POST /auth/logout: rotating refresh tokens.

use crate::batches::{LastBatch, PRUNE_MAX_BATCHES, in_batches};
use crate::{AppError, AppResult, AuthService, LoginResult};
use social_login_domain::Origin;
use social_login_domain::admin::check_not_locked;
use social_login_ports::{AccessIssue, Logout, RefreshRotation, RotateError};
use social_login_ports::{RotationRefused, WebhookOutbox};
use tracing::{instrument, warn};

/// How long audit events are kept.
pub const AUDIT_RETENTION: time::Duration = time::Duration::days(400);

impl AuthService {
    /// Exchanges a refresh token for a new access token and a new refresh token. A token
    /// that was already used revokes its whole family (reuse detection).
    #[instrument(skip_all)]
    pub async fn refresh(&self, presented: &str, origin: &Origin) -> AppResult<LoginResult> {
        let sessions = &self.ports.sessions;
        let now = self.ports.clock.now();
        let successor = sessions.new_refresh();
        let rotated = self
            .ports
            .refresh_tokens
            .rotate_refresh(RefreshRotation {
                presented: sessions.read_refresh(presented),
                successor: successor.hash,
                now,
                successor_ttl: sessions.refresh_ttl(),
                audit: self.audit(origin, now),
            })
            .await
            .map_err(|error| match error {
                RotateError::Refused(RotationRefused::Invalid) => AppError::InvalidCredentials,
                RotateError::Refused(RotationRefused::ReuseDetected) => {
                    warn!("refresh token reuse detected; token family revoked");
                    AppError::InvalidCredentials
                }
                RotateError::Refused(RotationRefused::UserLocked) => AppError::UserLocked,
                RotateError::Repository(error) => error.into(),
            })?;
        let user = self
            .ports
            .users
            .find_user(rotated.user)
            .await?
            .ok_or(AppError::InvalidCredentials)?;
        // Locked while this rotation ran: the lock ended the family, successor included.
        check_not_locked(&user).map_err(|_| AppError::UserLocked)?;
        // A refresh is not a login: the new access token carries the session's login time.
        Ok(LoginResult {
            access_token: sessions.issue_access(
                AccessIssue {
                    user: user.id,
                    session: rotated.session,
                    auth_time: rotated.auth_time,
                },
                now,
            )?,
            refresh_token: sessions.refresh_value(&successor, rotated.successor_issue()),
            user,
            is_new_user: false,
        })
    }

    /// Housekeeping: deletes expired refresh tokens and ended sessions in bounded batches,
    /// so the tables stay as large as the live sessions. Returns the rows deleted.
    #[instrument(skip_all)]
    pub async fn prune_expired_sessions(&self) -> AppResult<u64> {
        let now = self.ports.clock.now();
        let refresh_tokens = &self.ports.refresh_tokens;
        let batch = |limit| refresh_tokens.prune_expired(now, limit);
        Ok(in_batches(batch, LastBatch::Empty, PRUNE_MAX_BATCHES).await?)
    }

    /// Housekeeping: deletes audit events older than `[audit] retention_days` (default
    /// [`AUDIT_RETENTION`]), in bounded batches. Returns how many went.
    #[instrument(skip_all)]
    pub async fn prune_old_events(&self) -> AppResult<u64> {
        let before = self.ports.clock.now() - self.policy.audit_retention;
        let users = &self.ports.users;
        let batch = |limit| users.prune_events(before, limit);
        Ok(in_batches(batch, LastBatch::Short, PRUNE_MAX_BATCHES).await?)
    }

    /// Housekeeping: forgets the webhook outbox's rows of old events, in bounded batches
    /// (each keeps its audit event from the prune). With a receiver, a dead letter is kept
    /// [`AUDIT_RETENTION`] for an operator to redeliver; without one nothing will send what
    /// the outbox holds (queued while one was configured), which goes after `[audit]
    /// retention_days`. Returns how many went.
    #[instrument(skip_all)]
    pub async fn prune_webhook_outbox(&self, outbox: &dyn WebhookOutbox) -> AppResult<u64> {
        let receiver = !self.policy.webhook_events.is_empty();
        let kept = if receiver {
            AUDIT_RETENTION
        } else {
            self.policy.audit_retention
        };
        let before = self.ports.clock.now() - kept;
        let batch = |limit| outbox.forget_written_before(before, limit);
        Ok(in_batches(batch, LastBatch::Short, PRUNE_MAX_BATCHES).await?)
    }

    /// Ends the session of this refresh token. Unknown tokens are accepted silently, so
    /// logout cannot be used to probe which tokens exist.
    #[instrument(skip_all)]
    pub async fn logout(&self, presented: &str, origin: &Origin) -> AppResult<()> {
        let logout = Logout {
            presented: self.ports.sessions.read_refresh(presented),
            audit: self.audit(origin, self.ports.clock.now()),
        };
        Ok(self.ports.refresh_tokens.revoke_refresh(logout).await?)
    }
}
