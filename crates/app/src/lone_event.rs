//! An audit event recorded on its own rather than in a use case's transaction: a failed
//! revocation, a throttled login, a refused refresh, and support's read of a user's data.

use crate::AuthService;
use social_login_domain::{AuditEventType, Origin, ProviderKey, UserId};
use social_login_ports::RepoResult;

impl AuthService {
    /// Records one event of `kind` about `user` (at `provider`), from `origin`, now.
    pub(crate) async fn record_lone_event(
        &self,
        origin: &Origin,
        kind: AuditEventType,
        user: UserId,
        provider: Option<ProviderKey>,
    ) -> RepoResult<()> {
        let now = self.ports.clock.now();
        let event = self.audit(origin, now).event(0, kind, user, provider);
        let outbox = self.policy.webhook_events;
        self.ports.users.record_event(event, outbox).await
    }
}
