//! Audit events (written with the change they record, or not at all) and what they queue
//! for the webhooks (only the subscribed types; the outbox's own rules: `outbox`).

use super::Repository;
use super::fixtures::creation;
use super::fixtures::{
    auto_linking_login_of, event_kinds, login_of, logout_with, new_link, new_user, now,
    provider_identity, sign_in, start_session, store_token,
};
use crate::audit_at;
use social_login_domain::{
    AuditContext, AuditEventType, EventSet, EventsView, Origin, ProviderKey, UserEvents, UserId,
};
use social_login_ports::AccountLink;
use social_login_ports::{Claim, LinkRemoval, RefreshRotation, RemoveLinkError, SignInError};
use std::sync::Arc;
use time::Duration;

/// An audit context `seconds` after the fixtures' `now`, from 203.0.113.7.
fn audit(seconds: i64, outbox: EventSet) -> AuditContext {
    let mut audit = audit_at(now() + Duration::seconds(seconds), outbox);
    audit.origin = Origin::new(
        Some("203.0.113.7".parse().unwrap()),
        Some("contract-test/1"),
        Some("req-1"),
    );
    audit
}

pub async fn each_write_records_its_event_and_the_list_is_newest_first(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    repo.create_user(creation(ada.clone(), None, audit(1, EventSet::NONE)))
        .await
        .unwrap();
    let hash = super::fixtures::random_hash();
    let session = super::fixtures::session(hash, now() + Duration::days(30));
    start_session(&*repo, ada.id, session, audit(2, EventSet::NONE)).await;
    repo.add_link(AccountLink {
        link: new_link(ada.id, ProviderKey::GITHUB, "gh-1"),
        audit: audit(3, EventSet::NONE),
    })
    .await
    .unwrap();
    repo.remove_link(LinkRemoval {
        user: ada.id,
        provider: ProviderKey::GITHUB,
        usable: ProviderKey::BUILT_IN.to_vec(),
        audit: audit(4, EventSet::NONE),
    })
    .await
    .unwrap();
    logout_with(&*repo, hash, audit(5, EventSet::NONE))
        .await
        .unwrap();

    let events = repo.list_events(ada.id, 100).await.unwrap();
    let listed: Vec<_> = events.iter().map(|e| (e.kind, e.provider)).collect();
    assert_eq!(
        listed,
        [
            (AuditEventType::SessionLogout, None),
            (AuditEventType::AccountUnlinked, Some(ProviderKey::GITHUB)),
            (AuditEventType::AccountLinked, Some(ProviderKey::GITHUB)),
            (AuditEventType::UserLogin, None),
            (AuditEventType::UserRegistered, None),
        ]
    );
    let origin = &events[0].origin;
    assert_eq!(origin.ip, Some("203.0.113.7".parse().unwrap()));
    assert_eq!(origin.user_agent(), Some("contract-test/1"));
    assert_eq!(origin.request_id(), Some("req-1"));
    assert!(events.iter().all(|event| event.user_id == ada.id));
    assert_eq!(repo.list_events(ada.id, 2).await.unwrap().len(), 2);
    assert!(
        repo.list_events(UserId::new(), 100)
            .await
            .unwrap()
            .is_empty()
    );
}

pub async fn the_users_own_view_leaves_support_reads_out_before_its_limit(
    repo: Arc<dyn Repository>,
) {
    let ada = new_user(Some("ada@example.com"), true);
    repo.create_user(creation(ada.clone(), None, audit(1, EventSet::NONE)))
        .await
        .unwrap();
    // Newer than the user's own event: three reads of their data by support.
    for second in 2..5 {
        let read = audit(second, EventSet::NONE).event(0, AuditEventType::AdminRead, ada.id, None);
        repo.record_event(read, EventSet::NONE).await.unwrap();
    }
    let own = UserEvents {
        user: ada.id,
        limit: 1,
        view: EventsView::Own,
    };
    let own = repo.events_of(own).await.unwrap();
    let kinds: Vec<_> = own.iter().map(|event| event.kind).collect();
    assert_eq!(kinds, [AuditEventType::UserRegistered]);
    assert_eq!(repo.list_events(ada.id, 10).await.unwrap().len(), 4);
}

