//! Runs one test body on each backend, each time on a database of its own.

use sea_orm::{ConnectionTrait, Database};
use social_login_persistence::{SeaOrmRepository, connect};
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

    let Ok(admin_url) = std::env::var("TEST_POSTGRES_URL") else {
        eprintln!("SKIPPED: PostgreSQL run of this test: TEST_POSTGRES_URL is not set");
        return;
    };
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = connect(&database.url).await.expect("connect to PostgreSQL");
    repo.migrate().await.expect("migrate PostgreSQL");
    let outcome = tokio::spawn(test(repo.clone())).await;
    repo.connection().close_by_ref().await.ok();
    database.drop().await;
    rethrow("PostgreSQL", outcome);
}

/// A migrated repository on a new SQLite file in `dir`.
pub async fn sqlite_repository(dir: &Path) -> SeaOrmRepository {
    let url = format!("sqlite://{}?mode=rwc", dir.join("test.db").display());
    let repo = connect(&url).await.expect("connect to SQLite");
    repo.migrate().await.expect("migrate SQLite");
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

struct PostgresDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl PostgresDatabase {
    async fn create(admin_url: &str) -> Self {
        let name = format!("social_login_test_{}", uuid::Uuid::new_v4().simple());
        let admin = Database::connect(admin_url)
            .await
            .expect("connect to TEST_POSTGRES_URL");
        admin
            .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
            .await
            .expect("create test database");
        admin.close().await.ok();
        Self {
            admin_url: admin_url.to_owned(),
            url: with_database(admin_url, &name),
            name,
        }
    }

    async fn drop(self) {
        let admin = Database::connect(self.admin_url.as_str())
            .await
            .expect("connect to TEST_POSTGRES_URL");
        admin
            .execute_unprepared(&format!(
                "DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)",
                self.name
            ))
            .await
            .expect("drop test database");
        admin.close().await.ok();
    }
}

/// `url` with its database name replaced by `name`, query string kept.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, format!("?{query}")),
        None => (url, String::new()),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let server = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    format!("{server}/{name}{query}")
}

#[test]
fn the_database_name_in_a_url_is_replaced_and_the_query_kept() {
    assert_eq!(
        with_database("postgres://postgres@127.0.0.1:5432/test", "x"),
        "postgres://postgres@127.0.0.1:5432/x"
    );
    assert_eq!(
        with_database("postgres://u:p@h/db?sslmode=disable", "x"),
        "postgres://u:p@h/x?sslmode=disable"
    );
    assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
}
