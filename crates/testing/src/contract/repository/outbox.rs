//! The webhook outbox: each event on its own schedule, claimed under a lease by one claimant
//! at a time, probed ahead of its turn, dead-lettered (kept, counted, listed, redelivered),
//! and held to a bound.

use super::Repository;
use super::fixtures::now;
use crate::audit_at;
use social_login_domain::{AuditEventId, AuditEventType, EventSet, UserId};
use social_login_ports::{Claim, Failure, OutboxCounts, Sweep};
use std::collections::HashSet;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

const LEASE: Duration = Duration::seconds(30);

/// Queues one login event written `seconds` after the fixtures' `now`; its id.
async fn queue(repo: &Arc<dyn Repository>, seconds: i64) -> AuditEventId {
    queue_of(repo, seconds, AuditEventType::UserLogin).await
}

/// Queues one event of `kind` written `seconds` after the fixtures' `now`; its id.
async fn queue_of(repo: &Arc<dyn Repository>, seconds: i64, kind: AuditEventType) -> AuditEventId {
    let event = audit_at(now() + Duration::seconds(seconds), EventSet::all()).event(
        0,
        kind,
        UserId::new(),
        None,
    );
    let id = event.id;
    repo.record_event(event, EventSet::all()).await.unwrap();
    id
}

/// Queues an event for each of `seconds`, in order (see [`queue`]); their ids.
async fn queue_each<const N: usize>(
    repo: &Arc<dyn Repository>,
    seconds: [i64; N],
) -> [AuditEventId; N] {
    let mut ids = Vec::with_capacity(N);
    for seconds in seconds {
        ids.push(queue(repo, seconds).await);
    }
    ids.try_into().expect("one id per event")
}

async fn claim_ids(repo: &Arc<dyn Repository>, at: OffsetDateTime) -> Vec<AuditEventId> {
    let claimed = repo.claim_due(Claim::new(at, LEASE), 8).await.unwrap();
    claimed.iter().map(|pending| pending.event.id).collect()
}

fn refused(event: AuditEventId, attempts: u32) -> Failure {
    Failure::new(event, attempts, "receiver answered 403")
}

async fn counts(repo: &Arc<dyn Repository>) -> (u64, u64) {
    let OutboxCounts { pending, dead } = repo.counts().await.unwrap();
    (pending, dead)
}

pub async fn a_failed_event_waits_for_its_own_turn_while_the_others_go_out(
    repo: Arc<dyn Repository>,
) {
    let [first, second] = queue_each(&repo, [1, 2]).await;
    let at = now() + Duration::seconds(10);
    assert_eq!(claim_ids(&repo, at).await, [first, second], "oldest first");

    repo.retry_at(refused(first, 1), at + Duration::seconds(5))
        .await
        .unwrap();
    repo.remove(second, None).await.unwrap();
    let third = queue(&repo, 11).await;
    assert_eq!(
        claim_ids(&repo, at + Duration::seconds(4)).await,
        [third],
        "the failed event waits for its turn; a newer one does not wait for it"
    );
    let again = repo
        .claim_due(Claim::new(at + Duration::seconds(5), LEASE), 8)
        .await
        .unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!((again[0].event.id, again[0].attempts), (first, 1));
    assert_eq!(counts(&repo).await, (2, 0));
}

pub async fn a_claim_holds_an_event_until_its_lease_runs_out(repo: Arc<dyn Repository>) {
    let id = queue(&repo, 0).await;
    let at = now() + Duration::seconds(1);
    assert_eq!(claim_ids(&repo, at).await, [id]);
    assert!(
        claim_ids(&repo, at + LEASE - Duration::seconds(1))
            .await
            .is_empty()
    );
    assert!(
        repo.claim_probe(Claim::new(at, LEASE))
            .await
            .unwrap()
            .is_none()
    );
    // The claimant died: the lease runs out and another takes the event over.
    let taken_over = repo
        .claim_due(Claim::new(at + LEASE, LEASE), 8)
        .await
        .unwrap();
    assert_eq!(taken_over.len(), 1);
    assert_eq!((taken_over[0].event.id, taken_over[0].attempts), (id, 0));
}

pub async fn of_concurrent_claims_each_event_goes_to_exactly_one(repo: Arc<dyn Repository>) {
    let mut queued = HashSet::new();
    for seconds in 0..20 {
        queued.insert(queue(&repo, seconds).await);
    }
    let at = now() + Duration::minutes(1);
    let claims: Vec<_> = (0..10)
        .map(|_| {
            let repo = repo.clone();
            tokio::spawn(async move { repo.claim_due(Claim::new(at, LEASE), 3).await.unwrap() })
        })
        .collect();
    let mut claimed = Vec::new();
    for claim in claims {
        claimed.extend(claim.await.unwrap().into_iter().map(|p| p.event.id));
    }
    claimed.extend(claim_ids(&repo, at).await);
    claimed.extend(claim_ids(&repo, at).await);
    claimed.extend(claim_ids(&repo, at).await);
    let distinct: HashSet<_> = claimed.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        claimed.len(),
        "an event was handed out twice"
    );
    assert_eq!(distinct, queued, "every event was handed out");
}

