//! Reading and writing column values as sea-orm stores them on SQLite, and running the
//! statements kept on the connection (`statements::Db`) with their errors translated at the
//! seam.

use super::statements::Db;
use crate::entity::{audit_event, user};
use crate::mapping::LinkColumns;
use rusqlite::types::Type;
use rusqlite::{OptionalExtension, Params, Row};
use social_login_ports::{RepoResult, RepositoryError};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use uuid::Uuid;

/// A UUID column (16-byte blob).
pub(crate) fn uuid_at(row: &Row, index: usize) -> rusqlite::Result<Uuid> {
    row.get::<_, [u8; 16]>(index).map(Uuid::from_bytes)
}

/// A time column (RFC 3339 text, as sqlx writes it).
pub(crate) fn time_at(row: &Row, index: usize) -> rusqlite::Result<OffsetDateTime> {
    let text = row.get_ref(index)?.as_str()?;
    OffsetDateTime::parse(text, &Rfc3339)
        .map_err(|error| rusqlite::Error::FromSqlConversionFailure(index, Type::Text, error.into()))
}

/// A count or limit as SQLite's integer, saturating (a limit that large means no limit).
pub(crate) fn count(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// A time as stored.
pub(crate) fn time_text(at: OffsetDateTime) -> RepoResult<String> {
    at.format(&Rfc3339)
        .map_err(|_| RepositoryError::Internal("a time RFC 3339 cannot write".into()))
}

/// The nine columns of `sql::USER_BY_ID`, starting at `first`.
pub(crate) fn user_at(row: &Row, first: usize) -> rusqlite::Result<user::Model> {
    Ok(user::Model {
        id: uuid_at(row, first)?,
        email: row.get(first + 1)?,
        email_normalized: row.get(first + 2)?,
        full_name: row.get(first + 3)?,
        avatar_url: row.get(first + 4)?,
        email_verified: row.get(first + 5)?,
        password_hash: row.get(first + 6)?,
        created_at: time_at(row, first + 7)?,
        locked: row.get(first + 8)?,
    })
}

/// The eight columns of `sql::LINKS_OF`.
pub(crate) fn link_at(row: &Row) -> rusqlite::Result<LinkColumns> {
    Ok(LinkColumns {
        id: uuid_at(row, 0)?,
        user_id: uuid_at(row, 1)?,
        provider: row.get(2)?,
        subject: row.get(3)?,
        email: row.get(4)?,
        created_at: time_at(row, 5)?,
        scopes: row.get(6)?,
        disabled: row.get(7)?,
    })
}

/// The columns of `sql::EVENTS_OF`.
pub(crate) fn event_at(row: &Row) -> rusqlite::Result<audit_event::Model> {
    Ok(audit_event::Model {
        id: uuid_at(row, 0)?,
        user_id: uuid_at(row, 1)?,
        r#type: row.get(2)?,
        provider: row.get(3)?,
        ip: row.get(4)?,
        user_agent: row.get(5)?,
        request_id: row.get(6)?,
        created_at: time_at(row, 7)?,
        admin_key_id: row.get(8)?,
        via: row.get(9)?,
    })
}

/// Runs a kept statement; the number of rows it changed.
pub(crate) fn execute(db: &Db, sql: &'static str, params: impl Params) -> RepoResult<usize> {
    execute_raw(db, sql, params).map_err(failed)
}

/// [`execute`] with the SQLite error kept, for the callers that give a constraint a meaning.
pub(crate) fn execute_raw(
    db: &Db,
    sql: &'static str,
    params: impl Params,
) -> rusqlite::Result<usize> {
    db.with(sql, |statement| statement.execute(params))
}

/// The first row, if any.
pub(crate) fn query_one<T>(
    db: &Db,
    sql: &'static str,
    params: impl Params,
    read: impl FnOnce(&Row) -> rusqlite::Result<T>,
) -> RepoResult<Option<T>> {
    db.with(sql, |statement| {
        statement.query_row(params, read).optional()
    })
    .map_err(failed)
}

/// Every row.
pub(crate) fn query_all<T>(
    db: &Db,
    sql: &'static str,
    params: impl Params,
    read: impl FnMut(&Row) -> rusqlite::Result<T>,
) -> RepoResult<Vec<T>> {
    db.with(sql, |statement| {
        statement.query_map(params, read)?.collect()
    })
    .map_err(failed)
}

/// What a failed statement violated, if it was a constraint of ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Violation {
    Unique(crate::error::UniqueIndex),
    ForeignKey,
}

pub(crate) fn violation(error: &rusqlite::Error) -> Option<Violation> {
    let rusqlite::Error::SqliteFailure(failure, message) = error else {
        return None;
    };
    match failure.extended_code {
        rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE => message
            .as_deref()
            .and_then(crate::error::unique_index_in)
            .map(Violation::Unique),
        rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY => Some(Violation::ForeignKey),
        _ => None,
    }
}

/// The catch-all translation: another process holding the write lock past the busy
/// timeout, or a file that cannot be read or written, is `Unavailable` (503); the rest
/// `Internal`.
pub(crate) fn failed(error: rusqlite::Error) -> RepositoryError {
    use rusqlite::ErrorCode::*;
    match error.sqlite_error_code() {
        Some(DatabaseBusy | DatabaseLocked | CannotOpen | SystemIoFailure | DiskFull) => {
            RepositoryError::Unavailable(error.to_string())
        }
        _ => RepositoryError::Internal(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::UniqueIndex;
    use rusqlite::Connection;

    fn schema() -> Connection {
        let db = Connection::open_in_memory().unwrap();
        db.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE users (id BLOB PRIMARY KEY, email_normalized TEXT);
             CREATE UNIQUE INDEX ux_users_email_normalized ON users (email_normalized);
             CREATE TABLE links (user_id BLOB REFERENCES users (id));",
        )
        .unwrap();
        db
    }

    #[test]
    fn a_unique_violation_names_its_index_and_a_missing_parent_is_a_foreign_key() {
        let connection = schema();
        let db = Db::new(&connection);
        let insert = "INSERT INTO users (id, email_normalized) VALUES (?1, 'a@example.com')";
        execute(&db, insert, [&[1_u8][..]]).unwrap();
        let twice = execute_raw(&db, insert, [&[2_u8][..]]).unwrap_err();
        assert_eq!(
            violation(&twice),
            Some(Violation::Unique(UniqueIndex::UserEmail))
        );
        let orphan = execute_raw(&db, "INSERT INTO links (user_id) VALUES (x'09')", []);
        assert_eq!(violation(&orphan.unwrap_err()), Some(Violation::ForeignKey));
        let syntax = execute_raw(&db, "INSERT INTO nowhere VALUES (1)", []).unwrap_err();
        assert_eq!(violation(&syntax), None);
        assert!(matches!(failed(syntax), RepositoryError::Internal(_)));
    }

    #[test]
    fn times_read_back_as_written_and_other_text_is_an_error() {
        let db = Connection::open_in_memory().unwrap();
        let at = OffsetDateTime::from_unix_timestamp_nanos(1_795_587_540_123_456_789).unwrap();
        let text = time_text(at).unwrap();
        assert_eq!(text, "2026-11-25T06:19:00.123456789Z");
        let read = db
            .query_row("SELECT ?1", [&text], |row| time_at(row, 0))
            .unwrap();
        assert_eq!(read, at);
        assert!(
            db.query_row("SELECT 'yesterday'", [], |row| time_at(row, 0))
                .is_err()
        );
    }
}
