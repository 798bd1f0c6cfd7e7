//! One migrator at a time per database: replicas that start together must not apply the
//! same migration twice (the loser would fail on "table already exists").
//!
//! PostgreSQL: a session advisory lock on a connection of its own, outside the pool, so a
//! pool of one still has a connection left for the migrations, and a migrator that dies
//! releases the lock with its session. SQLite: an exclusive lock on a file beside the
//! database; the operating system releases it when the process dies.

use crate::error::sqlx_error;
use sea_orm::sqlx::{self, Connection, PgConnection};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement};
use social_login_ports::{RepoResult, RepositoryError};
use std::fs::{File, Permissions, TryLockError};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The advisory lock key every instance takes around its migrations: "sl-migra" in ASCII.
/// Visible in `pg_locks` (`objid` holds its low 32 bits).
pub const MIGRATION_LOCK_KEY: i64 = 0x736c_2d6d_6967_7261;

/// How long a migrator waits for another one to finish before giving up. Our migrations
/// take milliseconds; a minute means the holder is stuck, and start-up should say so.
const LOCK_WAIT: Duration = Duration::from_secs(60);
/// Polling step while another process holds the SQLite lock file.
const FILE_LOCK_POLL: Duration = Duration::from_millis(50);

/// Held while migrations run; give it back with [`MigrationLock::release`].
pub(crate) enum MigrationLock {
    Postgres(PgConnection),
    /// Unlocked when the file closes; `None` for an in-memory database, which no other
    /// process can see.
    SqliteFile(Option<File>),
}

impl MigrationLock {
    /// Waits (at most [`LOCK_WAIT`]) until no other migrator holds the lock, and takes it.
    pub(crate) async fn acquire(db: &DatabaseConnection) -> RepoResult<Self> {
        match db.get_database_backend() {
            DbBackend::Postgres => lock_postgres(db).await.map(Self::Postgres),
            _ => lock_sqlite_file(db).await.map(Self::SqliteFile),
        }
    }

    /// Gives the lock back. Errors are ignored: closing the session or the file releases
    /// it anyway.
    pub(crate) async fn release(self) {
        match self {
            Self::Postgres(mut session) => {
                let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                    .bind(MIGRATION_LOCK_KEY)
                    .execute(&mut session)
                    .await;
                let _ = session.close().await;
            }
            Self::SqliteFile(file) => {
                if let Some(file) = file {
                    let _ = file.unlock();
                }
            }
        }
    }
}

async fn lock_postgres(db: &DatabaseConnection) -> RepoResult<PgConnection> {
    let options = db.get_postgres_connection_pool().connect_options();
    let mut session = PgConnection::connect_with(&options)
        .await
        .map_err(sqlx_error)?;
    // lock_timeout bounds the wait for an advisory lock too; the server enforces it.
    let timeout = format!("SET lock_timeout = {}", LOCK_WAIT.as_millis());
    sqlx::raw_sql(sqlx::AssertSqlSafe(timeout))
        .execute(&mut session)
        .await
        .map_err(sqlx_error)?;
    let locked = sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(MIGRATION_LOCK_KEY)
        .execute(&mut session)
        .await;
    match locked {
        Ok(_) => Ok(session),
        Err(error) => {
            let _ = session.close().await;
            if lock_timed_out(&error) {
                Err(RepositoryError::Unavailable(format!(
                    "another instance held the migration lock for more than {} s",
                    LOCK_WAIT.as_secs()
                )))
            } else {
                Err(sqlx_error(error))
            }
        }
    }
}

/// 55P03 `lock_not_available`: lock_timeout expired.
fn lock_timed_out(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .and_then(|db| db.code())
        .is_some_and(|code| code == "55P03")
}

async fn lock_sqlite_file(db: &DatabaseConnection) -> RepoResult<Option<File>> {
    let Some(path) = lock_file_path(db).await? else {
        return Ok(None);
    };
    let unavailable = |error: std::io::Error| {
        RepositoryError::Unavailable(format!("migration lock file: {error}"))
    };
    // Owner-only, like the database: a lock any local user could open (even read-only,
    // flock does not care) is a lock any local user could hold, keeping every instance from
    // starting. The lock is taken on this descriptor, opened for reading and writing.
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(crate::sqlite::OWNER_ONLY)
        .open(&path)
        .map_err(unavailable)?;
    // An older version created it 0644; `mode` above applies to a new file only.
    let current = file.metadata().map_err(unavailable)?.permissions().mode();
    if current & 0o077 != 0 {
        file.set_permissions(Permissions::from_mode(crate::sqlite::OWNER_ONLY))
            .map_err(unavailable)?;
    }
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Some(file)),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                tokio::time::sleep(FILE_LOCK_POLL).await;
            }
            Err(TryLockError::WouldBlock) => {
                return Err(RepositoryError::Unavailable(format!(
                    "another process held the migration lock for more than {} s",
                    LOCK_WAIT.as_secs()
                )));
            }
            Err(TryLockError::Error(error)) => return Err(unavailable(error)),
        }
    }
}

/// `<database file>.migrate-lock`, or `None` for an in-memory database. SQLite itself says
/// where the database is: the URL may be relative, percent-encoded or carry options.
async fn lock_file_path(db: &DatabaseConnection) -> RepoResult<Option<PathBuf>> {
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            "SELECT file FROM pragma_database_list WHERE name = 'main'",
        ))
        .await
        .map_err(crate::error::repository_error)?;
    let file: String = match row {
        Some(row) => row
            .try_get_by_index(0)
            .map_err(crate::error::repository_error)?,
        None => String::new(),
    };
    // An in-memory database has an empty file name.
    Ok((!file.is_empty()).then(|| PathBuf::from(format!("{file}.migrate-lock"))))
}
