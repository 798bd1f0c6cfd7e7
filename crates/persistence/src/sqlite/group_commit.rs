//! Group commit: the writes waiting for the connection share one transaction, each inside a
//! savepoint of its own, and are answered once that transaction has committed.
//!
//! Why: on SQLite a commit costs per page it writes to the log, and most of a login's pages
//! (the tail of the audit table, of the sessions, the indexes' upper levels) are the same
//! pages the next login writes. Writes that queued up while the thread was busy are one
//! commit instead of one each.
//!
//! What each write keeps:
//! - **All or nothing, alone.** A write that fails (or panics) is rolled back to its
//!   savepoint; the writes beside it are not touched.
//! - **Answered after its commit.** No answer leaves before the commit that holds it (and
//!   a commit survives a process crash; with `synchronous = NORMAL` a power loss may still
//!   drop the last ones), so nobody acts on a write that a failed commit or a `kill -9`
//!   undid. When the commit fails, every write in it gets the commit's error, a refusal
//!   too: it may have been decided on another write's rows that were never committed.
//! - **Serial.** The writes run one after the other on one connection, exactly as they
//!   would one transaction each: a later write reads what an earlier one wrote.

use super::columns::failed;
use rusqlite::Connection;
use social_login_ports::RepositoryError;
use std::panic::{AssertUnwindSafe, catch_unwind};
use tokio::sync::oneshot;

/// Writes in one commit at most: bounds how long the first of them waits for its answer.
pub(crate) const MOST_PER_COMMIT: usize = 32;

/// One write transaction's body and the caller waiting for its answer.
pub(crate) trait Write: Send {
    /// Runs the body on the shared transaction; false when it failed and must be undone.
    fn run(&mut self, db: &Connection) -> bool;
    /// Sends the answer: the body's own when the commit succeeded, else the commit's error.
    fn answer(self: Box<Self>, commit: Result<(), RepositoryError>);
}

/// A [`Write`] of a body returning `Result<T, E>`.
pub(crate) struct Pending<F, T, E> {
    body: Option<F>,
    outcome: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<F, T, E> Pending<F, T, E> {
    pub(crate) fn new(body: F, reply: oneshot::Sender<Result<T, E>>) -> Self {
        Self {
            body: Some(body),
            outcome: None,
            reply,
        }
    }
}

impl<F, T, E> Write for Pending<F, T, E>
where
    F: FnOnce(&Connection) -> Result<T, E> + Send,
    T: Send,
    E: From<RepositoryError> + Send,
{
    fn run(&mut self, db: &Connection) -> bool {
        let Some(body) = self.body.take() else {
            return false;
        };
        let outcome = body(db);
        let succeeded = outcome.is_ok();
        self.outcome = Some(outcome);
        succeeded
    }

    fn answer(self: Box<Self>, commit: Result<(), RepositoryError>) {
        let answer = match (self.outcome, commit) {
            // First: a refusal may rest on rows of another write that never committed.
            (_, Err(error)) => Err(error.into()),
            (Some(outcome), Ok(())) => outcome,
            // Never ran to the end: it panicked.
            (None, Ok(())) => {
                Err(RepositoryError::Internal("a sqlite write panicked".into()).into())
            }
        };
        let _ = self.reply.send(answer);
    }
}

/// Runs `writes` in `BEGIN IMMEDIATE` transactions, as few as it can (one, unless SQLite
/// rolled a transaction back by itself), and answers each after its commit.
pub(crate) fn commit_together(db: &Connection, writes: Vec<Box<dyn Write>>) {
    let mut waiting = writes.into_iter();
    while !waiting.as_slice().is_empty() {
        if !db.is_autocommit() {
            // Only a failed ROLLBACK leaves a transaction open; it would fail every write.
            let _ = step(db, "ROLLBACK");
        }
        if let Err(error) = step(db, "BEGIN IMMEDIATE") {
            let error = failed(error);
            waiting.for_each(|write| write.answer(Err(error.clone())));
            return;
        }
        // A write alone needs no savepoint: its transaction is its own.
        let savepoints = waiting.len() > 1;
        let mut ran = Vec::new();
        let (mut undo, mut lost) = (false, None);
        for mut write in waiting.by_ref() {
            let may_commit = run_one(db, &mut *write, savepoints);
            ran.push(write);
            match may_commit {
                Ok(may_commit) => undo |= !may_commit,
                Err(error) => {
                    lost = Some(error);
                    break;
                }
            }
        }
        let end = match lost {
            Some(error) => Err(error),
            None if undo => step(db, "ROLLBACK").map_err(failed),
            None => step(db, "COMMIT").map_err(failed),
        };
        if end.is_err() && !db.is_autocommit() {
            // A failed COMMIT leaves the transaction open.
            let _ = step(db, "ROLLBACK");
        }
        ran.into_iter().for_each(|write| write.answer(end.clone()));
    }
}

/// Runs one write, in a savepoint when others share its transaction, and says whether the
/// transaction may commit as it stands: false for a failed write without a savepoint
/// (roll it all back). An error means the whole transaction is lost (SQLite rolled it back
/// after an I/O error, say): nothing of the writes before it in it may be answered as done.
fn run_one(
    db: &Connection,
    write: &mut dyn Write,
    savepoint: bool,
) -> Result<bool, RepositoryError> {
    if savepoint {
        step(db, "SAVEPOINT write").map_err(failed)?;
    }
    let succeeded = catch_unwind(AssertUnwindSafe(|| write.run(db))).unwrap_or(false);
    if db.is_autocommit() {
        return Err(RepositoryError::Unavailable(
            "SQLite rolled the transaction back".into(),
        ));
    }
    if !savepoint {
        return Ok(succeeded);
    }
    if !succeeded {
        step(db, "ROLLBACK TO write").map_err(failed)?;
    }
    step(db, "RELEASE write").map_err(failed)?;
    Ok(true)
}

/// Runs one statement without a result, prepared once per connection.
fn step(db: &Connection, sql: &str) -> rusqlite::Result<()> {
    db.prepare_cached(sql)?.execute([]).map(drop)
}

#[cfg(test)]
mod tests;
