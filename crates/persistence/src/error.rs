//! Translation of `DbErr` at the seam: constraint violations become typed outcomes,
//! connectivity problems `Unavailable`, everything else `Internal`.

use sea_orm::sqlx;
use sea_orm::{DbErr, RuntimeErr, SqlErr};
use social_login_migrations::names;
use social_login_ports::RepositoryError;

/// The unique indexes whose violation means something to a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UniqueIndex {
    UserEmail,
    LinkProviderSubject,
    LinkUserProvider,
}

/// Each index with the two ways a violation names it: PostgreSQL quotes the index name
/// (`... violates unique constraint "ux_users_email_normalized"`), SQLite lists the indexed
/// columns (`UNIQUE constraint failed: users.email_normalized`).
impl From<UniqueIndex> for social_login_ports::repository_error::Taken {
    fn from(index: UniqueIndex) -> Self {
        match index {
            UniqueIndex::UserEmail => Self::Email,
            UniqueIndex::LinkProviderSubject => Self::ProviderAccount,
            UniqueIndex::LinkUserProvider => Self::UserProvider,
        }
    }
}

const UNIQUE_INDEXES: [(UniqueIndex, &str, &str); 3] = [
    (
        UniqueIndex::UserEmail,
        names::UX_USERS_EMAIL_NORMALIZED,
        "users.email_normalized",
    ),
    (
        UniqueIndex::LinkProviderSubject,
        names::UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT,
        "linked_accounts.provider, linked_accounts.subject",
    ),
    (
        UniqueIndex::LinkUserProvider,
        names::UX_LINKED_ACCOUNTS_USER_PROVIDER,
        "linked_accounts.user_id, linked_accounts.provider",
    ),
];

/// Which of our unique indexes `err` violated, if it is a violation of one of them.
pub(crate) fn unique_violation(err: &DbErr) -> Option<UniqueIndex> {
    let Some(SqlErr::UniqueConstraintViolation(message)) = err.sql_err() else {
        return None;
    };
    unique_index_in(&message)
}

/// The unique index a violation message names, on either database.
pub(crate) fn unique_index_in(message: &str) -> Option<UniqueIndex> {
    UNIQUE_INDEXES
        .iter()
        .find(|(_, name, sqlite_columns)| {
            message.contains(&format!("\"{name}\"")) || message.ends_with(sqlite_columns)
        })
        .map(|(index, _, _)| *index)
}

pub(crate) fn is_foreign_key_violation(err: &DbErr) -> bool {
    matches!(
        err.sql_err(),
        Some(SqlErr::ForeignKeyConstraintViolation(_))
    )
}

/// The catch-all translation, for errors that no operation gives a meaning of its own.
pub(crate) fn repository_error(err: DbErr) -> RepositoryError {
    if is_unavailable(&err) {
        RepositoryError::Unavailable(err.to_string())
    } else {
        RepositoryError::Internal(err.to_string())
    }
}

/// Translation of a bare sqlx error (connections the adapter opens itself, outside sea-orm).
pub(crate) fn sqlx_error(err: sqlx::Error) -> RepositoryError {
    if is_unavailable_sqlx(&err) {
        RepositoryError::Unavailable(err.to_string())
    } else {
        RepositoryError::Internal(err.to_string())
    }
}

/// Stored data that does not make a valid domain value: a bug or a tampered row, never
/// the caller's fault.
pub(crate) fn corrupt(what: &str) -> RepositoryError {
    RepositoryError::Internal(format!("stored {what} is invalid"))
}

fn is_unavailable(err: &DbErr) -> bool {
    match err {
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => true,
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => {
            is_unavailable_sqlx(e)
        }
        _ => false,
    }
}

/// SQLite's "database is locked" (SQLITE_BUSY, SQLITE_LOCKED and their extended codes):
/// another connection holds a lock this one needs.
pub(crate) fn is_sqlite_busy(err: &DbErr) -> bool {
    let (DbErr::Conn(RuntimeErr::SqlxError(e))
    | DbErr::Exec(RuntimeErr::SqlxError(e))
    | DbErr::Query(RuntimeErr::SqlxError(e))) = err
    else {
        return false;
    };
    let sqlx::Error::Database(db) = e.as_ref() else {
        return false;
    };
    db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some()
        && db
            .code()
            .is_some_and(|code| SQLITE_BUSY_CODES.contains(&code.as_ref()))
}

/// SQLITE_BUSY, SQLITE_LOCKED and their extended codes.
const SQLITE_BUSY_CODES: [&str; 5] = ["5", "6", "261", "262", "517"];

/// SQLSTATEs of a transaction PostgreSQL rolled back whole to settle a conflict.
const ROLLED_BACK_FOR_A_CONFLICT: [&str; 2] = ["40001", "40P01"];

fn is_unavailable_sqlx(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                // Another process held the write lock past `busy_timeout`.
                SQLITE_BUSY_CODES.contains(&code.as_ref())
            } else {
                // PostgreSQL classes 08 (connection exception), 53 (insufficient
                // resources) and 57P (server shutting down or starting up), and a
                // transaction the server rolled back to settle a conflict (40001 a
                // serialization failure, 40P01 a deadlock): nothing of it was written, and
                // trying again works.
                code.starts_with("08")
                    || code.starts_with("53")
                    || code.starts_with("57P")
                    || ROLLED_BACK_FOR_A_CONFLICT.contains(&code.as_ref())
            }
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