pub async fn a_probe_takes_the_event_whose_turn_comes_first_even_before_it_is_due(
    repo: Arc<dyn Repository>,
) {
    let [later, sooner, dead] = queue_each(&repo, [0, 1, 2]).await;
    let at = now() + Duration::seconds(5);
    repo.retry_at(refused(later, 3), at + Duration::minutes(20))
        .await
        .unwrap();
    repo.retry_at(refused(sooner, 2), at + Duration::minutes(10))
        .await
        .unwrap();
    repo.dead_letter(refused(dead, 20), at).await.unwrap();
    assert!(claim_ids(&repo, at).await.is_empty(), "nothing is due");

    let probe = repo
        .claim_probe(Claim::new(at, LEASE))
        .await
        .unwrap()
        .expect("a probe");
    assert_eq!((probe.event.id, probe.attempts), (sooner, 2));
    let next = repo
        .claim_probe(Claim::new(at, LEASE))
        .await
        .unwrap()
        .expect("a probe");
    assert_eq!(next.event.id, later, "the first is claimed");
    assert_eq!(
        repo.claim_probe(Claim::new(at, LEASE)).await.unwrap(),
        None,
        "a dead letter is never probed"
    );
}

pub async fn a_dead_letter_is_kept_listed_and_never_claimed_until_redelivered(
    repo: Arc<dyn Repository>,
) {
    let [dead, alive] = queue_each(&repo, [0, 1]).await;
    let at = now() + Duration::seconds(10);
    assert_eq!(claim_ids(&repo, at).await, [dead, alive]);
    repo.dead_letter(refused(dead, 20), at).await.unwrap();
    repo.retry_at(refused(alive, 1), at).await.unwrap();
    // A late failure report changes nothing about a dead letter.
    repo.retry_at(refused(dead, 21), at).await.unwrap();

    let later = at + Duration::hours(1);
    assert_eq!(claim_ids(&repo, later).await, [alive]);
    assert_eq!(counts(&repo).await, (1, 1));
    let listed = repo.dead_letters(10).await.unwrap();
    assert_eq!(listed.len(), 1);
    let letter = &listed[0];
    assert_eq!(letter.event.id, dead);
    assert_eq!(letter.event.kind, AuditEventType::UserLogin);
    assert_eq!(letter.event.created_at, now());
    assert_eq!(letter.attempts, 20);
    assert_eq!(letter.dead_at, at);
    assert_eq!(letter.last_error.as_deref(), Some("receiver answered 403"));

    assert!(!repo.redeliver(alive, later).await.unwrap(), "not dead");
    assert!(!repo.redeliver(AuditEventId::new(), later).await.unwrap());
    assert!(repo.redeliver(dead, later).await.unwrap());
    assert!(!repo.redeliver(dead, later).await.unwrap(), "once");
    assert!(repo.dead_letters(10).await.unwrap().is_empty());
    let back = repo.claim_due(Claim::new(later, LEASE), 8).await.unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!((back[0].event.id, back[0].attempts), (dead, 0));
    assert_eq!(back[0].redelivered_at, Some(later));
    assert_eq!(back[0].queued_at(), later, "its wait starts again");
    assert_eq!(counts(&repo).await, (2, 0));
}

pub async fn a_redelivered_event_counts_its_age_from_its_redelivery(repo: Arc<dyn Repository>) {
    let [one, other] = queue_each(&repo, [0, 1]).await;
    let at = now() + Duration::days(4);
    repo.dead_letter(refused(one, 3), at).await.unwrap();
    repo.dead_letter(refused(other, 3), at).await.unwrap();
    let redelivered = at + Duration::hours(1);
    assert!(repo.redeliver(one, redelivered).await.unwrap());
    assert_eq!(repo.redeliver_dead(redelivered, 10).await.unwrap(), 1);

    // Written long before the bound, redelivered after it: not swept.
    let reason = "not delivered within 3 days";
    let sweep = Sweep::new(redelivered + Duration::minutes(1), reason, 100);
    let bound = redelivered - Duration::minutes(1);
    assert_eq!(
        repo.dead_letter_written_before(bound, sweep).await.unwrap(),
        0
    );
    assert_eq!(counts(&repo).await, (2, 0));
    // Three days after the redelivery, they are.
    let bound = redelivered + Duration::minutes(1);
    assert_eq!(
        repo.dead_letter_written_before(bound, sweep).await.unwrap(),
        2
    );
    assert_eq!(counts(&repo).await, (0, 2));
}

