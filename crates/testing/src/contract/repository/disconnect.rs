//! Removing links under the last-login-method rule, including two removals at once.

use super::Repository;
use super::fixtures::store_user;
use super::fixtures::{new_link, new_user};
use social_login_domain::ProviderKey;
use social_login_domain::disconnect::DisconnectRefused;
use social_login_ports::{LinkRemoval, RemoveLinkError};
use std::sync::Arc;
use tokio::sync::Barrier;

pub async fn removing_a_provider_that_is_not_linked_is_not_linked(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    store_user(
        &*repo,
        &ada,
        Some(new_link(ada.id, ProviderKey::GITHUB, "42")),
    )
    .await;
    assert_eq!(
        repo.remove_link(LinkRemoval {
            user: ada.id,
            provider: ProviderKey::GOOGLE,
            usable: ProviderKey::BUILT_IN.to_vec(),
            audit: crate::audit_now()
        })
        .await,
        Err(RemoveLinkError::Refused(DisconnectRefused::NotLinked))
    );
    assert_eq!(repo.list_links(ada.id).await.unwrap().len(), 1);
}

pub async fn removing_a_link_of_an_unknown_user_is_not_linked(repo: Arc<dyn Repository>) {
    assert_eq!(
        repo.remove_link(LinkRemoval {
            user: social_login_domain::UserId::new(),
            provider: ProviderKey::GITHUB,
            usable: ProviderKey::BUILT_IN.to_vec(),
            audit: crate::audit_now()
        })
        .await,
        Err(RemoveLinkError::Refused(DisconnectRefused::NotLinked))
    );
}

pub async fn the_last_link_of_a_user_without_password_stays(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), false);
    let link = new_link(ada.id, ProviderKey::GITHUB, "42");
    store_user(repo.as_ref(), &ada, Some(link.clone())).await;
    assert_eq!(
        repo.remove_link(LinkRemoval {
            user: ada.id,
            provider: ProviderKey::GITHUB,
            usable: ProviderKey::BUILT_IN.to_vec(),
            audit: crate::audit_now()
        })
        .await,
        Err(RemoveLinkError::Refused(DisconnectRefused::LastLoginMethod))
    );
    assert_eq!(
        repo.list_links(ada.id).await.unwrap(),
        vec![link.to_linked_account()],
        "a refused removal deletes nothing"
    );
}

pub async fn the_only_link_goes_when_the_user_has_a_password(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), true);
    store_user(
        &*repo,
        &ada,
        Some(new_link(ada.id, ProviderKey::GITHUB, "42")),
    )
    .await;
    repo.remove_link(LinkRemoval {
        user: ada.id,
        provider: ProviderKey::GITHUB,
        usable: ProviderKey::BUILT_IN.to_vec(),
        audit: crate::audit_now(),
    })
    .await
    .unwrap();
    assert!(repo.list_links(ada.id).await.unwrap().is_empty());
    assert!(repo.find_user(ada.id).await.unwrap().is_some());
}

pub async fn one_of_two_links_goes_and_the_other_stays(repo: Arc<dyn Repository>) {
    let ada = new_user(Some("ada@example.com"), false);
    store_user(
        &*repo,
        &ada,
        Some(new_link(ada.id, ProviderKey::GITHUB, "42")),
    )
    .await;
    let google = repo
        .add_link(
            new_link(ada.id, ProviderKey::GOOGLE, "g-1"),
            crate::audit_now(),
        )
        .await
        .unwrap();
    repo.remove_link(LinkRemoval {
        user: ada.id,
        provider: ProviderKey::GITHUB,
        usable: ProviderKey::BUILT_IN.to_vec(),
        audit: crate::audit_now(),
    })
    .await
    .unwrap();
    assert_eq!(repo.list_links(ada.id).await.unwrap(), vec![google]);
}

pub async fn two_concurrent_removals_of_a_users_two_links_leave_exactly_one(
    repo: Arc<dyn Repository>,
) {
    // Several rounds: a missing lock would let both removals through in most of them.
    for round in 0..8 {
        let ada = new_user(Some(&format!("ada{round}@example.com")), false);
        store_user(
            &*repo,
            &ada,
            Some(new_link(
                ada.id,
                ProviderKey::GITHUB,
                &format!("gh-{round}"),
            )),
        )
        .await;
        repo.add_link(
            new_link(ada.id, ProviderKey::GOOGLE, &format!("g-{round}")),
            crate::audit_now(),
        )
        .await
        .unwrap();

        let barrier = Arc::new(Barrier::new(2));
        let removal = |provider: ProviderKey| {
            let (repo, barrier): (Arc<dyn Repository>, _) = (repo.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                repo.remove_link(LinkRemoval {
                    user: ada.id,
                    provider,
                    usable: ProviderKey::BUILT_IN.to_vec(),
                    audit: crate::audit_now(),
                })
                .await
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
        assert!(outcomes.contains(&Err(RemoveLinkError::Refused(
            DisconnectRefused::LastLoginMethod
        ))));
        assert_eq!(repo.list_links(ada.id).await.unwrap().len(), 1);
    }
}
