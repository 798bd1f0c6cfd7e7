//! The audit events each use case records, where the request came from, and which of them
//! wait for the webhook (the delivery itself: `webhooks`).

use crate::world::{World, ada_on_github, github_login};
use social_login_app::AuthPolicy;
use social_login_app::webhooks::LEASE;
use social_login_domain::{AuditEvent, AuditEventType, Origin, ProviderKey};
use social_login_ports::{Claim, Clock, WebhookOutbox};
use time::Duration;

fn origin() -> Origin {
    Origin::new(
        Some("198.51.100.4".parse().unwrap()),
        Some("Mozilla/5.0"),
        Some("req-42"),
    )
}

fn kinds(events: &[AuditEvent]) -> Vec<AuditEventType> {
    events.iter().map(|event| event.kind).collect()
}

#[tokio::test]
async fn every_account_change_is_an_event_of_the_caller_newest_first() {
    let world = World::new();
    let ada = world
        .service
        .register(
            social_login_app::Registration {
                email: "ada@example.com".into(),
                password: social_login_domain::SecretText::new("correct horse battery staple"),
                full_name: None,
            },
            &origin(),
        )
        .await
        .unwrap();
    let me = ada.user.id;
    world.clock.advance(Duration::seconds(1));
    world.link(me, ada_on_github()).await;
    world.clock.advance(Duration::seconds(1));
    world
        .service
        .disconnect(
            me,
            world.service.provider_of(ProviderKey::GITHUB).unwrap(),
            &origin(),
        )
        .await
        .unwrap();
    world.clock.advance(Duration::seconds(1));
    world
        .service
        .logout(ada.refresh_token.expose(), &origin())
        .await
        .unwrap();

    let events = world.service.events(me).await.unwrap();
    assert_eq!(
        kinds(&events),
        [
            AuditEventType::SessionLogout,
            AuditEventType::AccountUnlinked,
            AuditEventType::AccountLinked,
            AuditEventType::UserLogin,
            AuditEventType::UserRegistered,
        ]
    );
    let unlinked = &events[1];
    assert_eq!(unlinked.provider, Some(ProviderKey::GITHUB));
    assert_eq!(unlinked.origin, origin());
    assert_eq!(
        unlinked.created_at,
        world.clock.now() - Duration::seconds(1)
    );
    let ids: std::collections::HashSet<_> = events.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), events.len(), "every event has its own id");
}

#[tokio::test]
async fn a_provider_registration_is_two_events_in_order_and_a_reuse_is_one() {
    let (world, login) = World::signed_in(github_login("gh-9", "grace@example.com")).await;
    let grace = login.user.id;
    let rotated = world
        .service
        .refresh(login.refresh_token.expose(), &origin())
        .await
        .unwrap();
    assert!(rotated.refresh_token.expose() != login.refresh_token.expose());
    assert!(
        world
            .service
            .refresh(login.refresh_token.expose(), &origin())
            .await
            .is_err()
    );
    let events = world.service.events(grace).await.unwrap();
    assert_eq!(
        kinds(&events),
        [
            AuditEventType::SessionRefreshReuseDetected,
            AuditEventType::UserLogin,
            AuditEventType::UserRegistered,
        ],
        "a refresh that works is not an event"
    );
    assert_eq!(events[1].provider, Some(ProviderKey::GITHUB));
}

#[tokio::test]
async fn only_the_subscribed_types_wait_for_the_webhook() {
    let world = World::with_policy(AuthPolicy {
        webhook_events: [AuditEventType::UserRegistered].into_iter().collect(),
        ..AuthPolicy::default()
    });
    world.login_with(ada_on_github()).await;
    world.login_with(ada_on_github()).await;
    let later = world.clock.now() + Duration::minutes(1);
    let queued = world
        .users
        .claim_due(Claim::new(later, LEASE), 8)
        .await
        .unwrap();
    let kinds: Vec<_> = queued.iter().map(|pending| pending.event.kind).collect();
    assert_eq!(kinds, [AuditEventType::UserRegistered]);

    let silent = World::new();
    silent.login_with(ada_on_github()).await;
    assert!(
        silent
            .users
            .claim_due(Claim::new(later, LEASE), 8)
            .await
            .unwrap()
            .is_empty()
    );
}
