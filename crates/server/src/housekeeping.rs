//! Periodic housekeeping: expired refresh tokens and ended sessions, audit events past their
//! retention and provider signal receipts past theirs (90 days) are deleted, so the tables
//! stay bounded, and so do the webhook outbox's rows of old events.
//! (Spent state ids expire by themselves.)

use social_login_app::AuthService;
use social_login_ports::WebhookOutbox;
use std::sync::Weak;
use std::time::Duration;

/// How often each instance prunes. Every instance does it; the deletes are idempotent.
pub const PRUNE_EVERY: Duration = Duration::from_secs(600);

/// Runs the pruning every `every` for as long as the service is alive (the task ends when
/// the last router holding the service is dropped). `outbox` is the service's repository
/// too: held weakly, so that this task does not keep the database open after it.
pub fn spawn(service: Weak<AuthService>, every: Duration, outbox: Weak<dyn WebhookOutbox>) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            let (Some(service), Some(outbox)) = (service.upgrade(), outbox.upgrade()) else {
                break;
            };
            match service.prune_expired_sessions().await {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, "expired refresh tokens pruned"),
                Err(error) => tracing::warn!(%error, "pruning expired refresh tokens failed"),
            }
            // Before the events: an outbox row keeps its event from the prune.
            match service.prune_webhook_outbox(outbox.as_ref()).await {
                Ok(0) => {}
                Ok(pruned) => tracing::info!(pruned, "old webhook outbox rows pruned"),
                Err(error) => tracing::warn!(%error, "pruning the webhook outbox failed"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_app::{AuthPolicy, Ports, ProviderRegistry, SignalVerifiers};
    use social_login_domain::signal::RECEIPT_RETENTION;
    use social_login_domain::{AuditEvent, AuditEventId, AuditEventType, EventSet, Origin, UserId};
    use social_login_domain::{SignalId, SignalSource};
    use social_login_ports::{SignalReceipt, SignalRepository, UserRepository};
    use social_login_testing::{
        FakeClock, FakeHasher, FakeSessions, FakeStateSealer, FakeStateStore, InMemoryRepository,
        ReversingCipher, SeededRandomness,
    };
    use std::sync::Arc;

    /// `[audit] retention_days` of the service under test.
    const AUDIT_KEPT: time::Duration = time::Duration::days(30);

    /// An event of `user` that happened `age` before `now`.
    fn event_aged(user: UserId, now: time::OffsetDateTime, age: time::Duration) -> AuditEvent {
        let at = now - age;
        AuditEvent {
            id: AuditEventId::at(at, [age.whole_days() as u8; 8]),
            kind: AuditEventType::UserLogin,
            user_id: user,
            provider: None,
            origin: Origin::default(),
            created_at: at,
        }
    }

    #[tokio::test]
    async fn every_run_forgets_signal_receipts_and_audit_events_older_than_their_retention_even_queued_ones()
     {
        let now = time::OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        let repository = Arc::new(InMemoryRepository::default());
        let service = Arc::new(AuthService::new(
            Ports {
                users: repository.clone(),
                refresh_tokens: repository.clone(),
                grants: repository.clone(),
                signals: repository.clone(),
                state_sealer: Arc::new(FakeStateSealer::default()),
                states: Arc::new(FakeStateStore::default()),
                providers: ProviderRegistry::new(),
                signal_verifiers: SignalVerifiers::new(),
                cipher: Arc::new(ReversingCipher),
                hasher: Arc::new(FakeHasher),
                sessions: Arc::new(FakeSessions),
                clock: Arc::new(FakeClock::at(now)),
                random: Arc::new(SeededRandomness::default()),
            },
            AuthPolicy {
                audit_retention: AUDIT_KEPT,
                ..AuthPolicy::default()
            },
        ));
        let receipt = |id: &str, age: time::Duration| SignalReceipt {
            source: SignalSource::GoogleRisc,
            id: SignalId::parse(id).unwrap(),
            received_at: now - age,
            payload: None,
        };
        let old = receipt("old", RECEIPT_RETENTION + time::Duration::minutes(1));
        let recent = receipt("recent", RECEIPT_RETENTION - time::Duration::minutes(1));
        for kept in [old.clone(), recent.clone()] {
            repository.keep_receipt(kept).await.unwrap();
        }
        let user = UserId::new();
        let day = time::Duration::days(1);
        let (old_event, recent_event) = (
            event_aged(user, now, AUDIT_KEPT + day),
            event_aged(user, now, AUDIT_KEPT - day),
        );
        // Queued for a receiver that has since been removed from the configuration.
        for event in [old_event.clone(), recent_event.clone()] {
            repository
                .record_event(event, EventSet::all())
                .await
                .unwrap();
        }

        let outbox: Arc<dyn WebhookOutbox> = repository.clone();
        spawn(
            Arc::downgrade(&service),
            Duration::from_millis(10),
            Arc::downgrade(&outbox),
        );
        let found = |id: SignalId| {
            let repository = repository.clone();
            async move {
                repository
                    .find_receipt(SignalSource::GoogleRisc, &id)
                    .await
                    .unwrap()
            }
        };
        for _ in 0..500 {
            if found(old.id.clone()).await.is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(found(old.id).await, None, "pruned within 5 s");
        assert!(found(recent.id).await.is_some());
        let events = repository.list_events(user, 10).await.unwrap();
        let ids: Vec<_> = events.iter().map(|event| event.id).collect();
        assert_eq!(
            ids,
            [recent_event.id],
            "the configured retention, not the default, also for an event the outbox held"
        );
        let held = repository.counts().await.unwrap();
        assert_eq!(held.pending, 1, "the recent event's row stays queued");
    }
}
