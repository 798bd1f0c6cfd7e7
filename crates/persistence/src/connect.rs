//! Opening the connection pool: SQLite and PostgreSQL want different pools.

use crate::SeaOrmRepository;
use crate::error::{is_sqlite_busy, repository_error};
use crate::sqlite::open::{SQLITE_BUSY_RETRY, SQLITE_BUSY_TIMEOUT, create_owner_only, sqlite_file};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{ConnectOptions, Database, DatabaseConnection, DbErr};
use social_login_ports::{RepoResult, RepositoryError};
use std::time::{Duration, Instant};

/// A request waiting this long for a pooled connection, including opening a new one while
/// the server refuses connections, gets `Unavailable` (503).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// A pooled PostgreSQL connection idle this long is pinged before it is handed out.
pub const POSTGRES_PING_IF_IDLE_FOR: Duration = Duration::from_secs(1);
/// PostgreSQL connections idle this long are closed, down to none: a quiet instance holds
/// no server slots, and a connection a proxy or firewall silently dropped is not kept.
const POSTGRES_IDLE_TIMEOUT: Duration = Duration::from_secs(10 * 60);
/// PostgreSQL connections are replaced after this long, so a failover or a DNS change
/// reaches every connection in bounded time.
const POSTGRES_MAX_LIFETIME: Duration = Duration::from_secs(30 * 60);

/// What [`connect`] opens.
#[derive(derive_more::Debug, Clone, PartialEq, Eq)]
pub struct DatabaseOptions {
    /// `sqlite:…` or `postgres://…`. May hold a password: `Debug` prints only the scheme.
    #[debug("{}:…", url.split(':').next().unwrap_or_default())]
    pub url: String,
    /// Size of the PostgreSQL pool. SQLite ignores it: it always gets exactly one
    /// connection (see `configure_sqlite`).
    pub max_connections: u32,
}

impl DatabaseOptions {
    /// PostgreSQL pool size unless configured: plenty for one instance of the service.
    pub const DEFAULT_MAX_CONNECTIONS: u32 = 10;

    /// `url` with the default pool size.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
        }
    }
}

/// Connects without running migrations; call [`SeaOrmRepository::migrate`] next.
pub async fn connect(database: &DatabaseOptions) -> RepoResult<SeaOrmRepository> {
    let url = database.url.as_str();
    let mut options = ConnectOptions::new(url);
    // sqlx statement logging would put SQL into the service's logs at INFO; tracing spans
    // are enough.
    options.sqlx_logging(false).acquire_timeout(ACQUIRE_TIMEOUT);
    if url.starts_with("sqlite:") {
        // sqlx would create a new file 0644 (less the umask); the adapter's parser knows the
        // URLs the service accepts, and any other (an in-memory database) has no file.
        if let Ok(file) = sqlite_file(url)
            && file.create
        {
            create_owner_only(&file.path)?;
        }
        configure_sqlite(&mut options);
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        configure_postgres(&mut options, database.max_connections);
    } else {
        // The URL itself may carry a password: never echo it.
        return Err(RepositoryError::Internal(
            "database URL must start with sqlite: or postgres://".to_owned(),
        ));
    }
    let db = open(options).await.map_err(repository_error)?;
    Ok(SeaOrmRepository::new(db))
}

/// `Database::connect`, retried for up to [`SQLITE_BUSY_TIMEOUT`] while SQLite answers
/// "database is locked". Opening a new file switches it to WAL, which needs the exclusive
/// lock; when several processes open it at once, SQLite refuses one of them at once rather
/// than wait, to avoid a lock-upgrade deadlock (<https://sqlite.org/c3ref/busy_handler.html>),
/// and leaves the retry to us.
async fn open(options: ConnectOptions) -> Result<DatabaseConnection, DbErr> {
    let deadline = Instant::now() + SQLITE_BUSY_TIMEOUT;
    loop {
        match Database::connect(options.clone()).await {
            Err(error) if is_sqlite_busy(&error) && Instant::now() < deadline => {
                tokio::time::sleep(SQLITE_BUSY_RETRY).await;
            }
            outcome => return outcome,
        }
    }
}

/// A pool that survives the server going away and coming back, without a restart: no
/// connection is handed out unchecked, and none is kept forever.
fn configure_postgres(options: &mut ConnectOptions, max_connections: u32) {
    options
        // sqlx panics on a pool of zero; validation refuses it before we get here.
        .max_connections(max_connections.max(1))
        // A checkout pings a connection that sat idle for a second or more (one round
        // trip): one that died while idle, say across a server restart, is then replaced
        // instead of failing the request that drew it. A connection back from a request
        // less than a second ago is handed out as it is: sqlx has just pinged it on its
        // return, and pinging again would add a round trip to every query under load.
        .test_before_acquire_if_idle_for(POSTGRES_PING_IF_IDLE_FOR)
        .idle_timeout(POSTGRES_IDLE_TIMEOUT)
        .max_lifetime(POSTGRES_MAX_LIFETIME);
    // No `connect_timeout` here: sea-orm maps it onto sqlx's acquire timeout, which
    // ACQUIRE_TIMEOUT already sets and which also bounds opening a connection.
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
