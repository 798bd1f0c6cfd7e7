//! Migrations wait for the migration lock: on PostgreSQL the advisory lock, on SQLite the
//! lock file beside the database. Each test holds the lock itself and watches `migrate`
//! wait for it.

use crate::fixtures::count_of;
use crate::harness::sqlite_repository;
use sea_orm::sqlx::{self, Connection, PgConnection};
use social_login_persistence::{DatabaseOptions, MIGRATION_LOCK_KEY, SeaOrmRepository, connect};
use social_login_test_support::{PostgresDatabase, postgres_admin_url};
use std::time::Duration;

/// Long enough for an unblocked `migrate` of this schema to finish many times over.
const BLOCKED_FOR: Duration = Duration::from_millis(500);

/// Starts `migrate` in the background, checks it is still waiting after [`BLOCKED_FOR`],
/// runs `release`, and checks it then completes.
async fn migrate_waits_for(repo: SeaOrmRepository, release: impl AsyncFnOnce()) {
    let migrating = tokio::spawn(async move { repo.migrate().await });
    tokio::time::sleep(BLOCKED_FOR).await;
    assert!(
        !migrating.is_finished(),
        "migrate waits while the lock is held"
    );
    release().await;
    tokio::time::timeout(Duration::from_secs(10), migrating)
        .await
        .expect("migrate finishes once the lock is free")
        .unwrap()
        .expect("migrate succeeds");
}

#[tokio::test]
async fn on_postgres_migrate_waits_for_the_advisory_lock() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let mut holder = PgConnection::connect(database.url()).await.unwrap();
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(MIGRATION_LOCK_KEY)
        .execute(&mut holder)
        .await
        .unwrap();
    let repo = connect(&DatabaseOptions::new(database.url()))
        .await
        .unwrap();
    migrate_waits_for(repo.clone(), async || {
        sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(MIGRATION_LOCK_KEY)
            .execute(&mut holder)
            .await
            .unwrap();
    })
    .await;
    let tables = count_of(
        &repo,
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public' \
         AND table_name IN ('users', 'linked_accounts', 'refresh_tokens')",
    )
    .await;
    assert_eq!(tables, 3);
    let locks = count_of(
        &repo,
        // This database's only: other test runs on the same server hold their own.
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = \
         (SELECT oid FROM pg_database WHERE datname = current_database())",
    )
    .await;
    assert_eq!(locks, 0, "migrate gave the lock back");
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
}

#[tokio::test]
async fn on_sqlite_migrate_waits_for_the_lock_file_beside_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.db");
    let lock = std::fs::File::create(dir.path().join("test.db.migrate-lock")).unwrap();
    lock.lock().unwrap();
    let url = format!("sqlite://{}?mode=rwc", path.display());
    let repo = connect(&DatabaseOptions::new(url)).await.unwrap();
    migrate_waits_for(repo.clone(), async || lock.unlock().unwrap()).await;
    let tables = count_of(
        &repo,
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' \
         AND name IN ('users', 'linked_accounts', 'refresh_tokens')",
    )
    .await;
    assert_eq!(tables, 3);
}

#[tokio::test]
async fn migrating_again_is_a_no_op_and_leaves_the_lock_free() {
    let dir = tempfile::tempdir().unwrap();
    let repo = sqlite_repository(dir.path()).await;
    repo.migrate().await.expect("second migrate");
    let lock = std::fs::File::open(dir.path().join("test.db.migrate-lock")).unwrap();
    lock.try_lock().expect("nobody holds the lock file");
}