pub async fn a_refused_write_records_no_event(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), false);
    let link = new_link(ada.id, ProviderKey::GITHUB, "gh-1");
    repo.create_user(creation(ada.clone(), Some(link), audit(1, EventSet::all())))
        .await
        .unwrap();
    let before = event_kinds(&*repo, ada.id).await;
    assert_eq!(before, [AuditEventType::UserRegistered]);

    let twin = new_user(Some("ADA@example.com"), true);
    assert!(
        repo.create_user(creation(twin.clone(), None, audit(2, EventSet::all())))
            .await
            .is_err()
    );
    let last_link = repo
        .remove_link(LinkRemoval {
            user: ada.id,
            provider: ProviderKey::GITHUB,
            usable: ProviderKey::BUILT_IN.to_vec(),
            audit: audit(3, EventSet::all()),
        })
        .await;
    assert!(matches!(last_link, Err(RemoveLinkError::Refused(_))));
    let mut squatter = login_of(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    squatter.audit = audit(4, EventSet::all());
    assert!(matches!(
        repo.sign_in_with_provider(squatter).await,
        Err(SignInError::EmailAlreadyRegistered(_))
    ));

    assert_eq!(event_kinds(&*repo, ada.id).await, before);
    assert!(event_kinds(&*repo, twin.id).await.is_empty());
    // What was refused queued nothing either: only the registration waits.
    let claimed = repo
        .claim_due(
            Claim::new(now() + Duration::minutes(1), Duration::seconds(30)),
            8,
        )
        .await
        .unwrap();
    let kinds: Vec<_> = claimed.iter().map(|pending| pending.event.kind).collect();
    assert_eq!(
        kinds,
        [AuditEventType::UserRegistered],
        "the registration alone"
    );
}

pub async fn a_provider_login_records_its_decision_then_the_login(repo: Arc<dyn Repository>) {
    let identity = provider_identity(ProviderKey::GOOGLE, "g-7", Some("grace@example.com"), true);
    let mut first = sign_in(identity.clone());
    first.audit = audit(1, EventSet::NONE);
    let grace = repo.sign_in_with_provider(first).await.unwrap().user.id;
    let mut again = sign_in(identity);
    again.audit = audit(2, EventSet::NONE);
    repo.sign_in_with_provider(again).await.unwrap();

    let events = repo.list_events(grace, 100).await.unwrap();
    let listed: Vec<_> = events.iter().map(|e| (e.kind, e.provider)).collect();
    let google = Some(ProviderKey::GOOGLE);
    assert_eq!(
        listed,
        [
            (AuditEventType::UserLogin, google),
            (AuditEventType::UserLogin, google),
            (AuditEventType::UserRegistered, google),
        ]
    );

    // Auto-linking to the email's owner records the link, then the login.
    let mut linking =
        auto_linking_login_of(ProviderKey::GITHUB, "gh-7", Some("grace@example.com"), true);
    linking.audit = audit(3, EventSet::NONE);
    repo.sign_in_with_provider(linking).await.unwrap();
    let latest: Vec<_> = repo.list_events(grace, 2).await.unwrap();
    let latest: Vec<_> = latest.iter().map(|e| (e.kind, e.provider)).collect();
    let github = Some(ProviderKey::GITHUB);
    assert_eq!(
        latest,
        [
            (AuditEventType::UserLogin, github),
            (AuditEventType::AccountLinked, github)
        ]
    );
}

pub async fn reuse_detection_is_recorded_and_a_second_logout_is_not(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    repo.create_user(creation(ada.clone(), None, audit(0, EventSet::NONE)))
        .await
        .unwrap();
    let first = super::fixtures::token_hash(1);
    store_token(&*repo, ada.id, first).await;
    let successor = super::fixtures::token_hash(2);
    let rotation = |successor, context| RefreshRotation {
        presented: first.into(),
        successor,
        now: now(),
        successor_ttl: Duration::days(1),
        audit: context,
    };
    repo.rotate_refresh(rotation(successor, audit(1, EventSet::NONE)))
        .await
        .unwrap();
    assert!(
        repo.rotate_refresh(rotation(
            super::fixtures::token_hash(3),
            audit(2, EventSet::NONE)
        ))
        .await
        .is_err()
    );
    logout_with(&*repo, successor, audit(3, EventSet::NONE))
        .await
        .unwrap();
    logout_with(&*repo, successor, audit(4, EventSet::NONE))
        .await
        .unwrap();

    let listed = event_kinds(&*repo, ada.id).await;
    assert!(listed.contains(&AuditEventType::SessionRefreshReuseDetected));
    assert!(
        !listed.contains(&AuditEventType::SessionLogout),
        "the family was revoked already: logging out of it again records nothing"
    );
}