pub async fn events_written_before_the_bound_become_dead_letters_unless_claimed(
    repo: Arc<dyn Repository>,
) {
    let [claimed, old, fresh] = queue_each(&repo, [0, 1, 3]).await;
    let at = now() + Duration::seconds(1);
    let first = repo.claim_due(Claim::new(at, LEASE), 1).await.unwrap();
    assert_eq!(first[0].event.id, claimed);
    repo.retry_at(refused(old, 2), at).await.unwrap();

    let bound = now() + Duration::seconds(2);
    let reason = "not delivered within 3 days";
    let buried = repo
        .dead_letter_written_before(bound, Sweep::new(at, reason, 100))
        .await
        .unwrap();
    assert_eq!(buried, 1, "the claimed one is being delivered right now");
    let listed = repo.dead_letters(10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].event.id, old);
    assert_eq!(
        listed[0].last_error.as_deref(),
        Some("receiver answered 403"),
        "the last error is kept"
    );
    assert_eq!(
        repo.dead_letter_written_before(bound, Sweep::new(at, reason, 100))
            .await
            .unwrap(),
        0
    );
    let after_lease = at + LEASE;
    assert_eq!(
        repo.dead_letter_written_before(bound, Sweep::new(after_lease, reason, 100))
            .await
            .unwrap(),
        1
    );
    let never_tried = repo.dead_letters(10).await.unwrap();
    let never_tried = never_tried.iter().find(|l| l.event.id == claimed).unwrap();
    assert_eq!(never_tried.last_error.as_deref(), Some(reason));
    assert_eq!(claim_ids(&repo, after_lease).await, [fresh]);
}

pub async fn the_outbox_keeps_its_newest_pending_events_within_the_bound(
    repo: Arc<dyn Repository>,
) {
    let ids = queue_each(&repo, [0, 1, 2, 3, 4, 5]).await;
    let at = now() + Duration::minutes(1);
    repo.dead_letter(refused(ids[5], 20), at).await.unwrap();
    assert_eq!(counts(&repo).await, (5, 1));

    let buried = repo
        .dead_letter_beyond(2, Sweep::new(at, "outbox full", 2))
        .await
        .unwrap();
    assert_eq!(buried, 2, "at most the limit at a time");
    let buried = repo
        .dead_letter_beyond(2, Sweep::new(at, "outbox full", 100))
        .await
        .unwrap();
    assert_eq!(buried, 1);
    assert_eq!(counts(&repo).await, (2, 4));
    assert_eq!(
        claim_ids(&repo, at).await,
        [ids[3], ids[4]],
        "the newest stay"
    );
    let listed = repo.dead_letters(10).await.unwrap();
    let full: Vec<_> = listed
        .iter()
        .filter(|l| l.last_error.as_deref() == Some("outbox full"))
        .map(|l| l.event.id)
        .collect();
    assert_eq!(full.len(), 3);
    assert!(full.iter().all(|id| ids[..3].contains(id)));
    assert_eq!(
        repo.dead_letter_beyond(2, Sweep::new(at, "outbox full", 100))
            .await
            .unwrap(),
        0
    );
}

pub async fn a_full_outbox_never_pushes_out_a_deletion_or_a_lock(repo: Arc<dyn Repository>) {
    let locked = queue_of(&repo, 0, AuditEventType::UserLocked).await;
    let deleted = queue_of(&repo, 1, AuditEventType::UserDeleted).await;
    let logins = queue_each(&repo, [2, 3, 4]).await;
    let at = now() + Duration::minutes(1);
    let buried = repo
        .dead_letter_beyond(1, Sweep::new(at, "outbox full", 100))
        .await
        .unwrap();
    assert_eq!(buried, 2, "the two oldest logins");
    let pending: HashSet<AuditEventId> = claim_ids(&repo, at).await.into_iter().collect();
    assert_eq!(pending, HashSet::from([locked, deleted, logins[2]]));
}

pub async fn every_dead_letter_is_redelivered_in_batches(repo: Arc<dyn Repository>) {
    let at = now() + Duration::minutes(1);
    for seconds in 0..3 {
        let id = queue(&repo, seconds).await;
        repo.dead_letter(refused(id, 20), at).await.unwrap();
    }
    queue(&repo, 4).await;
    assert_eq!(repo.redeliver_dead(at, 2).await.unwrap(), 2);
    assert_eq!(repo.redeliver_dead(at, 2).await.unwrap(), 1);
    assert_eq!(repo.redeliver_dead(at, 2).await.unwrap(), 0);
    assert_eq!(counts(&repo).await, (4, 0));
    let back = repo.claim_due(Claim::new(at, LEASE), 8).await.unwrap();
    assert_eq!(back.len(), 4);
    assert!(back.iter().all(|pending| pending.attempts == 0));
}

