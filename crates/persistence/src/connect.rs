//! Opening the connection pool: SQLite and PostgreSQL want different pools.

use crate::SeaOrmRepository;
use crate::error::repository_error;
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{ConnectOptions, Database};
use social_login_ports::RepositoryError;
use std::time::Duration;

/// How long a statement waits for another process's SQLite write lock before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// PostgreSQL pool size: plenty for one instance of the service.
const POSTGRES_MAX_CONNECTIONS: u32 = 10;
/// A request waiting this long for a pooled connection gets `Unavailable` (503).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Connects to `url` (`sqlite:…` or `postgres://…`) without running migrations; call
/// [`SeaOrmRepository::migrate`] next.
pub async fn connect(url: &str) -> Result<SeaOrmRepository, RepositoryError> {
    let mut options = ConnectOptions::new(url);
    // sqlx statement logging would put SQL into the service's logs at INFO; tracing spans
    // are enough.
    options.sqlx_logging(false).acquire_timeout(ACQUIRE_TIMEOUT);
    if url.starts_with("sqlite:") {
        configure_sqlite(&mut options);
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        options
            .max_connections(POSTGRES_MAX_CONNECTIONS)
            .connect_timeout(Duration::from_secs(5));
    } else {
        // The URL itself may carry a password: never echo it.
        return Err(RepositoryError::Internal(
            "database URL must start with sqlite: or postgres://".to_owned(),
        ));
    }
    let db = Database::connect(options).await.map_err(repository_error)?;
    Ok(SeaOrmRepository::new(db))
}

fn configure_sqlite(options: &mut ConnectOptions) {
    // Exactly ONE connection. SQLite allows one writer at a time; with several pooled
    // connections, a transaction that starts by reading (a deferred BEGIN) and then writes
    // must upgrade its lock, and when another connection holds the write lock the upgrade
    // fails at once with SQLITE_BUSY, which busy_timeout cannot wait out. One connection
    // serializes every transaction in the process instead, which is also what makes
    // `remove_link` and `rotate_refresh` race-free here without row locks. The queue is
    // short: SQLite transactions are microseconds.
    options
        .max_connections(1)
        .min_connections(1)
        // Never recycle the only connection: an in-memory database lives only as long
        // as it does.
        .idle_timeout(None)
        .max_lifetime(None)
        .map_sqlx_sqlite_opts(|sqlite| {
            sqlite
                // Readers in other processes (backups, the `migrate` command) do not
                // block the writer, and commits are one append to the log.
                .journal_mode(SqliteJournalMode::Wal)
                // Off by default in SQLite, per connection: without it there is no
                // ON DELETE CASCADE and no foreign-key check on `add_link`.
                .foreign_keys(true)
                // Another process holding the write lock makes us wait, not fail.
                .busy_timeout(SQLITE_BUSY_TIMEOUT)
                // Durable across process crashes in WAL mode; only a power loss may drop
                // the last commits.
                .synchronous(SqliteSynchronous::Normal)
        });
}
