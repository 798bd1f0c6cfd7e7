//! Signal receipts: a repeat or a concurrent delivery of one signal acts once; a receipt kept
//! alone is found; old receipts are pruned in bounded batches.

use super::Repository;
use super::fixtures::{new_link, new_user, now, store_user};
use super::signals::{ada, signal};
use social_login_domain::{
    AuditEventType, ProviderKey, SignalId, SignalKind, SignalSource, UserId,
};
use social_login_ports::{SignalCommand, SignalOutcome, SignalReceipt};
use std::sync::Arc;
use time::Duration;

pub async fn a_signal_acts_once_and_its_repeat_writes_nothing(repo: Arc<dyn Repository>) {
    let ada = ada(&repo, true).await;
    let source = SignalSource::AppleNotification;
    let first = signal(source, "jti-once", "apple-ada", SignalKind::ConsentRevoked);
    assert!(matches!(
        repo.apply_signal(first).await,
        Ok(SignalOutcome::Applied { .. })
    ));
    let events = repo.list_events(ada, 10).await.unwrap().len();
    let again = signal(source, "jti-once", "apple-ada", SignalKind::ConsentRevoked);
    assert_eq!(repo.apply_signal(again).await, Ok(SignalOutcome::Duplicate));
    assert_eq!(
        repo.list_events(ada, 10).await.unwrap().len(),
        events,
        "no second event"
    );
}

/// When the tests' receipts were received, relative to [`now`].
fn received(receipt: &mut SignalReceipt, offset: Duration) {
    receipt.received_at = now() + offset;
}

pub async fn a_kept_receipt_is_found_and_keeping_it_again_keeps_the_first_time(
    repo: Arc<dyn Repository>,
) {
    let source = SignalSource::FacebookDataDeletion;
    let mut first = signal(
        source,
        "code-kept",
        "fb-nobody",
        SignalKind::DataDeletionRequested,
    )
    .receipt;
    received(&mut first, Duration::ZERO);
    assert_eq!(repo.keep_receipt(first.clone()).await, Ok(Some(now())));
    let mut again = first.clone();
    received(&mut again, Duration::hours(1));
    assert_eq!(
        repo.keep_receipt(again).await,
        Ok(Some(now())),
        "the first time stays"
    );
    assert_eq!(repo.find_receipt(source, &first.id).await, Ok(Some(now())));
    let other = SignalId::parse("code-other").unwrap();
    assert_eq!(repo.find_receipt(source, &other).await, Ok(None));
    assert_eq!(
        repo.find_receipt(SignalSource::FacebookDeauthorize, &first.id)
            .await,
        Ok(None),
        "receipts are per source"
    );
}

pub async fn pruning_receipts_deletes_only_those_received_before_the_bound(
    repo: Arc<dyn Repository>,
) {
    let source = SignalSource::GoogleRisc;
    for (index, days) in [-10, -9, -8, 1].into_iter().enumerate() {
        let mut receipt = signal(source, &format!("set-{index}"), "g", SignalKind::Other).receipt;
        received(&mut receipt, Duration::days(days));
        repo.keep_receipt(receipt).await.unwrap();
    }
    assert_eq!(
        repo.prune_receipts(now(), 2).await,
        Ok(2),
        "a batch is bounded"
    );
    assert_eq!(repo.prune_receipts(now(), 2).await, Ok(1));
    assert_eq!(repo.prune_receipts(now(), 2).await, Ok(0));
    let kept = SignalId::parse("set-3").unwrap();
    assert!(repo.find_receipt(source, &kept).await.unwrap().is_some());
}

pub async fn of_concurrent_deliveries_of_one_signal_exactly_one_acts(repo: Arc<dyn Repository>) {
    let ada = ada(&repo, true).await;
    let outcomes = all_at_once(&repo, |_| {
        let kind = SignalKind::ConsentRevoked;
        signal(
            SignalSource::AppleNotification,
            "jti-race",
            "apple-ada",
            kind,
        )
    })
    .await;
    let applied = outcomes.iter().filter(|o| acted(o)).count();
    assert_eq!(applied, 1, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, SignalOutcome::Applied { .. } | SignalOutcome::Duplicate))
    );
    let revoked = repo
        .list_events(ada, 20)
        .await
        .unwrap()
        .iter()
        .filter(|event| event.kind == AuditEventType::ProviderConsentRevoked)
        .count();
    assert_eq!(revoked, 1);
}