pub async fn the_outbox_holds_only_subscribed_types_and_hands_out_the_oldest_due_first(
    repo: Arc<dyn Repository>,
) {
    let wanted: EventSet = [
        AuditEventType::UserRegistered,
        AuditEventType::AccountLinked,
    ]
    .into_iter()
    .collect();
    let ada = new_user(Some("ada@example.com"), true);
    repo.create_user(creation(ada.clone(), None, audit(1, wanted)))
        .await
        .unwrap();
    store_token(&*repo, ada.id, super::fixtures::token_hash(1)).await;
    repo.add_link(AccountLink {
        link: new_link(ada.id, ProviderKey::GITHUB, "gh-1"),
        audit: audit(2, wanted),
    })
    .await
    .unwrap();
    let lease = Duration::seconds(30);
    let at = now() + Duration::seconds(10);

    let first = repo.claim_due(Claim::new(at, lease), 1).await.unwrap();
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].event.kind, AuditEventType::UserRegistered);
    assert_eq!(first[0].attempts, 0, "a claim is no attempt");
    assert_eq!(
        first[0].event.origin.ip,
        Some("203.0.113.7".parse().unwrap())
    );
    let next = repo.claim_due(Claim::new(at, lease), 8).await.unwrap();
    let kinds: Vec<_> = next.iter().map(|pending| pending.event.kind).collect();
    assert_eq!(
        kinds,
        [AuditEventType::AccountLinked],
        "a claimed event holds back nothing; the login was not subscribed"
    );
    assert!(
        repo.claim_due(Claim::new(at, lease), 8)
            .await
            .unwrap()
            .is_empty()
    );
}

pub async fn pruning_deletes_only_events_older_than_the_bound(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    repo.create_user(creation(ada.clone(), None, audit(0, EventSet::NONE)))
        .await
        .unwrap();
    for seconds in [10, 20, 30] {
        let session =
            super::fixtures::session(super::fixtures::random_hash(), now() + Duration::days(30));
        start_session(&*repo, ada.id, session, audit(seconds, EventSet::NONE)).await;
    }
    let bound = now() + Duration::seconds(15);
    assert_eq!(repo.prune_events(bound, 100).await.unwrap(), 2);
    assert_eq!(repo.prune_events(bound, 100).await.unwrap(), 0);
    let kept = repo.list_events(ada.id, 100).await.unwrap();
    assert_eq!(kept.len(), 2);
    assert!(kept.iter().all(|event| event.created_at > bound));
    // At most `limit` at a time.
    let later = now() + Duration::minutes(1);
    assert_eq!(repo.prune_events(later, 1).await.unwrap(), 1);
    assert_eq!(repo.list_events(ada.id, 100).await.unwrap().len(), 1);
}

pub async fn pruning_keeps_the_events_the_webhook_outbox_still_holds(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    let queued = audit(0, EventSet::all());
    repo.create_user(creation(ada.clone(), None, queued))
        .await
        .unwrap();
    let session =
        super::fixtures::session(super::fixtures::random_hash(), now() + Duration::days(30));
    start_session(&*repo, ada.id, session, audit(1, EventSet::NONE)).await;
    let later = now() + Duration::minutes(1);
    assert_eq!(
        repo.prune_events(later, 100).await.unwrap(),
        1,
        "only the event no webhook waits for"
    );
    let kept = repo.list_events(ada.id, 100).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].kind, AuditEventType::UserRegistered);
    // Delivered (its outbox row gone): now it goes.
    repo.remove(kept[0].id, None).await.unwrap();
    assert_eq!(repo.prune_events(later, 100).await.unwrap(), 1);
    assert!(repo.list_events(ada.id, 100).await.unwrap().is_empty());
}

pub async fn how_an_event_came_about_is_kept_with_it(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    repo.create_user(creation(ada.clone(), None, audit(1, EventSet::NONE)))
        .await
        .unwrap();
    let ada = ada.id;
    let audit = crate::audit_now();
    let origin = audit
        .origin
        .clone()
        .via(social_login_domain::Via::LinkToken);
    let mut event = audit.event(1, AuditEventType::AccountLinked, ada, None);
    event.origin = origin;
    repo.record_event(event.clone(), social_login_domain::EventSet::NONE)
        .await
        .unwrap();
    let listed = repo.list_events(ada, 10).await.unwrap();
    let kept = listed
        .iter()
        .find(|kept| kept.id == event.id)
        .expect("kept");
    assert_eq!(kept.origin.how(), Some(social_login_domain::Via::LinkToken));
}
