//! Hand-written statements run through sea-orm, written once for both backends: SQLite's
//! text as is, PostgreSQL's with `$n` placeholders and the claim's row locks.

use crate::error::repository_error;
use sea_orm::{ConnectionTrait, DbBackend, QueryResult, Statement, Value};
use social_login_ports::RepoResult;

/// `sql` with `values`, in the placeholders of `backend`.
pub(crate) fn statement(backend: DbBackend, sql: &str, values: Vec<Value>) -> Statement {
    let text = match backend {
        DbBackend::Postgres => postgres(sql),
        _ => sql.to_owned(),
    };
    Statement::from_sql_and_values(backend, text, values)
}

/// `sql` for PostgreSQL: `$n` placeholders, and `/*lock*/` as `FOR UPDATE SKIP LOCKED`.
fn postgres(sql: &str) -> String {
    sql.replace('?', "$")
        .replace("/*lock*/", "FOR UPDATE SKIP LOCKED")
}

/// The rows `sql` with `values` reads on `db`.
pub(crate) async fn query_all<C: ConnectionTrait>(
    db: &C,
    sql: &str,
    values: Vec<Value>,
) -> RepoResult<Vec<QueryResult>> {
    db.query_all_raw(statement(db.get_database_backend(), sql, values))
        .await
        .map_err(repository_error)
}

/// A count or limit as a bound value (saturating: the columns are signed).
pub(crate) fn count(value: u64) -> Value {
    i64::try_from(value).unwrap_or(i64::MAX).into()
}
