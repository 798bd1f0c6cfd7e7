//! Removing links under the last-login-method rule, including two removals at once.

use super::Repository;
use super::fixtures::{
    add_link, new_link, new_user, remove_link, store_user, store_user_with_link,
};
use social_login_domain::disconnect::DisconnectRefused;
use social_login_domain::{ProviderKey, UserId};
use social_login_ports::RemoveLinkError;
use std::sync::Arc;
use tokio::sync::Barrier;

const NOT_LINKED: RemoveLinkError = RemoveLinkError::Refused(DisconnectRefused::NotLinked);
const LAST_WAY_IN: RemoveLinkError = RemoveLinkError::Refused(DisconnectRefused::LastLoginMethod);

pub async fn removing_a_provider_that_is_not_linked_is_not_linked(repo: Arc<dyn Repository>) {
    let github = (ProviderKey::GITHUB, "42");
    let ada = store_user_with_link(&*repo, "ada@example.com", true, github).await;
    let refused = remove_link(&*repo, ada.id, ProviderKey::GOOGLE).await;
    assert_eq!(refused, Err(NOT_LINKED));
    assert_eq!(repo.list_links(ada.id).await.unwrap().len(), 1);
}

pub async fn removing_a_link_of_an_unknown_user_is_not_linked(repo: Arc<dyn Repository>) {
    let refused = remove_link(&*repo, UserId::new(), ProviderKey::GITHUB).await;
    assert_eq!(refused, Err(NOT_LINKED));
}

pub async fn the_last_link_of_a_user_without_password_stays(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), false);
    let link = new_link(ada.id, ProviderKey::GITHUB, "42");
    store_user(repo.as_ref(), &ada, Some(link.clone())).await;
    let refused = remove_link(&*repo, ada.id, ProviderKey::GITHUB).await;
    assert_eq!(refused, Err(LAST_WAY_IN));
    assert_eq!(
        repo.list_links(ada.id).await.unwrap(),
        vec![link.to_linked_account()],
        "a refused removal deletes nothing"
    );
}

pub async fn the_only_link_goes_when_the_user_has_a_password(repo: Arc<dyn Repository>) {
    let github = (ProviderKey::GITHUB, "42");
    let ada = store_user_with_link(&*repo, "ada@example.com", true, github).await;
    remove_link(&*repo, ada.id, ProviderKey::GITHUB)
        .await
        .unwrap();
    assert!(repo.list_links(ada.id).await.unwrap().is_empty());
    assert!(repo.find_user(ada.id).await.unwrap().is_some());
}

pub async fn one_of_two_links_goes_and_the_other_stays(repo: Arc<dyn Repository>) {
    let github = (ProviderKey::GITHUB, "42");
    let ada = store_user_with_link(&*repo, "ada@example.com", false, github).await;
    let google = add_link(&*repo, new_link(ada.id, ProviderKey::GOOGLE, "g-1"))
        .await
        .unwrap();
    remove_link(&*repo, ada.id, ProviderKey::GITHUB)
        .await
        .unwrap();
    assert_eq!(repo.list_links(ada.id).await.unwrap(), vec![google]);
}

pub async fn two_concurrent_removals_of_a_users_two_links_leave_exactly_one(
    repo: Arc<dyn Repository>,
) {
    // Several rounds: a missing lock would let both removals through in most of them.
    for round in 0..8 {
        let email = format!("ada{round}@example.com");
        let github = format!("gh-{round}");
        let ada = store_user_with_link(&*repo, &email, false, (ProviderKey::GITHUB, &github)).await;
        let google = new_link(ada.id, ProviderKey::GOOGLE, &format!("g-{round}"));
        add_link(&*repo, google).await.unwrap();

        let barrier = Arc::new(Barrier::new(2));
        let removal = |provider: ProviderKey| {
            let (repo, barrier): (Arc<dyn Repository>, _) = (repo.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                remove_link(&*repo, ada.id, provider).await
            })
        };
        let github = removal(ProviderKey::GITHUB);
        let google = removal(ProviderKey::GOOGLE);
        let outcomes = [github.await.unwrap(), google.await.unwrap()];

        assert_eq!(
            outcomes.iter().filter(|outcome| outcome.is_ok()).count(),
            1,
            "round {round}: {outcomes:?}"
        );
        assert!(outcomes.contains(&Err(LAST_WAY_IN)));
        assert_eq!(repo.list_links(ada.id).await.unwrap().len(), 1);
    }
}
