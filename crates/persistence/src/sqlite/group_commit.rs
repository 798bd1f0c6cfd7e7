//! Group commit: the writes waiting for the connection share one transaction and are
//! answered once it has committed.
//!
//! Why: on SQLite a commit costs per page it writes to the log, and most of a login's pages
//! (the tail of the audit table, of the sessions, the indexes' upper levels) are the same
//! pages the next login writes. Writes that queued up while the thread was busy are one
//! commit instead of one each.
//!
//! What each write keeps:
//! - **All or nothing, alone.** A write that fails (or panics) having changed nothing, a
//!   refusal, simply is not committed. One that fails after changing rows (a bug, or a
//!   constraint it did not expect) undoes the whole transaction and is taken out: the writes
//!   before it run again (those after it had not run yet) and commit without it, and then it
//!   runs once more, in a transaction of its own, on the rows they committed, and is
//!   answered from that run. A body may therefore run more than once (once more for each
//!   write after it that is taken out, 32 at most): it takes its inputs by reference (`Fn`)
//!   and decides on the rows it reads. No savepoints: SQLite copies every page a savepoint
//!   changes into a journal first, which was a twentieth of a login's instructions, for a
//!   failure that does not happen in a normal day.
//! - **Answered after its commit.** No answer leaves before the commit that holds it (and
//!   a commit survives a process crash; with `synchronous = NORMAL` a power loss may still
//!   drop the last ones), so nobody acts on a write that a failed commit or a `kill -9`
//!   undid. When the commit fails, every write in it gets the commit's error, a refusal
//!   too: it may have been decided on another write's rows that were never committed.
//! - **Serial.** The writes run one after the other on one connection, exactly as they
//!   would one transaction each: a later write reads what an earlier one wrote.

use super::columns::{execute_raw, failed};
use super::statements::Db;
use social_login_ports::{RepoResult, RepositoryError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use tokio::sync::oneshot;

/// Writes in one commit at most: bounds how long the first of them waits for its answer.
pub(crate) const MOST_PER_COMMIT: usize = 32;

/// One write transaction's body and the caller waiting for its answer.
pub(crate) trait Write: Send {
    /// Runs the body on the shared transaction (again, when the transaction was undone for
    /// another write's sake); false when it failed.
    fn run(&mut self, db: &Db) -> bool;
    /// Sends the answer: the body's own when the commit succeeded, else the commit's error.
    fn answer(self: Box<Self>, commit: RepoResult<()>);
}

/// A [`Write`] of a body returning `Result<T, E>`.
pub(crate) struct Pending<F, T, E> {
    body: F,
    outcome: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<F, T, E> Pending<F, T, E> {
    pub(crate) fn new(body: F, reply: oneshot::Sender<Result<T, E>>) -> Self {
        Self {
            body,
            outcome: None,
            reply,
        }
    }
}

impl<F, T, E> Write for Pending<F, T, E>
where
    F: Fn(&Db) -> Result<T, E> + Send,
    T: Send,
    E: From<RepositoryError> + Send,
{
    fn run(&mut self, db: &Db) -> bool {
        // Cleared first: a panic leaves none.
        self.outcome = None;
        let outcome = (self.body)(db);
        let succeeded = outcome.is_ok();
        self.outcome = Some(outcome);
        succeeded
    }

    fn answer(self: Box<Self>, commit: RepoResult<()>) {
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

/// How running the writes of one transaction ended.
enum Round {
    /// Every write ran; those that failed changed nothing: the transaction may commit.
    Ran,
    /// The write at this index failed after changing rows: the transaction must be undone.
    Undo(usize),
    /// SQLite rolled the transaction back itself (an I/O error, say) while the write at this
    /// index ran: it and the writes before it are lost.
    Lost(usize),
}

/// Runs `writes` in `BEGIN IMMEDIATE` transactions, as few as it can (one, unless a write
/// had to be taken out or SQLite rolled a transaction back by itself), and answers each after
/// the commit that holds it.
pub(crate) fn commit_together(db: &Db, writes: Vec<Box<dyn Write>>) {
    for write in commit_or_take_out(db, writes) {
        // Taken out: once more, alone, on what the others committed. Failing after changing
        // rows again, it is rolled back and answered with its own error.
        for again in commit_or_take_out(db, vec![write]) {
            again.answer(Ok(()));
        }
    }
    // The next job must not read the rows of a transaction left open.
    roll_back_if_open(db);
}

/// Commits `writes` but those that fail after changing rows, which it undoes and returns
/// unanswered; answers the rest after their commit (or with what ended their transaction).
fn commit_or_take_out(db: &Db, mut writes: Vec<Box<dyn Write>>) -> Vec<Box<dyn Write>> {
    let mut taken_out = Vec::new();
    while !writes.is_empty() {
        // What the last round left open (a write to undo, a failed COMMIT or ROLLBACK) ends
        // here: an open transaction would fail every write.
        roll_back_if_open(db);
        if let Err(error) = step(db, "BEGIN IMMEDIATE") {
            answer(writes.drain(..), Err(failed(error)));
            break;
        }
        match run_in_order(db, &mut writes) {
            Round::Ran => {
                let end = step(db, "COMMIT").map_err(failed);
                answer(writes.drain(..), end);
            }
            Round::Undo(index) => taken_out.push(writes.remove(index)),
            Round::Lost(index) => {
                let lost =
                    RepositoryError::Unavailable("SQLite rolled the transaction back".into());
                answer(writes.drain(..=index), Err(lost));
            }
        }
    }
    taken_out
}

/// Rolls back the transaction that is open, if one is.
fn roll_back_if_open(db: &Db) {
    if !db.is_autocommit() {
        let _ = step(db, "ROLLBACK");
    }
}

/// Runs the writes one after the other until one must be undone or the transaction is lost.
fn run_in_order(db: &Db, writes: &mut [Box<dyn Write>]) -> Round {
    for (index, write) in writes.iter_mut().enumerate() {
        // SQLite counts the rows each completed statement changed; a failed statement's own
        // changes are undone by SQLite itself, so an unchanged count means nothing changed.
        let changes = db.total_changes();
        let succeeded = catch_unwind(AssertUnwindSafe(|| write.run(db))).unwrap_or(false);
        if db.is_autocommit() {
            return Round::Lost(index);
        }
        if !succeeded && db.total_changes() != changes {
            return Round::Undo(index);
        }
    }
    Round::Ran
}

fn answer(writes: impl Iterator<Item = Box<dyn Write>>, commit: RepoResult<()>) {
    writes.for_each(|write| write.answer(commit.clone()));
}

/// Runs one statement without a result, prepared once per connection.
fn step(db: &Db, sql: &'static str) -> rusqlite::Result<()> {
    execute_raw(db, sql, []).map(drop)
}

#[cfg(test)]
mod tests;
