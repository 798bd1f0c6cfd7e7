//! One pooled PostgreSQL connection held for the length of a login, so that its reads and
//! its one write statement go out on it: one checkout per login, and so one of sqlx's
//! pings (it pings every connection that comes back to the pool) instead of one per
//! statement. sea-orm holds a connection only as a transaction, which would add `BEGIN`
//! and `COMMIT` round trips that a single-statement write does not need
//! (docs/performance.md).
//!
//! Statements run exactly as sea-orm runs them on its pool (the same binding of values,
//! the same rows back), and errors come back as the same `DbErr`s, so the adapter's error
//! mapping (unavailable, unique violations) applies unchanged.

use sea_orm::sea_query::Values;
use sea_orm::{
    ConnAcquireErr, ConnectionTrait, DbBackend, DbErr, ExecResult, QueryResult, RuntimeErr,
    Statement,
};
use sea_query_sqlx::SqlxValues;
use sqlx::pool::PoolConnection;
use sqlx::{AssertSqlSafe, PgPool, Postgres};
use tokio::sync::Mutex;

/// A connection out of the pool until dropped. The mutex is never contended (one login,
/// one statement at a time); `ConnectionTrait` takes `&self`.
pub(crate) struct HeldConnection(Mutex<PoolConnection<Postgres>>);

impl HeldConnection {
    pub(crate) async fn acquire(pool: &PgPool) -> Result<Self, DbErr> {
        let connection = pool.acquire().await.map_err(|error| match error {
            sqlx::Error::PoolTimedOut => DbErr::ConnectionAcquire(ConnAcquireErr::Timeout),
            sqlx::Error::PoolClosed => DbErr::ConnectionAcquire(ConnAcquireErr::ConnectionClosed),
            other => DbErr::Conn(RuntimeErr::SqlxError(other.into())),
        })?;
        Ok(Self(Mutex::new(connection)))
    }
}

fn query(statement: &Statement) -> sqlx::query::Query<'_, Postgres, SqlxValues> {
    let values = statement.values.clone().unwrap_or(Values(Vec::new()));
    sqlx::query_with(AssertSqlSafe(statement.sql.as_str()), SqlxValues(values))
}

fn query_error(error: sqlx::Error) -> DbErr {
    DbErr::Query(RuntimeErr::SqlxError(error.into()))
}

fn exec_error(error: sqlx::Error) -> DbErr {
    DbErr::Exec(RuntimeErr::SqlxError(error.into()))
}

#[async_trait::async_trait]
impl ConnectionTrait for HeldConnection {
    fn get_database_backend(&self) -> DbBackend {
        DbBackend::Postgres
    }

    async fn execute_raw(&self, statement: Statement) -> Result<ExecResult, DbErr> {
        let mut connection = self.0.lock().await;
        let done = query(&statement).execute(&mut **connection).await;
        done.map(ExecResult::from).map_err(exec_error)
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<ExecResult, DbErr> {
        let mut connection = self.0.lock().await;
        let done = sqlx::raw_sql(AssertSqlSafe(sql))
            .execute(&mut **connection)
            .await;
        done.map(ExecResult::from).map_err(exec_error)
    }

    async fn query_one_raw(&self, statement: Statement) -> Result<Option<QueryResult>, DbErr> {
        let mut connection = self.0.lock().await;
        let row = query(&statement).fetch_optional(&mut **connection).await;
        row.map(|row| row.map(QueryResult::from))
            .map_err(query_error)
    }

    async fn query_all_raw(&self, statement: Statement) -> Result<Vec<QueryResult>, DbErr> {
        let mut connection = self.0.lock().await;
        let rows = query(&statement).fetch_all(&mut **connection).await;
        rows.map(|rows| rows.into_iter().map(QueryResult::from).collect())
            .map_err(query_error)
    }
}
