//! Adding links, refreshing their tokens, and the cascade when a user goes.

use super::Repository;
use super::fixtures::store_user;
use super::fixtures::{add_link, new_link, new_user, now, store_user_with_link};
use social_login_domain::SealedTokens;
use social_login_domain::{AuditEventType, ProviderKey, Scopes, SealedToken, UserId};
use social_login_ports::AddLinkError;
use social_login_ports::LinkRenewal;
use std::sync::Arc;
use time::Duration;

pub async fn a_provider_account_links_to_only_one_user(repo: Arc<dyn Repository>) {
    let github = (ProviderKey::GITHUB, "42");
    store_user_with_link(&*repo, "ada@example.com", false, github).await;
    let grace = new_user(Some("grace@example.com"), true);
    store_user(repo.as_ref(), &grace, None).await;

    let stolen = new_link(grace.id, ProviderKey::GITHUB, "42");
    assert_eq!(
        add_link(&*repo, stolen).await,
        Err(AddLinkError::ProviderAlreadyLinked)
    );
    assert!(repo.list_links(grace.id).await.unwrap().is_empty());
}

pub async fn a_user_links_each_provider_once(repo: Arc<dyn Repository>) {
    let github = (ProviderKey::GITHUB, "42");
    let ada = store_user_with_link(&*repo, "ada@example.com", false, github).await;

    let second_github = new_link(ada.id, ProviderKey::GITHUB, "43");
    assert_eq!(
        add_link(&*repo, second_github).await,
        Err(AddLinkError::ProviderAlreadyLinked)
    );
    assert_eq!(repo.list_links(ada.id).await.unwrap().len(), 1);
}

pub async fn linking_to_a_missing_user_is_user_not_found(repo: Arc<dyn Repository>) {
    let orphan = new_link(UserId::new(), ProviderKey::DISCORD, "9");
    assert_eq!(
        add_link(&*repo, orphan).await,
        Err(AddLinkError::UserNotFound)
    );
}

pub async fn added_links_are_listed_oldest_first(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), false);
    store_user(repo.as_ref(), &ada, None).await;
    // Added newest first, with sub-second times: SQLite's text timestamps of
    // different widths would sort these wrongly.
    let mut expected = Vec::new();
    for (offset_ms, provider) in [
        (1500, ProviderKey::APPLE),
        (1000, ProviderKey::GOOGLE),
        (250, ProviderKey::GITHUB),
    ] {
        let mut link = new_link(ada.id, provider, "s");
        link.created_at = now() + Duration::milliseconds(offset_ms);
        let added = add_link(&*repo, link).await.unwrap();
        expected.insert(0, added);
    }
    assert_eq!(repo.list_links(ada.id).await.unwrap(), expected);
}

pub async fn a_renewed_link_keeps_its_new_tokens_and_a_removed_one_renews_nothing(
    repo: Arc<dyn Repository>,
) {
    let ada =
        store_user_with_link(&*repo, "ada@example.com", true, (ProviderKey::GITHUB, "42")).await;
    let link = repo.list_links(ada.id).await.unwrap()[0].clone();
    let renewal = |email: &str| LinkRenewal {
        user: ada.id,
        provider: ProviderKey::GITHUB,
        link: link.id,
        email: Some(super::fixtures::email(email)),
        tokens: SealedTokens {
            access_token: SealedToken::new("sealed-renewed"),
            refresh_token: None,
            scopes: Scopes::from_words(["repo"]),
            access_expires_at: None,
            client_id: None,
        },
        at: now(),
        audit: crate::audit_now(),
    };

    assert_eq!(repo.renew_link(renewal("ada@new.example")).await, Ok(true));

    let renewed = repo.list_links(ada.id).await.unwrap();
    assert_eq!(
        renewed[0].email,
        Some(super::fixtures::email("ada@new.example"))
    );
    let kinds = super::fixtures::event_kinds(&*repo, ada.id).await;
    assert_eq!(kinds[0], AuditEventType::ProviderTokenRefreshed);
    let grant = super::fixtures::remove_link(&*repo, ada.id, ProviderKey::GITHUB)
        .await
        .unwrap();
    assert_eq!(grant.access_token.as_str(), "sealed-renewed");
    assert!(
        grant.refresh_token.is_some(),
        "no new refresh token keeps the stored one"
    );

    assert_eq!(
        repo.renew_link(renewal("ada@later.example")).await,
        Ok(false)
    );
    let kinds = super::fixtures::event_kinds(&*repo, ada.id).await;
    assert_ne!(
        kinds[0],
        AuditEventType::ProviderTokenRefreshed,
        "nothing written"
    );
}
