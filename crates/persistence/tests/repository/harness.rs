//! Runs one test body on each backend, each time on a database of its own.

use social_login_persistence::{DatabaseOptions, SeaOrmRepository, SqliteRepository, connect};
use social_login_test_support::{PostgresDatabase, postgres_admin_url};
use std::future::Future;
use std::path::Path;

/// Runs `test` on a fresh SQLite file, then on a fresh PostgreSQL database when
/// `TEST_POSTGRES_URL` (an admin URL) is set. The PostgreSQL database is dropped afterwards,
/// also when the test fails.
pub async fn on_every_backend<F, Fut>(test: F)
where
    F: Fn(SeaOrmRepository) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let repo = sqlite_repository(dir.path()).await;
    let outcome = tokio::spawn(test(repo.clone())).await;
    repo.connection().close_by_ref().await.ok();
    rethrow("SQLite", outcome);

    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = postgres_repository(database.url()).await;
    let outcome = tokio::spawn(test(repo.clone())).await;
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
    rethrow("PostgreSQL", outcome);
}

/// Runs `test` on a connected, unmigrated SQLite file (with its path), then on a fresh
/// unmigrated PostgreSQL database when `TEST_POSTGRES_URL` is set: for tests of what a
/// migration does to rows written before it.
pub async fn on_every_unmigrated_backend<F, Fut>(test: F)
where
    F: Fn(SeaOrmRepository, Option<std::path::PathBuf>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
    let repo = connect(&DatabaseOptions::new(url))
        .await
        .expect("connect to SQLite");
    let outcome = tokio::spawn(test(repo.clone(), Some(dir.path().to_owned()))).await;
    repo.connection().close_by_ref().await.ok();
    rethrow("SQLite", outcome);

    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = connect(&DatabaseOptions::new(database.url()))
        .await
        .expect("connect to PostgreSQL");
    let outcome = tokio::spawn(test(repo.clone(), None)).await;
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
    rethrow("PostgreSQL", outcome);
}

/// A migrated repository on a new SQLite file in `dir`.
pub async fn sqlite_repository(dir: &Path) -> SeaOrmRepository {
    let url = format!("sqlite://{}?mode=rwc", dir.join("test.db").display());
    let repo = connect(&DatabaseOptions::new(url))
        .await
        .expect("connect to SQLite");
    repo.migrate().await.expect("migrate SQLite");
    repo
}

/// A migrated rusqlite repository (the service's SQLite adapter) on a new file in `dir`.
pub async fn rusqlite_repository(dir: &Path) -> SqliteRepository {
    let url = format!("sqlite://{}?mode=rwc", dir.join("test.db").display());
    let repo = SqliteRepository::open(&DatabaseOptions::new(url))
        .await
        .expect("open SQLite");
    repo.migrate().await.expect("migrate SQLite");
    repo
}

/// Runs `test` on a fresh SQLite file served by the rusqlite adapter.
pub async fn on_rusqlite<F, Fut>(test: F)
where
    F: FnOnce(SqliteRepository) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let repo = rusqlite_repository(dir.path()).await;
    rethrow("SQLite through rusqlite", tokio::spawn(test(repo)).await);
}

/// A migrated repository on the PostgreSQL database at `url`.
pub async fn postgres_repository(url: &str) -> SeaOrmRepository {
    let repo = connect(&DatabaseOptions::new(url))
        .await
        .expect("connect to PostgreSQL");
    repo.migrate().await.expect("migrate PostgreSQL");
    repo
}

fn rethrow(backend: &str, outcome: Result<(), tokio::task::JoinError>) {
    if let Err(err) = outcome {
        eprintln!("FAILED on {backend}");
        match err.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(err) => panic!("test task on {backend} did not finish: {err}"),
        }
    }
}
