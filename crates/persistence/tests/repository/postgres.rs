//! PostgreSQL-only facts: the pool settings are in force, and an outage is `Unavailable` on
//! every operation and heals by itself. The server "goes away" through a fault proxy.

use crate::fixtures::{
    new_link, new_user, now, sign_in, store_token, token_hash, user_less_identity,
};
use crate::harness::postgres_repository;
use social_login_domain::{Email, ProviderKey, ProviderSubject, UserId};
use social_login_persistence::{DatabaseOptions, SeaOrmRepository, connect};
use social_login_ports::{
    AddLinkError, CreateUserError, LinkRemoval, RefreshTokenRepository, RemoveLinkError,
    RepositoryError, RotateError, SignInError, UserRepository,
};
use social_login_test_support::{FaultProxy, PostgresDatabase, postgres_admin_url};
use std::time::{Duration, Instant};

#[tokio::test]
async fn the_postgres_pool_has_the_configured_size_and_checks_connections_before_use() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = connect(&DatabaseOptions {
        url: database.url().to_owned(),
        max_connections: 3,
    })
    .await
    .unwrap();
    let options = repo.connection().get_postgres_connection_pool().options();
    assert_eq!(options.get_max_connections(), 3);
    assert!(options.get_test_before_acquire());
    assert!(options.get_idle_timeout().is_some());
    assert!(options.get_max_lifetime().is_some());
    assert_eq!(
        connect(&DatabaseOptions::new(database.url()))
            .await
            .unwrap()
            .connection()
            .get_postgres_connection_pool()
            .options()
            .get_max_connections(),
        DatabaseOptions::DEFAULT_MAX_CONNECTIONS
    );
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}

/// Every port operation, each reduced to the storage failure it hit: `None` when the
/// database answered, with a value or with a typed refusal such as `Refused`.
async fn every_operation(
    repo: &SeaOrmRepository,
    user: UserId,
) -> Vec<(&'static str, Option<RepositoryError>)> {
    let subject = ProviderSubject::parse("outage-subject").unwrap();
    let email = Email::parse("ada@example.com").unwrap();
    vec![
        ("ping", repo.ping().await.err()),
        ("find_user", repo.find_user(user).await.err()),
        (
            "find_user_by_email",
            repo.find_user_by_email(&email).await.err(),
        ),
        (
            "find_link",
            repo.find_link(ProviderKey::GITHUB, &subject).await.err(),
        ),
        ("list_links", repo.list_links(user).await.err()),
        (
            "create_user",
            match repo
                .create_user(
                    new_user(Some("new@example.com"), true),
                    None,
                    social_login_testing::audit_now(),
                )
                .await
            {
                Err(CreateUserError::Repository(error)) => Some(error),
                _ => None,
            },
        ),
        (
            "add_link",
            match repo
                .add_link(
                    new_link(user, ProviderKey::GOOGLE, "g-1"),
                    social_login_testing::audit_now(),
                )
                .await
            {
                Err(AddLinkError::Repository(error)) => Some(error),
                _ => None,
            },
        ),
        (
            "sign_in_with_provider",
            match repo
                .sign_in_with_provider(sign_in(user_less_identity()))
                .await
            {
                Err(SignInError::Repository(error)) => Some(error),
                _ => None,
            },
        ),
        (
            "remove_link",
            match repo
                .remove_link(LinkRemoval {
                    user,
                    provider: ProviderKey::GITHUB,
                    usable: ProviderKey::BUILT_IN.to_vec(),
                    audit: social_login_testing::audit_now(),
                })
                .await
            {
                Err(RemoveLinkError::Repository(error)) => Some(error),
                _ => None,
            },
        ),
        (
            "rotate_refresh",
            match repo
                .rotate_refresh(
                    token_hash(1),
                    token_hash(2),
                    now(),
                    time::Duration::days(1),
                    social_login_testing::audit_now(),
                )
                .await
            {
                Err(RotateError::Repository(error)) => Some(error),
                _ => None,
            },
        ),
        (
            "revoke_refresh",
            repo.revoke_refresh(token_hash(9), social_login_testing::audit_now())
                .await
                .err(),
        ),
    ]
}

#[tokio::test]
async fn while_postgres_is_away_every_operation_is_unavailable_and_it_heals_without_a_reconnect() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let proxy = FaultProxy::in_front_of(&admin_url).await.unwrap();
    let repo = postgres_repository(&proxy.route(database.url())).await;
    let user = repo
        .create_user(
            new_user(Some("grace@example.com"), true),
            None,
            social_login_testing::audit_now(),
        )
        .await
        .unwrap();
    store_token(&repo, user.id, token_hash(1)).await;
    for (name, outcome) in every_operation(&repo, user.id).await {
        assert_eq!(outcome, None, "{name} works before the outage");
    }

    proxy.cut();
    for (name, outcome) in every_operation(&repo, user.id).await {
        assert!(
            matches!(outcome, Some(RepositoryError::Unavailable(_))),
            "{name} during the outage: {outcome:?}"
        );
    }

    proxy.restore();
    let deadline = Instant::now() + Duration::from_secs(10);
    while repo.ping().await.is_err() {
        assert!(Instant::now() < deadline, "the pool did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for (name, outcome) in every_operation(&repo, user.id).await {
        assert_eq!(outcome, None, "{name} works again after the outage");
    }
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}