pub async fn rows_of_events_written_before_the_bound_are_forgotten(repo: Arc<dyn Repository>) {
    let at = now() + Duration::minutes(1);
    let old_dead = queue(&repo, 0).await;
    repo.dead_letter(refused(old_dead, 20), at).await.unwrap();
    queue(&repo, 1).await;
    let kept = queue(&repo, 5).await;
    let bound = now() + Duration::seconds(3);
    assert_eq!(repo.forget_written_before(bound, 1).await.unwrap(), 1);
    assert_eq!(repo.forget_written_before(bound, 100).await.unwrap(), 1);
    assert_eq!(repo.forget_written_before(bound, 100).await.unwrap(), 0);
    assert_eq!(counts(&repo).await, (1, 0));
    assert_eq!(claim_ids(&repo, at).await, [kept]);
}

pub async fn one_probe_turn_is_taken_per_period_however_many_ask_at_once(
    repo: Arc<dyn Repository>,
) {
    let period = Duration::seconds(5);
    let at = now();
    let takers: Vec<_> = (0..8)
        .map(|_| {
            let repo = repo.clone();
            tokio::spawn(async move { repo.take_probe_turn(at, at + period).await.unwrap() })
        })
        .collect();
    let mut taken = 0;
    for taker in takers {
        taken += usize::from(taker.await.unwrap());
    }
    assert_eq!(taken, 1, "instances asking at once: one probes");
    let later = at + period - Duration::milliseconds(1);
    assert!(!repo.take_probe_turn(later, later + period).await.unwrap());
    let next = at + period;
    assert!(repo.take_probe_turn(next, next + period).await.unwrap());
}

pub async fn dead_letters_beyond_the_bound_are_forgotten_the_first_to_die_first(
    repo: Arc<dyn Repository>,
) {
    let ids = queue_each(&repo, [0, 1, 2, 3, 4]).await;
    let at = now() + Duration::seconds(10);
    assert_eq!(claim_ids(&repo, at).await, ids);
    // They die in another order than they were written: the third first.
    for (minute, id) in [ids[2], ids[0], ids[4], ids[1], ids[3]]
        .into_iter()
        .enumerate()
    {
        let died = at + Duration::minutes(minute as i64);
        repo.dead_letter(refused(id, 20), died).await.unwrap();
    }
    assert_eq!(
        repo.forget_dead_beyond(2, 2).await.unwrap(),
        2,
        "at most the limit"
    );
    assert_eq!(repo.forget_dead_beyond(2, 10).await.unwrap(), 1);
    assert_eq!(repo.forget_dead_beyond(2, 10).await.unwrap(), 0);
    let kept: HashSet<AuditEventId> = (repo.dead_letters(10).await.unwrap().iter())
        .map(|letter| letter.event.id)
        .collect();
    assert_eq!(
        kept,
        HashSet::from([ids[1], ids[3]]),
        "the two that died last"
    );
    assert_eq!(counts(&repo).await, (0, 2));
}

pub async fn an_attempt_that_outlived_its_claim_changes_nothing_the_next_claimant_holds(
    repo: Arc<dyn Repository>,
) {
    let id = queue(&repo, 0).await;
    let at = now() + Duration::seconds(10);
    let first = repo.claim_due(Claim::new(at, LEASE), 1).await.unwrap();
    // The first attempt stalls past its lease; another instance takes the event over.
    let later = at + LEASE + Duration::seconds(1);
    let second = repo.claim_due(Claim::new(later, LEASE), 1).await.unwrap();
    assert_eq!((first.len(), second.len()), (1, 1));
    let stale = refused(id, 1).under_claim(first[0].claimed_until);
    repo.retry_at(stale.clone(), later + Duration::hours(1))
        .await
        .unwrap();
    repo.dead_letter(stale, later).await.unwrap();
    repo.remove(id, Some(first[0].claimed_until)).await.unwrap();
    assert_eq!(
        counts(&repo).await,
        (1, 0),
        "still pending, not dead, not gone"
    );
    assert!(
        claim_ids(&repo, later).await.is_empty(),
        "still held by the second claim"
    );

    // The holder's own outcome is written.
    repo.remove(id, Some(second[0].claimed_until))
        .await
        .unwrap();
    assert_eq!(counts(&repo).await, (0, 0));
}
