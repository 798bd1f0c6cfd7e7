//! What only a database can show: migrations run again, the cascade when a user row goes,
//! and the columns a returning login rewrites.

use crate::fixtures::{delete_user_row, stored_link_columns};
use crate::harness::{on_every_backend, rusqlite_repository, sqlite_repository};
use social_login_domain::{ProviderKey, SealedToken};
use social_login_persistence::SeaOrmRepository;
use social_login_ports::RotationRefused;
use social_login_ports::{RotateError, UserRepository};
use social_login_testing::contract::repository::Repository;
use social_login_testing::contract::repository::fixtures::{
    login_of, new_link, new_user, refresh, refresh_works, store_token, store_user, token_hash,
};

#[tokio::test]
async fn migrating_again_changes_nothing_and_the_database_answers_pings() {
    on_every_backend(|repo| async move {
        let user = new_user(Some("ada@example.com"), true);
        store_user(&repo, &user, None).await;
        repo.migrate().await.unwrap();
        repo.ping().await.unwrap();
        assert!(repo.find_user(user.id).await.unwrap().is_some());
    })
    .await;
}

#[tokio::test]
async fn deleting_a_user_deletes_its_links_and_refresh_tokens() {
    on_every_backend(|repo| async move {
        let ada = new_user(Some("ada@example.com"), false);
        let link = new_link(ada.id, ProviderKey::GITHUB, "42");
        store_user(&repo, &ada, Some(link.clone())).await;
        store_token(&repo, ada.id, token_hash(1)).await;

        delete_user_row(&repo, ada.id).await;

        assert!(repo.list_links(ada.id).await.unwrap().is_empty());
        assert_eq!(repo.find_link(&link.account()).await.unwrap(), None);
        assert_eq!(
            refresh(&repo, token_hash(1)).await,
            Err(RotateError::Refused(RotationRefused::Invalid)),
            "the refresh token went with its user"
        );
    })
    .await;
}

#[tokio::test]
async fn a_returning_login_replaces_the_tokens_and_keeps_an_old_refresh_token_when_none_came() {
    on_every_backend(|repo| async move { returning_login_columns(&repo, &repo).await }).await;
    let dir = tempfile::tempdir().unwrap();
    let served = rusqlite_repository(dir.path()).await;
    returning_login_columns(&served, &sqlite_repository(dir.path()).await).await;
}

/// Two logins of one account through `served`, the link's columns read through `tooling`
/// (the same database).
async fn returning_login_columns(served: &dyn Repository, tooling: &SeaOrmRepository) {
    let first = login_of(ProviderKey::GOOGLE, "g-1", Some("ada@example.com"), true);
    let user = served
        .sign_in_with_provider(first.clone())
        .await
        .unwrap()
        .user;

    let mut again = login_of(
        ProviderKey::GOOGLE,
        "g-1",
        Some("ada@new.example.com"),
        true,
    );
    again.tokens.access_token = SealedToken::new("k1:access-2");
    again.tokens.refresh_token = None;
    let signed_in = served.sign_in_with_provider(again.clone()).await.unwrap();
    assert!(!signed_in.is_new_user);
    assert_eq!(signed_in.user, user);
    assert_eq!(
        stored_link_columns(tooling, first.new_link_id).await,
        (
            Some("ada@new.example.com".to_owned()),
            "k1:access-2".to_owned(),
            Some("k1:refresh".to_owned())
        )
    );
    assert!(
        refresh_works(served, again.session.hash).await,
        "a second session"
    );
    assert!(
        refresh_works(served, first.session.hash).await,
        "the first one lives on"
    );
}
