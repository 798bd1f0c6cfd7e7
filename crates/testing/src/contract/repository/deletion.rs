//! Deleting a user: all of it in one step, the grants handed back for revocation, the
//! `user.deleted` event kept.

use super::Repository;
use super::fixtures::store_user;
use super::fixtures::{
    add_link, deletion, new_link, new_user, refresh_works, store_token, token_hash, user_by_email,
};
use crate::audit_now;
use social_login_domain::{AuditEventType, ProviderKey, SealedToken, UserId};
use social_login_ports::LinkRemoval;
use std::sync::Arc;

pub async fn deleting_a_user_takes_its_links_and_sessions_and_hands_back_its_grants(
    repo: Arc<dyn Repository>,
) {
    let ada = new_user(Some("ada@example.com"), true);
    let github = new_link(ada.id, ProviderKey::GITHUB, "gh-1");
    store_user(repo.as_ref(), &ada, Some(github)).await;
    let mut google = new_link(ada.id, ProviderKey::GOOGLE, "g-1");
    google.tokens.refresh_token = None;
    add_link(&*repo, google).await.unwrap();
    store_token(&*repo, ada.id, token_hash(1)).await;
    let grace = new_user(Some("grace@example.com"), true);
    store_user(repo.as_ref(), &grace, None).await;
    store_token(&*repo, grace.id, token_hash(2)).await;

    let mut grants = repo.delete_user(deletion(ada.id)).await.unwrap().unwrap();
    grants.sort_by_key(|grant| grant.provider);
    assert_eq!(grants.len(), 2);
    assert_eq!(grants[0].provider, ProviderKey::GITHUB);
    assert_eq!(grants[0].access_token, SealedToken::new("k1:sealed-access"));
    assert_eq!(
        grants[0].refresh_token,
        Some(SealedToken::new("k1:sealed-refresh"))
    );
    assert_eq!(
        (grants[1].provider, grants[1].refresh_token.clone()),
        (ProviderKey::GOOGLE, None)
    );

    assert_eq!(repo.find_user(ada.id).await.unwrap(), None);
    assert!(repo.list_links(ada.id).await.unwrap().is_empty());
    assert!(
        !refresh_works(&*repo, token_hash(1)).await,
        "its sessions are gone"
    );
    assert!(
        user_by_email(&*repo, "ada@example.com").await.is_none(),
        "the address is free again"
    );
    let events = repo.list_events(ada.id, 10).await.unwrap();
    assert_eq!(events[0].kind, AuditEventType::UserDeleted);

    // Another user is untouched.
    assert!(repo.find_user(grace.id).await.unwrap().is_some());
    assert!(refresh_works(&*repo, token_hash(2)).await);
}

pub async fn deleting_an_unknown_user_is_none_and_records_nothing(repo: Arc<dyn Repository>) {
    let nobody = UserId::new();
    assert_eq!(repo.delete_user(deletion(nobody)).await.unwrap(), None);
    assert!(repo.list_events(nobody, 10).await.unwrap().is_empty());
}

pub async fn removing_a_link_hands_back_its_sealed_grant(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    store_user(repo.as_ref(), &ada, None).await;
    let discord = new_link(ada.id, ProviderKey::DISCORD, "d-1");
    add_link(&*repo, discord).await.unwrap();
    let grant = repo
        .remove_link(LinkRemoval {
            user: ada.id,
            provider: ProviderKey::DISCORD,
            usable: ProviderKey::BUILT_IN.to_vec(),
            audit: audit_now(),
        })
        .await
        .unwrap();
    assert_eq!(grant.provider, ProviderKey::DISCORD);
    assert_eq!(grant.access_token, SealedToken::new("k1:sealed-access"));
    assert_eq!(
        grant.refresh_token,
        Some(SealedToken::new("k1:sealed-refresh"))
    );
}
