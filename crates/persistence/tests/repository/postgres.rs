//! PostgreSQL-only facts: the pool settings are in force, and an outage is `Unavailable` on
//! every operation and heals by itself. The server "goes away" through a fault proxy.

use crate::fixtures::{
    logout, new_link, new_user, refresh, remove_link, sign_in, store_token, token_hash,
    user_less_identity,
};
use crate::harness::postgres_repository;
use social_login_domain::{Email, ProviderAccount, ProviderKey, ProviderSubject, UserId};
use social_login_persistence::{
    DatabaseOptions, POSTGRES_PING_IF_IDLE_FOR, SeaOrmRepository, connect,
};
use social_login_ports::AccountLink;
use social_login_ports::UserCreation;
use social_login_ports::{
    AddLinkError, CreateUserError, RemoveLinkError, RepoResult, RepositoryError, RotateError,
    SignInError, UserRepository,
};
use social_login_test_support::{FaultProxy, PostgresDatabase, postgres_admin_url};
use social_login_testing::audit_now;
use social_login_testing::contract::repository::fixtures::creation;
use std::time::{Duration, Instant};

#[tokio::test]
async fn the_postgres_pool_has_the_configured_size_and_checks_idle_connections_before_use() {
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
    // Not every checkout: only connections idle past the threshold (the next test).
    assert!(!options.get_test_before_acquire());
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

/// An outcome reduced to the storage failure it hit: `None` when the database answered,
/// with a value or with a typed refusal such as `Refused`.
trait StorageFailure {
    fn storage_failure(self) -> Option<RepositoryError>;
}

impl<T> StorageFailure for RepoResult<T> {
    fn storage_failure(self) -> Option<RepositoryError> {
        self.err()
    }
}

/// For each port error that wraps a `RepositoryError` in its `Repository` variant.
macro_rules! storage_failure_in_repository_variant {
    ($($error:ident),*) => {$(
        impl<T> StorageFailure for Result<T, $error> {
            fn storage_failure(self) -> Option<RepositoryError> {
                match self {
                    Err($error::Repository(error)) => Some(error),
                    _ => None,
                }
            }
        }
    )*};
}

storage_failure_in_repository_variant!(
    CreateUserError,
    AddLinkError,
    SignInError,
    RemoveLinkError,
    RotateError
);

/// Every port operation, each reduced to the storage failure it hit.
async fn every_operation(
    repo: &SeaOrmRepository,
    user: UserId,
) -> Vec<(&'static str, Option<RepositoryError>)> {
    let subject = ProviderSubject::parse("outage-subject").unwrap();
    let email = Email::parse("ada@example.com").unwrap();
    let new_user = new_user(Some("new@example.com"), true);
    let new_link = new_link(user, ProviderKey::GOOGLE, "g-1");
    vec![
        ("ping", repo.ping().await.storage_failure()),
        ("find_user", repo.find_user(user).await.storage_failure()),
        (
            "find_user_by_email",
            repo.find_user_by_email(&email).await.storage_failure(),
        ),
        (
            "find_link",
            repo.find_link(&ProviderAccount {
                provider: ProviderKey::GITHUB,
                subject,
            })
            .await
            .storage_failure(),
        ),
        ("list_links", repo.list_links(user).await.storage_failure()),
        (
            "create_user",
            repo.create_user(creation(new_user, None, audit_now()))
                .await
                .storage_failure(),
        ),
        (
            "add_link",
            repo.add_link(AccountLink {
                link: new_link,
                audit: audit_now(),
            })
            .await
            .storage_failure(),
        ),
        (
            "sign_in_with_provider",
            repo.sign_in_with_provider(sign_in(user_less_identity()))
                .await
                .storage_failure(),
        ),
        (
            "remove_link",
            remove_link(repo, user, ProviderKey::GITHUB)
                .await
                .storage_failure(),
        ),
        (
            "rotate_refresh",
            refresh(repo, token_hash(1)).await.storage_failure(),
        ),
        (
            "revoke_refresh",
            logout(repo, token_hash(9)).await.storage_failure(),
        ),
    ]
}

/// A fresh database reached through a fault proxy, with a user and a session in it, on
/// which every operation works.
async fn working_behind_a_proxy(
    admin_url: &str,
) -> (PostgresDatabase, FaultProxy, SeaOrmRepository, UserId) {
    let database = PostgresDatabase::create(admin_url).await;
    let proxy = FaultProxy::in_front_of(admin_url).await.unwrap();
    let repo = postgres_repository(&proxy.route(database.url())).await;
    let user = repo
        .create_user(UserCreation {
            user: new_user(Some("grace@example.com"), true),
            first_link: None,
            first_session: None,
            audit: audit_now(),
        })
        .await
        .unwrap();
    store_token(&repo, user.id, token_hash(1)).await;
    for (name, outcome) in every_operation(&repo, user.id).await {
        assert_eq!(outcome, None, "{name} works before the fault");
    }
    (database, proxy, repo, user.id)
}

#[tokio::test]
async fn a_connection_that_died_while_idle_is_replaced_before_any_operation_draws_it() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let (database, proxy, repo, user) = working_behind_a_proxy(&admin_url).await;
    assert!(proxy.open_connections() > 0, "the pool keeps connections");

    // A server restart while the pool is quiet: every pooled connection is dead, and
    // the server takes new ones at once.
    proxy.cut();
    proxy.restore();
    tokio::time::sleep(POSTGRES_PING_IF_IDLE_FOR + Duration::from_millis(200)).await;

    for (name, outcome) in every_operation(&repo, user).await {
        assert_eq!(outcome, None, "{name} drew a dead connection");
    }
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}

