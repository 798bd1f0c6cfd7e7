//! The repository handle: one connection pool, migrations and transaction helpers.

use crate::error::repository_error;
use crate::migration_lock::MigrationLock;
use crate::traced::TracedTransaction;
use sea_orm::{
    DatabaseConnection, DbBackend, SqliteTransactionMode, TransactionOptions, TransactionTrait,
};
use social_login_domain::plan::WritePlan;
use social_login_migrations::{Recorded, apply_pending};
use social_login_ports::{PlanError, RepoResult};
use std::fmt;
use tracing::{Instrument, warn};

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
    /// find none pending. A database a newer release migrated further is served as it is,
    /// with a warning (see [`apply_pending`]).
    pub async fn migrate(&self) -> RepoResult<()> {
        let lock = MigrationLock::acquire(&self.db).await?;
        let migrated = apply_pending(&self.db).await.map_err(repository_error);
        lock.release().await;
        if let Recorded::Newer(newer) = migrated? {
            warn!(
                newer = newer.join(", "),
                "the database was migrated by a newer release; running on its schema"
            );
        }
        Ok(())
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
    ///
    /// Traced (see [`crate::traced::transaction_span`]) until it commits or is dropped.
    #[track_caller]
    pub(crate) fn begin_write(&self) -> impl Future<Output = RepoResult<TracedTransaction>> + '_ {
        let system = match self.db.get_database_backend() {
            DbBackend::Postgres => "postgresql",
            DbBackend::Sqlite => "sqlite",
            _ => "other_sql",
        };
        let span = crate::traced::transaction_span(system, std::panic::Location::caller());
        async move {
            let txn = self
                .db
                .begin_with_options(TransactionOptions {
                    sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                    ..TransactionOptions::default()
                })
                .instrument(span.clone())
                .await
                .map_err(repository_error)?;
            Ok(TracedTransaction::new(txn, span))
        }
    }

    /// Applies `plan` in a transaction of its own: `false`, with nothing written, when a
    /// row it changes went meanwhile (a renewal or a refresh of a link removed since it was
    /// read).
    #[track_caller]
    pub(crate) fn apply_unless_gone(
        &self,
        plan: WritePlan,
    ) -> impl Future<Output = RepoResult<bool>> + '_ {
        let begun = self.begin_write();
        async move {
            let txn = begun.await?;
            let written = PlanError::written_unless_gone(crate::plan::apply(&txn, &plan).await)?;
            if written {
                txn.commit().await.map_err(repository_error)?;
            }
            Ok(written)
        }
    }
}

impl fmt::Debug for SeaOrmRepository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeaOrmRepository")
            .field("backend", &self.db.get_database_backend().as_str())
            .finish()
    }
}