/// Bea, linked to Facebook as `fb-bea`, with a password (so a removed link leaves her a way
/// in).
async fn bea_on_facebook(repo: &Arc<dyn Repository>) -> UserId {
    let bea = new_user(Some("bea@example.com"), true);
    let link = new_link(bea.id, ProviderKey::FACEBOOK, "fb-bea");
    store_user(repo.as_ref(), &bea, Some(link)).await;
    bea.id
}

/// A Facebook signal at `source` whose payload has id `payload`.
fn facebook(source: SignalSource, id: &str, kind: SignalKind, payload: &str) -> SignalCommand {
    let mut command = signal(source, id, "fb-bea", kind);
    command.receipt.payload = Some(SignalId::parse(payload).unwrap());
    command
}

pub async fn a_payload_that_acted_at_one_endpoint_acts_at_no_other(repo: Arc<dyn Repository>) {
    let bea = bea_on_facebook(&repo).await;
    let deauthorize = SignalSource::FacebookDeauthorize;
    let deletion = SignalSource::FacebookDataDeletion;
    let revoked = facebook(
        deauthorize,
        "code-a",
        SignalKind::ConsentRevoked,
        "payload-1",
    );
    assert!(matches!(
        repo.apply_signal(revoked.clone()).await,
        Ok(SignalOutcome::Applied { .. })
    ));
    assert_eq!(
        repo.apply_signal(revoked).await,
        Ok(SignalOutcome::Duplicate),
        "a retry at the same endpoint is a duplicate"
    );
    let replayed = facebook(
        deletion,
        "code-b",
        SignalKind::DataDeletionRequested,
        "payload-1",
    );
    assert_eq!(
        repo.apply_signal(replayed.clone()).await,
        Ok(SignalOutcome::PayloadUsedElsewhere)
    );
    assert_eq!(repo.keep_receipt(replayed.receipt.clone()).await, Ok(None));
    assert_eq!(
        repo.find_receipt(deletion, &replayed.receipt.id).await,
        Ok(None),
        "nothing kept"
    );
    let kinds: Vec<_> = repo.list_events(bea, 10).await.unwrap();
    assert!(
        kinds
            .iter()
            .all(|event| event.kind != AuditEventType::ProviderDataDeletionRequested),
        "the link was not removed"
    );
    let other = facebook(
        deletion,
        "code-c",
        SignalKind::DataDeletionRequested,
        "payload-2",
    );
    assert!(matches!(
        repo.apply_signal(other).await,
        Ok(SignalOutcome::Applied { .. })
    ));
}

pub async fn of_one_payload_posted_to_both_endpoints_at_once_exactly_one_acts(
    repo: Arc<dyn Repository>,
) {
    bea_on_facebook(&repo).await;
    let outcomes = all_at_once(&repo, |index| {
        if index % 2 == 0 {
            let source = SignalSource::FacebookDeauthorize;
            facebook(source, "code-d", SignalKind::ConsentRevoked, "payload-race")
        } else {
            let (source, kind) = (
                SignalSource::FacebookDataDeletion,
                SignalKind::DataDeletionRequested,
            );
            facebook(source, "code-e", kind, "payload-race")
        }
    })
    .await;
    let applied = outcomes.iter().filter(|o| acted(o)).count();
    assert_eq!(applied, 1, "{outcomes:?}");
}

/// The outcomes of six deliveries of `command(index)` let go at once, as six callers (or
/// instances) would.
async fn all_at_once(
    repo: &Arc<dyn Repository>,
    command: impl Fn(usize) -> SignalCommand,
) -> Vec<SignalOutcome> {
    let barrier = Arc::new(tokio::sync::Barrier::new(6));
    let deliveries: Vec<_> = (0..6)
        .map(|index| {
            let (repo, barrier, command) = (repo.clone(), barrier.clone(), command(index));
            tokio::spawn(async move {
                barrier.wait().await;
                repo.apply_signal(command).await
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for delivery in deliveries {
        outcomes.push(delivery.await.unwrap().unwrap());
    }
    outcomes
}

fn acted(outcome: &SignalOutcome) -> bool {
    matches!(outcome, SignalOutcome::Applied { .. })
}
