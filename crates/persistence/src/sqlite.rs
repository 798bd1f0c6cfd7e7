//! The repository ports on SQLite through rusqlite: one connection on a thread of its own,
//! one job per port call, cached prepared statements. Each write is all or nothing, in a
//! `BEGIN IMMEDIATE` transaction it shares with the writes queued beside it (`group_commit`).
//!
//! Why not sea-orm here: its async API reaches SQLite only through sqlx, whose driver sends
//! every statement to a worker thread and back; a login's seven statements were then half
//! the service's CPU in thread hand-offs. The schema and migrations stay sea-orm's, and the
//! same contract suite runs on both adapters.

mod admin;
mod audit;
mod checkpoints;
mod columns;
mod group_commit;
pub(crate) mod open;
mod outbox;
mod plan;
mod refresh;
mod relay;
mod rows;
mod sign_in;
mod signals;
mod sql;
mod statements;
mod users;
mod worker;

use crate::DatabaseOptions;
use checkpoints::Checkpointer;
use rusqlite::{Transaction, TransactionBehavior};
use social_login_ports::{PlanError, RepoResult, RepositoryError};
use statements::Db;
use std::fmt;
use tracing::Instrument;
use worker::Worker;

pub(crate) use open::{OWNER_ONLY, sqlite_file};

/// Users, linked accounts, refresh tokens, audit events and the webhook outbox in one
/// SQLite file. Cheap to clone: clones share the connection's thread.
#[derive(Clone)]
pub struct SqliteRepository {
    worker: Worker,
    options: DatabaseOptions,
}

impl SqliteRepository {
    /// Opens (or, with `mode=rwc`, creates) the file a `sqlite:` URL names. Migrations are
    /// separate: [`SqliteRepository::migrate`].
    pub async fn open(options: &DatabaseOptions) -> RepoResult<Self> {
        let file = sqlite_file(&options.url)?;
        let (serving, checkpointing) =
            tokio::task::spawn_blocking(move || open::connect_serving_and_checkpointing(&file))
                .await
                .map_err(|error| RepositoryError::Internal(error.to_string()))??;
        Ok(Self {
            worker: Worker::start(serving, Some(Checkpointer::start(checkpointing)?))?,
            options: options.clone(),
        })
    }

    /// Applies pending migrations with sea-orm's migrator (on a connection of its own, under
    /// the same migration lock as every other migrator of this file).
    pub async fn migrate(&self) -> RepoResult<()> {
        let migrator = crate::connect(&self.options).await?;
        let migrated = migrator.migrate().await;
        migrator.connection().close_by_ref().await.ok();
        migrated
    }

    /// Runs `job` on the connection's thread.
    async fn call<T, E>(
        &self,
        job: impl FnOnce(&Db) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<RepositoryError> + Send + 'static,
    {
        self.worker.run(job).await?
    }

    /// Runs `body` on the connection's thread as one write transaction: all of it or none,
    /// answered once committed (committed with the writes queued beside it, see
    /// `group_commit`). `body` may run more than once: when a write after it in its
    /// transaction fails after changing rows, the transaction is undone and run again without
    /// that one. It changes the database only with INSERT, UPDATE and DELETE: SQLite counts
    /// the rows those change, which tells a failed body that changed nothing from one that
    /// must be undone (it does not count DDL or a PRAGMA).
    ///
    /// Traced as one transaction (see [`crate::traced::transaction_span`]), its wait for the
    /// connection's thread included.
    #[track_caller]
    fn transact<T, E>(
        &self,
        body: impl Fn(&Db) -> Result<T, E> + Send + 'static,
    ) -> impl Future<Output = Result<T, E>> + '_
    where
        T: Send + 'static,
        E: From<RepositoryError> + Send + 'static,
    {
        let span = crate::traced::transaction_span("sqlite", std::panic::Location::caller());
        let written = self.worker.write(body).instrument(span.clone());
        async move {
            // The worker's thread commits it, whether or not this caller waits for that.
            (crate::traced::Outcome::of(span))
                .commit(written, Result::is_ok)
                .await
        }
    }
}

impl SqliteRepository {
    /// Applies `plan` in a write transaction of its own: `false`, with nothing written,
    /// when a row it changes went meanwhile (as `SeaOrmRepository::apply_unless_gone`).
    #[track_caller]
    fn apply_unless_gone(
        &self,
        plan: social_login_domain::plan::WritePlan,
    ) -> impl Future<Output = RepoResult<bool>> + '_ {
        let written = self.transact(move |tx| plan::apply(tx, &plan));
        async move { PlanError::written_unless_gone(written.await) }
    }
}

/// Runs `body` in a `BEGIN IMMEDIATE` transaction (the write lock taken up front, where
/// `busy_timeout` waits for another process, instead of at the first write) and commits
/// when it succeeds; on an error the transaction is dropped, which rolls it back.
fn write<T, E: From<RepositoryError>>(
    db: &Db,
    body: impl FnOnce(&Db) -> Result<T, E>,
) -> Result<T, E> {
    // Unchecked: the statements borrow the connection, so no `&mut` exists to check with;
    // the thread runs one job at a time, and no job leaves a transaction open.
    let transaction =
        Transaction::new_unchecked(db, TransactionBehavior::Immediate).map_err(columns::failed)?;
    let done = body(db)?;
    transaction.commit().map_err(columns::failed)?;
    Ok(done)
}

#[cfg(test)]
mod explain;

impl fmt::Debug for SqliteRepository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteRepository").finish_non_exhaustive()
    }
}
