//! Throwaway databases on the real PostgreSQL of `TEST_POSTGRES_URL`: created empty and
//! usable, gone after `drop()`, and gone after a plain `Drop` too (a panicking test).

use social_login_test_support::{FaultProxy, PostgresDatabase, postgres_admin_url};
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::query::QueryScalar;
use sqlx::{Connection, FromRow, PgConnection, Postgres};

/// The one value `query` answers on a new session of the database at `url`.
async fn one_value<T>(url: &str, query: QueryScalar<'_, Postgres, T, PgArguments>) -> T
where
    T: Send + Unpin,
    (T,): Send + Unpin + for<'r> FromRow<'r, PgRow>,
{
    let mut session = PgConnection::connect(url).await.unwrap();
    let value = query.fetch_one(&mut session).await.unwrap();
    session.close().await.unwrap();
    value
}

async fn exists(admin_url: &str, name: &str) -> bool {
    let query = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)");
    one_value(admin_url, query.bind(name)).await
}

/// A new database on the test server, with the server's admin URL; none without a server.
async fn new_database() -> Option<(String, PostgresDatabase)> {
    let admin_url = postgres_admin_url()?;
    let database = PostgresDatabase::create(&admin_url).await;
    Some((admin_url, database))
}

#[tokio::test]
async fn a_created_database_is_fresh_and_usable_and_dropped_with_its_sessions() {
    let Some((admin_url, database)) = new_database().await else {
        return;
    };
    let name = database.name().to_owned();
    assert!(name.starts_with("social_login_test_"));
    let mut session = PgConnection::connect(database.url()).await.unwrap();
    let current: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(&mut session)
        .await
        .unwrap();
    assert_eq!(current, name);
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .fetch_one(&mut session)
    .await
    .unwrap();
    assert_eq!(tables, 0, "a new database is empty");

    // The session stays open: dropping must end it rather than fail.
    database.drop().await;
    assert!(!exists(&admin_url, &name).await);
    drop(session);
}

/// `SHOW synchronous_commit` on a new session of the database at `url`.
async fn synchronous_commit(url: &str) -> String {
    one_value(url, sqlx::query_scalar("SHOW synchronous_commit")).await
}

#[tokio::test]
async fn a_test_database_does_not_wait_for_flushes_and_the_benchmarks_does() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let quick = PostgresDatabase::create(&admin_url).await;
    let durable = PostgresDatabase::create_durable(&admin_url).await;
    assert_eq!(synchronous_commit(quick.url()).await, "off");
    let servers_own = synchronous_commit(&admin_url).await;
    assert_eq!(synchronous_commit(durable.url()).await, servers_own);
    quick.drop().await;
    durable.drop().await;
}

#[tokio::test]
async fn a_database_left_behind_by_a_test_is_dropped_when_it_goes_out_of_scope() {
    let Some((admin_url, database)) = new_database().await else {
        return;
    };
    let name = database.name().to_owned();
    assert!(exists(&admin_url, &name).await);
    drop(database);
    assert!(!exists(&admin_url, &name).await);
}

#[tokio::test]
async fn a_postgres_session_through_the_proxy_fails_on_a_cut_and_a_new_one_works_after_restore() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let proxy = FaultProxy::in_front_of(&admin_url).await.unwrap();
    let mut session = PgConnection::connect(&proxy.route(&admin_url))
        .await
        .unwrap();
    sqlx::query("SELECT 1").execute(&mut session).await.unwrap();

    proxy.cut();
    let during = sqlx::query("SELECT 1").execute(&mut session).await;
    assert!(during.is_err(), "the open session was cut");
    assert!(
        PgConnection::connect(&proxy.route(&admin_url))
            .await
            .is_err()
    );

    proxy.restore();
    let mut again = PgConnection::connect(&proxy.route(&admin_url))
        .await
        .unwrap();
    sqlx::query("SELECT 1").execute(&mut again).await.unwrap();
}