#[tokio::test]
async fn while_postgres_is_away_every_operation_is_unavailable_and_it_heals_without_a_reconnect() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let (database, proxy, repo, user) = working_behind_a_proxy(&admin_url).await;

    proxy.cut();
    for (name, outcome) in every_operation(&repo, user).await {
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
    for (name, outcome) in every_operation(&repo, user).await {
        assert_eq!(outcome, None, "{name} works again after the outage");
    }
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}

/// Waits (at most five seconds) until a statement of this database waits for a row lock.
async fn until_a_statement_waits_for_a_lock(repo: &SeaOrmRepository) {
    use sea_orm::{ConnectionTrait, Statement};
    let waiting = "SELECT count(*) AS n FROM pg_stat_activity \
                   WHERE datname = current_database() AND wait_event_type = 'Lock'";
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let statement = Statement::from_string(repo.connection().get_database_backend(), waiting);
        let row = repo
            .connection()
            .query_one_raw(statement)
            .await
            .unwrap()
            .unwrap();
        if row.try_get::<i64>("", "n").unwrap() > 0 {
            return;
        }
        assert!(Instant::now() < deadline, "nothing waits for a lock");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_signal_acts_on_whoever_holds_the_account_once_its_first_owners_row_is_free() {
    use sea_orm::{ConnectionTrait, TransactionTrait};
    use social_login_domain::{SignalKind, SignalSource};
    use social_login_ports::{SignalOutcome, SignalRepository};
    use social_login_testing::contract::repository::fixtures::{new_link, new_user, store_user};
    use social_login_testing::contract::repository::signal;
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = postgres_repository(database.url()).await;
    let ada = new_user(Some("ada@example.com"), true);
    let google = new_link(ada.id, ProviderKey::GOOGLE, "g-moving");
    store_user(&repo, &ada, Some(google)).await;
    let grace = new_user(Some("grace@example.com"), true);
    store_user(&repo, &grace, None).await;

    // Ada's row is held, as her disconnect holds it, when the signal about her account comes.
    let disconnect = repo.connection().begin().await.unwrap();
    let lock = format!("SELECT id FROM users WHERE id = '{}' FOR UPDATE", ada.id);
    disconnect.execute_unprepared(&lock).await.unwrap();
    let disabled = signal(
        SignalSource::GoogleRisc,
        "set-moving",
        "g-moving",
        SignalKind::AccountDisabled,
    );
    let applying = tokio::spawn({
        let repo = repo.clone();
        async move { repo.apply_signal(disabled).await }
    });
    until_a_statement_waits_for_a_lock(&repo).await;
    // Meanwhile the account leaves Ada and becomes Grace's (her connect, committed at once).
    let moved = format!(
        "UPDATE linked_accounts SET user_id = '{}' WHERE subject = 'g-moving'",
        grace.id
    );
    disconnect.execute_unprepared(&moved).await.unwrap();
    disconnect.commit().await.unwrap();

    let outcome = applying.await.unwrap();
    let on_grace = SignalOutcome::Applied {
        user: grace.id,
        user_deleted: false,
    };
    assert_eq!(outcome, Ok(on_grace), "the account's holder now");
    let graces = repo.list_links(grace.id).await.unwrap();
    assert!(graces[0].disabled, "{graces:?}");
    assert!(repo.list_links(ada.id).await.unwrap().is_empty());
    database.drop().await;
}

/// The grant a deletion (`deleting`) or a disconnect hands back to be revoked, when a relayed
/// refresh was storing new tokens (its UPDATE holding the link's row) as it came.
async fn grant_handed_back_after_a_refresh_stored(disconnect: bool) -> String {
    use sea_orm::{ConnectionTrait, TransactionTrait};
    use social_login_testing::contract::repository::fixtures::{
        delete_user, new_link, new_user, remove_link, store_user,
    };
    let admin_url = postgres_admin_url().expect("checked by the caller");
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = postgres_repository(database.url()).await;
    let ada = new_user(Some("ada@example.com"), true);
    let github = new_link(ada.id, ProviderKey::GITHUB, "gh-ada");
    store_user(&repo, &ada, Some(github)).await;

    let refresh = repo.connection().begin().await.unwrap();
    let stored = "UPDATE linked_accounts SET access_token = 'sealed-new-access', \
                  refresh_token = 'sealed-new-refresh' WHERE subject = 'gh-ada'";
    refresh.execute_unprepared(stored).await.unwrap();
    let handing_back = tokio::spawn({
        let repo = repo.clone();
        async move {
            match disconnect {
                true => remove_link(&repo, ada.id, ProviderKey::GITHUB)
                    .await
                    .unwrap(),
                false => delete_user(&repo, ada.id).await.remove(0),
            }
        }
    });
    until_a_statement_waits_for_a_lock(&repo).await;
    refresh.commit().await.unwrap();
    let grant = handing_back.await.unwrap();
    database.drop().await;
    grant.access_token.as_str().to_owned()
}

#[tokio::test]
async fn a_deletion_or_disconnect_hands_back_the_tokens_a_refresh_stored_while_it_waited() {
    if postgres_admin_url().is_none() {
        return;
    }
    for disconnect in [false, true] {
        let revoked = grant_handed_back_after_a_refresh_stored(disconnect).await;
        assert_eq!(revoked, "sealed-new-access", "disconnect: {disconnect}");
    }
}
