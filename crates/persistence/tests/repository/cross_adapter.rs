//! One SQLite file, two adapters: sea-orm writes it in migrations, seeding and existing
//! deployments, rusqlite serves it. Each must read what the other wrote, value for value.

use crate::fixtures::{
    login_of, new_link, new_user, refresh_works, store_token, store_user, token_hash,
};
use crate::harness::{rusqlite_repository, sqlite_repository};
use social_login_domain::{AuditEventType, EventSet, ProviderKey};
use social_login_persistence::{SeaOrmRepository, SqliteRepository};
use social_login_ports::{Claim, UserRepository, WebhookOutbox};
use std::path::Path;

async fn both_on_one_file(dir: &Path) -> (SqliteRepository, SeaOrmRepository) {
    let served = rusqlite_repository(dir).await;
    let tooling = sqlite_repository(dir).await;
    (served, tooling)
}

#[tokio::test]
async fn what_rusqlite_stores_sea_orm_reads_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let (served, tooling) = both_on_one_file(dir.path()).await;
    let mut login = login_of(ProviderKey::GOOGLE, "g-1", Some("Ada@Example.com"), true);
    login.audit = social_login_testing::audit_at(login.now, EventSet::all());
    let session = login.session.hash;
    let signed_in = served.sign_in_with_provider(login).await.unwrap();
    let user = signed_in.user;

    assert_eq!(
        tooling.find_user(user.id).await.unwrap(),
        Some(user.clone())
    );
    let email = user.email.clone().unwrap();
    assert_eq!(
        tooling.find_user_by_email(&email).await.unwrap(),
        Some(user.clone())
    );
    assert_eq!(
        tooling.list_links(user.id).await.unwrap(),
        served.list_links(user.id).await.unwrap()
    );
    assert_eq!(
        tooling.list_events(user.id, 10).await.unwrap(),
        served.list_events(user.id, 10).await.unwrap()
    );
    let queued = tooling
        .claim_due(
            Claim::new(time::OffsetDateTime::now_utc(), time::Duration::minutes(1)),
            8,
        )
        .await
        .unwrap();
    let kinds: Vec<_> = queued.iter().map(|pending| pending.event.kind).collect();
    assert_eq!(
        kinds,
        [AuditEventType::UserRegistered, AuditEventType::UserLogin],
        "the registration and the login were queued for the webhooks"
    );
    assert!(
        queued
            .iter()
            .all(|pending| pending.event.user_id == user.id)
    );
    assert!(
        refresh_works(&tooling, session).await,
        "the session rotates"
    );
}

#[tokio::test]
async fn what_sea_orm_stores_rusqlite_reads_back_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let (served, tooling) = both_on_one_file(dir.path()).await;
    let ada = new_user(Some("ada@example.com"), true);
    let link = new_link(ada.id, ProviderKey::GITHUB, "42");
    let created = store_user(&tooling, &ada, Some(link.clone())).await;
    store_token(&tooling, ada.id, token_hash(7)).await;

    assert_eq!(served.find_user(ada.id).await.unwrap(), Some(created));
    assert_eq!(
        served.find_link(&link.account()).await.unwrap(),
        Some(link.to_linked_account())
    );
    assert_eq!(
        served.list_events(ada.id, 10).await.unwrap(),
        tooling.list_events(ada.id, 10).await.unwrap()
    );
    assert!(
        refresh_works(&served, token_hash(7)).await,
        "the session rotates"
    );
    let returning = served
        .sign_in_with_provider(login_of(
            ProviderKey::GITHUB,
            "42",
            Some("ada@example.com"),
            true,
        ))
        .await
        .unwrap();
    assert!(!returning.is_new_user);
    assert_eq!(returning.user.id, ada.id);
}
