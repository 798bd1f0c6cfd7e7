//! For the crate's own tests: a migrated repository on a fresh PostgreSQL database.

use crate::{DatabaseOptions, SeaOrmRepository, connect};
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use social_login_test_support::{PostgresDatabase, postgres_admin_url};

/// A migrated repository on a fresh database on `TEST_POSTGRES_URL`; `None` without one.
pub(crate) async fn migrated_postgres() -> Option<(SeaOrmRepository, PostgresDatabase)> {
    let admin_url = postgres_admin_url()?;
    let database = PostgresDatabase::create(&admin_url).await;
    let repo = connect(&DatabaseOptions::new(database.url()))
        .await
        .unwrap();
    repo.migrate().await.unwrap();
    Some((repo, database))
}

/// The count `sql` (a `SELECT count(*) AS n …`) reads on PostgreSQL.
pub(crate) async fn count(db: &impl ConnectionTrait, sql: &str) -> i64 {
    let count = Statement::from_string(DbBackend::Postgres, sql);
    let row = db.query_one_raw(count).await.unwrap().unwrap();
    row.try_get::<i64>("", "n").unwrap()
}
