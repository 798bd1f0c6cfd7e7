//! `social-login migrate` started four times at once against one database, as replicas
//! starting together would: every process succeeds and each migration is applied once.
//! Real processes of the real binary, on SQLite and (with `TEST_POSTGRES_URL`) PostgreSQL.

use sea_orm::{ConnectionTrait, Database, DbBackend, Statement};
use social_login_migrations::{Migrator, MigratorTrait};
use social_login_test_support::{PostgresDatabase, postgres_admin_url};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const PROCESSES: usize = 4;
/// Generous for a handful of tiny migrations, even on a loaded machine.
const EACH_PROCESS_WITHIN: Duration = Duration::from_secs(60);

/// Runs `social-login migrate` PROCESSES times concurrently on `database_url`, asserting
/// that every one exits 0.
fn migrate_concurrently(dir: &Path, database_url: &str) {
    let config = dir.join("social-login.toml");
    std::fs::write(
        &config,
        format!(
            "secret_key = \"mJeoKE5-JOiJ9D0iEM3wsQepvdzTEiJzLiHpgzJzmhUBdmR3xSdOW641hqD8XHbg\"\n\
             [database]\nurl = \"{database_url}\"\n"
        ),
    )
    .unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_social-login"))
                .arg("migrate")
                .arg("--config")
                .arg(&config)
                .env_remove("SOCIAL_LOGIN_CONFIG")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start social-login migrate")
        })
        .collect();
    for child in children {
        let output = wait_bounded(child);
        assert!(
            output.status.success(),
            "migrate failed: {}\nstdout:\n{}\nstderr:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Waits for the child, killing it past EACH_PROCESS_WITHIN so a deadlock fails the test
/// instead of hanging it.
fn wait_bounded(mut child: std::process::Child) -> std::process::Output {
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > EACH_PROCESS_WITHIN {
            let _ = child.kill();
            panic!("social-login migrate did not finish within {EACH_PROCESS_WITHIN:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The schema is complete and each migration was recorded exactly once.
async fn assert_migrated_once(url: &str, backend: DbBackend) {
    let db = Database::connect(url).await.unwrap();
    let count = async |sql: &str| -> i64 {
        db.query_one_raw(Statement::from_string(backend, sql))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index(0)
            .unwrap()
    };
    let tables = match backend {
        DbBackend::Postgres => {
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public' \
             AND table_name IN ('users', 'linked_accounts', 'refresh_tokens', 'refresh_families')"
        }
        _ => {
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' \
             AND name IN ('users', 'linked_accounts', 'refresh_tokens', 'refresh_families')"
        }
    };
    assert_eq!(count(tables).await, 4, "every table exists");
    let applied = count("SELECT count(*) FROM seaql_migrations").await;
    let distinct = count("SELECT count(DISTINCT version) FROM seaql_migrations").await;
    let migrations = i64::try_from(Migrator::migrations().len()).unwrap();
    assert_eq!(
        (applied, distinct),
        (migrations, migrations),
        "each migration applied once"
    );
    db.close().await.ok();
}

#[tokio::test]
async fn four_migrate_processes_at_once_on_one_sqlite_file_all_succeed() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("social-login.db").display()
    );
    migrate_concurrently(dir.path(), &url);
    assert_migrated_once(&url, DbBackend::Sqlite).await;
}

#[tokio::test]
async fn four_migrate_processes_at_once_on_one_postgres_database_all_succeed() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let dir = tempfile::tempdir().unwrap();
    migrate_concurrently(dir.path(), database.url());
    assert_migrated_once(database.url(), DbBackend::Postgres).await;
    database.drop().await;
}
