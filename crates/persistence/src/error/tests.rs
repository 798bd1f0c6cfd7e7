//! The translation of errors, including those a real PostgreSQL outage produces: the
//! connection reset in the middle of a statement or of a transaction, and a server that
//! refuses new connections. The outage is a fault proxy in front of `TEST_POSTGRES_URL`.

use super::*;
use crate::{DatabaseOptions, SeaOrmRepository, connect};
use sea_orm::{ConnectionTrait, TransactionTrait};
use social_login_test_support::{FaultProxy, PostgresDatabase, postgres_admin_url};
use std::time::Duration;

#[test]
fn errors_without_a_driver_cause_are_internal() {
    let err = repository_error(DbErr::Custom("boom".into()));
    assert!(matches!(err, RepositoryError::Internal(_)));
}

#[test]
fn pool_exhaustion_is_unavailable() {
    let err = repository_error(DbErr::ConnectionAcquire(sea_orm::ConnAcquireErr::Timeout));
    assert!(matches!(err, RepositoryError::Unavailable(_)));
}

#[test]
fn a_protocol_or_decoding_error_is_internal() {
    let err = repository_error(DbErr::Query(RuntimeErr::SqlxError(
        sqlx::Error::Protocol("unexpected message".into()).into(),
    )));
    assert!(matches!(err, RepositoryError::Internal(_)), "{err:?}");
}

/// A migrated repository on a fresh database, reached through a fault proxy.
async fn behind_a_proxy() -> Option<(SeaOrmRepository, FaultProxy, PostgresDatabase)> {
    let admin_url = postgres_admin_url()?;
    let database = PostgresDatabase::create(&admin_url).await;
    let proxy = FaultProxy::in_front_of(&admin_url).await.unwrap();
    let repo = connect(&DatabaseOptions::new(proxy.route(database.url())))
        .await
        .unwrap();
    repo.migrate().await.unwrap();
    Some((repo, proxy, database))
}

fn assert_unavailable(err: DbErr) {
    let shown = format!("{err:?}");
    let translated = repository_error(err);
    assert!(
        matches!(translated, RepositoryError::Unavailable(_)),
        "{shown} became {translated:?}"
    );
}

#[tokio::test]
async fn a_transaction_the_server_rolled_back_to_settle_a_conflict_is_unavailable() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = connect(&DatabaseOptions::new(database.url().to_owned()))
        .await
        .unwrap();
    // A deadlock and a serialization failure, as the server reports them.
    for code in ["40P01", "40001"] {
        let raise =
            format!("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '{code}'; END $$");
        let err = repo
            .connection()
            .execute_unprepared(&raise)
            .await
            .unwrap_err();
        assert_unavailable(err);
    }
    // Any other error the server raises stays internal.
    let raise = "DO $$ BEGIN RAISE EXCEPTION 'bug' USING ERRCODE = '42601'; END $$";
    let err = repo
        .connection()
        .execute_unprepared(raise)
        .await
        .unwrap_err();
    assert!(matches!(
        repository_error(err),
        RepositoryError::Internal(_)
    ));
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}

#[tokio::test]
async fn a_connection_reset_in_the_middle_of_a_statement_is_unavailable() {
    let Some((repo, proxy, database)) = behind_a_proxy().await else {
        return;
    };
    let db = repo.connection().clone();
    let statement = tokio::spawn(async move { db.execute_unprepared("SELECT pg_sleep(5)").await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    proxy.cut();
    let err = statement.await.unwrap().unwrap_err();
    assert_unavailable(err);
    database.drop().await;
}

#[tokio::test]
async fn a_connection_reset_inside_a_transaction_is_unavailable_at_the_next_statement_and_at_commit()
 {
    let Some((repo, proxy, database)) = behind_a_proxy().await else {
        return;
    };
    let transaction = repo.begin_write().await.unwrap();
    transaction.execute_unprepared("SELECT 1").await.unwrap();
    proxy.cut();
    assert_unavailable(
        transaction
            .execute_unprepared("SELECT 1")
            .await
            .unwrap_err(),
    );
    assert_unavailable(transaction.commit().await.unwrap_err());

    let transaction = repo.connection().begin().await;
    assert_unavailable(transaction.expect_err("no transaction while cut"));
    database.drop().await;
}

#[tokio::test]
async fn connecting_while_the_server_refuses_connections_is_unavailable() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let proxy = FaultProxy::in_front_of(&admin_url).await.unwrap();
    proxy.cut();
    let err = connect(&DatabaseOptions::new(proxy.route(&admin_url)))
        .await
        .unwrap_err();
    assert!(matches!(err, RepositoryError::Unavailable(_)), "{err:?}");
}
