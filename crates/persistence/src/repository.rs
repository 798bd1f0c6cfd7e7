//! The repository handle: one connection pool, migrations and transaction helpers.

use crate::error::repository_error;
use crate::migration_lock::MigrationLock;
use sea_orm::{
    DatabaseConnection, DatabaseTransaction, SqliteTransactionMode, TransactionOptions,
    TransactionTrait,
};
use social_login_migrations::{Migrator, MigratorTrait};
use social_login_ports::RepositoryError;
use std::fmt;

/// Users, linked accounts and refresh tokens in SQLite or PostgreSQL. Cheap to clone:
/// clones share one pool.
#[derive(Clone)]
pub struct SeaOrmRepository {
    db: DatabaseConnection,
}

impl SeaOrmRepository {
    pub(crate) fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Applies pending migrations (`social-login migrate`, and `serve` before it listens).
    ///
    /// Safe to run from several processes at once: each waits for the migration lock (see
    /// [`crate::MIGRATION_LOCK_KEY`]), so one applies the migrations and the others then
    /// find none pending.
    pub async fn migrate(&self) -> Result<(), RepositoryError> {
        let lock = MigrationLock::acquire(&self.db).await?;
        let migrated = Migrator::up(&self.db, None).await.map_err(repository_error);
        lock.release().await;
        migrated
    }

    /// The underlying connection, for tests and operational tooling; the service itself
    /// goes through the ports.
    pub fn connection(&self) -> &DatabaseConnection {
        &self.db
    }

    /// Starts a transaction that will write. On SQLite it is `BEGIN IMMEDIATE`: the write
    /// lock is taken up front, where `busy_timeout` waits for another process to release
    /// it, instead of at the first write, where an upgrade conflict fails at once.
    /// PostgreSQL ignores the mode.
    pub(crate) async fn begin_write(&self) -> Result<DatabaseTransaction, RepositoryError> {
        self.db
            .begin_with_options(TransactionOptions {
                sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                ..TransactionOptions::default()
            })
            .await
            .map_err(repository_error)
    }
}

impl fmt::Debug for SeaOrmRepository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeaOrmRepository")
            .field("backend", &self.db.get_database_backend().as_str())
            .finish()
    }
}
