//! The repository handle: one connection pool, migrations and transaction helpers.

use crate::error::repository_error;
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
    pub async fn migrate(&self) -> Result<(), RepositoryError> {
        Migrator::up(&self.db, None).await.map_err(repository_error)
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
