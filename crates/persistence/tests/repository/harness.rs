//! Runs one test body on each backend, each time on a database of its own.

use social_login_persistence::{DatabaseOptions, SeaOrmRepository, SqliteRepository, connect};
use social_login_test_support::{PostgresDatabase, postgres_admin_url};
use std::future::Future;
use std::path::{Path, PathBuf};

/// Runs `test` on a fresh SQLite file, then on a fresh PostgreSQL database when
/// `TEST_POSTGRES_URL` (an admin URL) is set. The PostgreSQL database is dropped afterwards,
/// also when the test fails.
pub async fn on_every_backend<F, Fut>(test: F)
where
    F: Fn(SeaOrmRepository) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    on_each_database(true, |repo, _| test(repo)).await;
}

/// Runs `test` on a connected, unmigrated SQLite file (with its path), then on a fresh
/// unmigrated PostgreSQL database when `TEST_POSTGRES_URL` is set: for tests of what a
/// migration does to rows written before it.
pub async fn on_every_unmigrated_backend<F, Fut>(test: F)
where
    F: Fn(SeaOrmRepository, Option<PathBuf>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    on_each_database(false, test).await;
}

/// Runs `test` on a new SQLite file (handed its directory), then on a new PostgreSQL
/// database (handed `None`) when `TEST_POSTGRES_URL` is set, each migrated if `migrate`;
/// the PostgreSQL database is dropped afterwards, also when the test fails.
async fn on_each_database<F, Fut>(migrate: bool, test: F)
where
    F: Fn(SeaOrmRepository, Option<PathBuf>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let repo = connected(&sqlite_url(dir.path()), "SQLite", migrate).await;
    let outcome = tokio::spawn(test(repo.clone(), Some(dir.path().to_owned()))).await;
    repo.connection().close_by_ref().await.ok();
    rethrow("SQLite", outcome);
    on_postgres(migrate, |repo| test(repo, None)).await;
}

/// A repository on `url` (of the `backend` named in failures), migrated if `migrate`.
async fn connected(url: &str, backend: &str, migrate: bool) -> SeaOrmRepository {
    let repo = connect(&DatabaseOptions::new(url))
        .await
        .unwrap_or_else(|error| panic!("connect to {backend}: {error}"));
    if migrate {
        repo.migrate()
            .await
            .unwrap_or_else(|error| panic!("migrate {backend}: {error}"));
    }
    repo
}

/// The URL of a SQLite file in `dir`.
fn sqlite_url(dir: &Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("test.db").display())
}

/// A migrated repository on a new SQLite file in `dir`.
pub async fn sqlite_repository(dir: &Path) -> SeaOrmRepository {
    connected(&sqlite_url(dir), "SQLite", true).await
}

/// A migrated rusqlite repository (the service's SQLite adapter) on a new file in `dir`.
pub async fn rusqlite_repository(dir: &Path) -> SqliteRepository {
    let repo = SqliteRepository::open(&DatabaseOptions::new(sqlite_url(dir)))
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

/// Runs `test` on a fresh, unmigrated PostgreSQL database when `TEST_POSTGRES_URL` is set
/// (skipped loudly when it is not): for what only PostgreSQL does.
pub async fn on_unmigrated_postgres<F, Fut>(test: F)
where
    F: FnOnce(SeaOrmRepository) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    on_postgres(false, test).await;
}

/// Runs `test` on a new PostgreSQL database, migrated if `migrate`, when `TEST_POSTGRES_URL`
/// is set; the database is dropped afterwards, also when the test fails.
async fn on_postgres<F, Fut>(migrate: bool, test: F)
where
    F: FnOnce(SeaOrmRepository) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = connected(database.url(), "PostgreSQL", migrate).await;
    let outcome = tokio::spawn(test(repo.clone())).await;
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
    rethrow("PostgreSQL", outcome);
}

/// A migrated repository on the PostgreSQL database at `url`.
pub async fn postgres_repository(url: &str) -> SeaOrmRepository {
    connected(url, "PostgreSQL", true).await
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
