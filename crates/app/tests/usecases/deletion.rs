//! Account deletion and provider revocation: the account goes in one step, every grant is
//! revoked with its stored tokens opened, and a provider failure never blocks anything.

use crate::world::{World, ada_on_github, github_login};
use social_login_app::AppError;
use social_login_domain::{AuditEventType, ProviderKey};
use social_login_ports::{ProviderError, Revoked};
use time::Duration;

#[tokio::test]
async fn deleting_the_account_removes_everything_and_revokes_each_grant() {
    let world = World::new();
    let login = world.login_with(ada_on_github()).await;
    let ada = login.user.id;
    world
        .connect_as(ada, {
            let mut google = github_login("g-1", "ada@example.com");
            google.identity.provider = ProviderKey::GOOGLE;
            google
        })
        .await
        .unwrap();
    let bearer = login.access_token.value.expose().to_owned();

    world.delete_account(world.access_of(&login)).await.unwrap();

    world.assert_nothing_stored("after the deletion");
    let revoked = world.github.revoked();
    assert_eq!(revoked.len(), 1);
    assert_eq!(
        revoked[0].access_token.expose(),
        "gh-1-access",
        "opened, not sealed"
    );
    assert_eq!(
        revoked[0]
            .refresh_token
            .as_ref()
            .map(|t| t.expose().to_owned()),
        Some("gh-1-refresh".to_owned())
    );
    assert_eq!(world.google.revoked().len(), 1);
    assert!(matches!(
        world.service.caller(&bearer).await,
        Err(AppError::Unauthorized)
    ));
    assert!(world.refresh_with(&login).await.is_err());
    let kinds: Vec<_> = world.users.events().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds.last(),
        Some(&AuditEventType::UserDeleted),
        "the event outlives the user"
    );
}

#[tokio::test]
async fn a_login_older_than_five_minutes_cannot_delete_and_nothing_changes() {
    let (world, login) = World::signed_in(ada_on_github()).await;
    world
        .clock
        .advance(Duration::minutes(5) + Duration::seconds(1));

    let refused = world.delete_account(world.access_of(&login)).await;
    assert!(matches!(refused, Err(AppError::ReauthenticationRequired)));
    assert_eq!(world.users.user_count(), 1);
    assert!(world.github.revoked().is_empty());
}

#[tokio::test]
async fn a_failed_revocation_never_blocks_the_unlink_and_is_recorded() {
    let (world, ada) = World::with_user("ada@example.com").await;
    world.link(ada, ada_on_github()).await;
    world
        .github
        .answer_revocation(Err(ProviderError::Revocation(
            "revoke endpoint answered 500".into(),
        )));

    world.disconnect(ada, ProviderKey::GITHUB).await.unwrap();

    assert_eq!(world.users.link_count(), 0, "unlinked all the same");
    assert_eq!(world.github.revoked().len(), 1);
    let latest = &world.service.events(ada).await.unwrap()[0];
    assert_eq!(latest.kind, AuditEventType::ProviderRevocationFailed);
    assert_eq!(latest.provider, Some(ProviderKey::GITHUB));
}

#[tokio::test]
async fn a_provider_without_revocation_is_no_failure() {
    let (world, ada) = World::with_user("ada@example.com").await;
    world.link(ada, ada_on_github()).await;
    world.github.answer_revocation(Ok(Revoked::NotSupported));
    world.disconnect(ada, ProviderKey::GITHUB).await.unwrap();
    let latest = &world.service.events(ada).await.unwrap()[0];
    assert_eq!(latest.kind, AuditEventType::AccountUnlinked);
}

#[tokio::test]
async fn a_link_made_by_a_native_id_token_sign_in_has_nothing_to_revoke() {
    let world = World::new();
    world.google.answer_id_token(Ok(crate::world::identity(
        ProviderKey::GOOGLE,
        "g-native",
        Some("ada@example.com"),
        true,
    )));
    let login = world
        .id_token_sign_in(social_login_app::IdTokenCommand {
            provider: world.service.provider_of(ProviderKey::GOOGLE).unwrap(),
            id_token: social_login_domain::SecretText::new("header.payload.signature"),
            nonce: None,
            post_body: None,
            authorization_code: None,
        })
        .await
        .unwrap();
    world.delete_account(world.access_of(&login)).await.unwrap();
    assert_eq!(world.users.user_count(), 0);
    assert!(
        world.google.revoked().is_empty(),
        "no token was ever stored to revoke"
    );
    let kinds: Vec<_> = world.users.events().iter().map(|e| e.kind).collect();
    assert!(!kinds.contains(&AuditEventType::ProviderRevocationFailed));
}
