//! Checkpoints on a connection of their own, off the thread that serves.
//!
//! In WAL mode a commit appends its pages to the log, and a checkpoint copies them back into
//! the database file and syncs it. SQLite runs that on the committing connection once the
//! log holds 1,000 pages: a login then waited behind a whole checkpoint and its `fsync`s.
//! Here a thread with its own connection runs a passive checkpoint (it never blocks the
//! writer) after commits, at most one per [`PAUSE`], so a page that many commits wrote is
//! copied back once. The serving connection still checkpoints past 10,000 pages, a smaller
//! checkpoint and a rarer one. Measured in docs/performance.md: 5-6 % less CPU per login
//! and 16-19 % more logins per second at c = 16. Each nudge wakes the thread, also during
//! its pause; waking it at most once per pause instead measured worse.

use super::columns::failed;
use rusqlite::Connection;
use social_login_ports::{RepoResult, RepositoryError};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// At most one checkpoint per pause.
const PAUSE: Duration = Duration::from_millis(100);

/// The serving connection's own automatic checkpoint (SQLite's default is 1,000 pages), a
/// safety net. It also bounds the log: SQLite starts the log over only once a checkpoint
/// has copied all of it and nothing was committed since, which under steady load is this
/// one's turn, so the `-wal` file grows to about 40 MiB and stays there.
pub(crate) const SAFETY_NET_PAGES: u32 = 10_000;

/// The checkpointing thread's handle. Dropping it ends the thread and waits for it, so its
/// connection closes before the serving one, which can then fold the log back in.
pub(crate) struct Checkpointer {
    nudge: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Starts the thread on `connection`, a second connection to the served file.
    pub(crate) fn start(connection: Connection) -> RepoResult<Self> {
        // One nudge waiting is enough: it means "there were commits since".
        let (nudge, nudged) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || checkpoint_when_nudged(&connection, &nudged))
            .map_err(|error| RepositoryError::Internal(format!("sqlite thread: {error}")))?;
        Ok(Self {
            nudge: Some(nudge),
            thread: Some(thread),
        })
    }

    /// Tells the thread that commits happened; never waits. Only group commits call it: the
    /// few jobs that commit on their own (pruning, the webhook outbox) leave their pages for
    /// the next login's checkpoint, or the safety net.
    pub(crate) fn nudge(&self) {
        if let Some(nudge) = &self.nudge {
            let _ = nudge.try_send(());
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.nudge.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread's loop: a checkpoint after a nudge, then a pause that gathers the nudges
/// coming meanwhile into one; it returns when the handle is dropped. Not a plain sleep
/// with the channel holding the nudge: that wakes the thread less and measured worse
/// (docs/performance.md), and a dropped handle would wait out the pause.
fn checkpoint_when_nudged(connection: &Connection, nudged: &Receiver<()>) {
    let mut nudged_meanwhile = false;
    let mut failing = false;
    loop {
        if !nudged_meanwhile && nudged.recv().is_err() {
            return;
        }
        // Said once when checkpoints start failing (a full disk, say) and once when they
        // work again, not ten times a second; the serving connection's safety net still
        // checkpoints meanwhile.
        match checkpoint(connection) {
            Err(error) if !failing => {
                tracing::warn!(%error, "SQLite checkpoints are failing");
                failing = true;
            }
            Ok(()) if failing => {
                tracing::info!("SQLite checkpoints work again");
                failing = false;
            }
            _ => {}
        }
        nudged_meanwhile = false;
        let pause_ends = Instant::now() + PAUSE;
        loop {
            match nudged.recv_timeout(pause_ends.saturating_duration_since(Instant::now())) {
                Ok(()) => nudged_meanwhile = true,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }
}

/// Copies what it can of the log into the database file without waiting for anyone.
fn checkpoint(connection: &Connection) -> RepoResult<()> {
    connection
        .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
        .map_err(failed)
}

#[cfg(test)]
mod tests;
