//! Hand-written statements run through sea-orm, written once for both backends: SQLite's
//! text as is, PostgreSQL's with `$n` placeholders and the claim's row locks.

use sea_orm::{DbBackend, Statement, Value};

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
