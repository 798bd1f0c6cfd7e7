//! Periodic housekeeping: expired refresh tokens and ended sessions, audit events past their
//! retention and provider signal receipts past theirs (90 days) are deleted, so the tables
//! stay bounded. (Spent state ids expire by themselves.)

use social_login_app::AuthService;
use std::sync::Weak;
use std::time::Duration;

/// How often each instance prunes. Every instance does it; the deletes are idempotent.
pub const PRUNE_EVERY: Duration = Duration::from_secs(600);

/// Runs the pruning every `every` for as long as the service is alive (the task ends when
/// the last router holding the service is dropped).
pub fn spawn(service: Weak<AuthService>, every: Duration) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            let Some(service) = service.upgrade() else {
                break;
            };
            match service.prune_expired_sessions().await {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, "expired refresh tokens pruned"),
                Err(error) => tracing::warn!(%error, "pruning expired refresh tokens failed"),
            }
            match service.prune_old_events().await {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, "old audit events pruned"),
                Err(error) => tracing::warn!(%error, "pruning old audit events failed"),
            }
            match service.prune_signal_receipts().await {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, "old provider signal receipts pruned"),
                Err(error) => tracing::warn!(%error, "pruning signal receipts failed"),
            }
        }
    });
}
