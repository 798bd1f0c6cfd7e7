//! SQLite-only facts: the connection settings are really in force.

use crate::harness::sqlite_repository;
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use social_login_persistence::{DatabaseOptions, SeaOrmRepository, connect};
use social_login_ports::RepositoryError;

async fn pragma(repo: &SeaOrmRepository, name: &str) -> String {
    let row = repo
        .connection()
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            format!("PRAGMA {name}"),
        ))
        .await
        .expect("pragma query")
        .expect("pragma row");
    row.try_get_by_index::<String>(0)
        .or_else(|_| row.try_get_by_index::<i64>(0).map(|n| n.to_string()))
        .expect("pragma value")
}

#[tokio::test]
async fn sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let repo = sqlite_repository(dir.path()).await;
    assert_eq!(pragma(&repo, "journal_mode").await, "wal");
    assert_eq!(pragma(&repo, "foreign_keys").await, "1");
    assert_eq!(pragma(&repo, "busy_timeout").await, "5000");
    assert!(
        dir.path().join("test.db-wal").exists(),
        "the WAL file exists"
    );
}

#[tokio::test]
async fn sqlite_gets_a_pool_of_exactly_one_connection() {
    let dir = tempfile::tempdir().unwrap();
    let repo = sqlite_repository(dir.path()).await;
    let pool = repo.connection().get_sqlite_connection_pool();
    assert_eq!(pool.options().get_max_connections(), 1);
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("big.db").display());
    let asked_for_more = connect(&DatabaseOptions {
        url,
        max_connections: 20,
    })
    .await
    .unwrap();
    let pool = asked_for_more.connection().get_sqlite_connection_pool();
    assert_eq!(
        pool.options().get_max_connections(),
        1,
        "max_connections does not apply to SQLite"
    );
}

#[tokio::test]
async fn an_in_memory_sqlite_database_works_for_the_demo() {
    let repo = connect(&DatabaseOptions::new("sqlite::memory:"))
        .await
        .unwrap();
    repo.migrate().await.unwrap();
    assert_eq!(pragma(&repo, "foreign_keys").await, "1");
}

#[tokio::test]
async fn an_unsupported_url_scheme_is_refused_without_echoing_the_url() {
    let err = connect(&DatabaseOptions::new("mysql://root:hunter2@localhost/db"))
        .await
        .unwrap_err();
    let RepositoryError::Internal(message) = err else {
        panic!("expected Internal, got {err:?}");
    };
    assert!(!message.contains("hunter2"));
}

#[tokio::test]
async fn an_unreachable_postgres_server_is_unavailable() {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    let err = connect(&DatabaseOptions::new(
        "postgres://postgres@127.0.0.1:1/none",
    ))
    .await
    .unwrap_err();
    assert!(matches!(err, RepositoryError::Unavailable(_)), "{err:?}");
}
