//! The one thread that owns the SQLite connection. Each repository call is one job: a
//! closure that runs there (a write: its part of a transaction shared with the writes queued
//! beside it) and sends its result back. A login thus
//! costs one hand-off between threads, not one per statement (sqlx's SQLite driver sends
//! every statement to its worker thread and back), and a write lock held by another process
//! blocks this thread, never the async runtime. Write transactions queued together are
//! committed together (`group_commit`).

use super::checkpoints::Checkpointer;
use super::group_commit::{self, MOST_PER_COMMIT, Pending, Write};
use super::statements::Db;
use rusqlite::Connection;
use social_login_ports::{RepoResult, RepositoryError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use tokio::sync::{mpsc, oneshot};

/// Jobs waiting for the connection. A full queue makes callers wait (back-pressure), it does
/// not grow; requests are bounded upstream by the in-flight limit and their timeout.
const QUEUE: usize = 1024;

enum Job {
    /// A read, or work that runs its own transactions: runs alone.
    Alone(Box<dyn FnOnce(&Db) + Send>),
    /// The body of one write transaction: committed with the writes queued beside it.
    Write(Box<dyn Write>),
}

/// The sending side; the thread ends, and closes the connection, when the last clone drops.
#[derive(Clone)]
pub(crate) struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    /// Starts the thread on `connection`; after each commit it nudges `checkpoints`, which
    /// it owns (none: the connection checkpoints itself, as SQLite does by default).
    pub(crate) fn start(
        connection: Connection,
        checkpoints: Option<Checkpointer>,
    ) -> RepoResult<Self> {
        let (jobs, mut queue) = mpsc::channel::<Job>(QUEUE);
        std::thread::Builder::new()
            .name("sqlite".into())
            .spawn(move || {
                // The statements live as long as the thread and go before the connection.
                let db = Db::new(&connection);
                let mut next = None;
                while let Some(job) = next.take().or_else(|| queue.blocking_recv()) {
                    match job {
                        // A panicking job has already rolled its transaction back (the
                        // transaction is dropped while unwinding); its caller gets an error
                        // and the connection serves the next job.
                        Job::Alone(job) => {
                            let _ = catch_unwind(AssertUnwindSafe(|| job(&db)));
                        }
                        Job::Write(first) => {
                            let writes = gather(first, &mut queue, &mut next);
                            group_commit::commit_together(&db, writes);
                            if let Some(checkpoints) = &checkpoints {
                                checkpoints.nudge();
                            }
                        }
                    }
                }
                // Its connection closes first: the serving one, closing last, folds the log
                // back into the file.
                drop(checkpoints);
            })
            .map_err(|error| RepositoryError::Internal(format!("sqlite thread: {error}")))?;
        Ok(Self { jobs })
    }

    /// Runs `job` on the connection and returns what it returns.
    pub(crate) async fn run<T, F>(&self, job: F) -> RepoResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Db) -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Alone(Box::new(move |db| {
            let _ = reply.send(job(db));
        })))
        .await?;
        answer
            .await
            .map_err(|_| RepositoryError::Internal("a sqlite job panicked".into()))
    }

    /// Runs `body` as one write transaction, shared with other writes (and run again when
    /// the transaction is undone for another's sake, see `group_commit`), and returns what it
    /// returns once its transaction has committed.
    pub(crate) async fn write<T, E, F>(&self, body: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<RepositoryError> + Send + 'static,
        F: Fn(&Db) -> Result<T, E> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Write(Box::new(Pending::new(body, reply))))
            .await?;
        answer
            .await
            .map_err(|_| RepositoryError::Unavailable("the sqlite thread has stopped".into()))?
    }

    async fn send(&self, job: Job) -> RepoResult<()> {
        self.jobs
            .send(job)
            .await
            .map_err(|_| RepositoryError::Unavailable("the sqlite thread has stopped".into()))
    }
}

/// `first` and the writes queued behind it, up to [`MOST_PER_COMMIT`]; a job that must run
/// alone ends the list and is kept in `next`. When several were waiting (the service is
/// busy), the thread yields its core once and looks again: on a loaded core the runtime
/// then queues the writes of the requests it has in hand, and a commit carried about 3.4
/// new-user logins instead of 2.1 in the benchmark (docs/performance.md). With one write
/// waiting nothing is delayed, and with an idle core to spare the yield returns at once.
fn gather(
    first: Box<dyn Write>,
    queue: &mut mpsc::Receiver<Job>,
    next: &mut Option<Job>,
) -> Vec<Box<dyn Write>> {
    let mut writes = vec![first];
    take_queued(&mut writes, queue, next);
    if writes.len() > 1 && writes.len() < MOST_PER_COMMIT && next.is_none() {
        std::thread::yield_now();
        take_queued(&mut writes, queue, next);
    }
    writes
}

/// Moves the writes waiting in `queue` into `writes`, until it holds [`MOST_PER_COMMIT`],
/// the queue is empty, or a job that must run alone comes (kept in `next`).
fn take_queued(
    writes: &mut Vec<Box<dyn Write>>,
    queue: &mut mpsc::Receiver<Job>,
    next: &mut Option<Job>,
) {
    while writes.len() < MOST_PER_COMMIT && next.is_none() {
        match queue.try_recv() {
            Ok(Job::Write(write)) => writes.push(write),
            Ok(alone) => *next = Some(alone),
            Err(_) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_job_fails_alone_and_the_next_job_runs() {
        let worker = Worker::start(Connection::open_in_memory().unwrap(), None).unwrap();
        let failed = worker.run(|_| -> i64 { panic!("boom") }).await;
        assert!(matches!(failed, Err(RepositoryError::Internal(_))));
        let answer: i64 = worker
            .run(|connection| connection.query_row("SELECT 41 + 1", [], |row| row.get::<_, i64>(0)))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(answer, 42_i64);
    }

    fn a_write() -> Box<dyn Write> {
        let (reply, _) = oneshot::channel::<RepoResult<i64>>();
        Box::new(Pending::new(|_: &Db| Ok(1), reply))
    }

    #[test]
    fn the_writes_queued_behind_the_first_are_gathered_up_to_a_job_that_runs_alone() {
        let (jobs, mut queue) = mpsc::channel(QUEUE);
        for _ in 0..3 {
            jobs.try_send(Job::Write(a_write())).ok().unwrap();
        }
        jobs.try_send(Job::Alone(Box::new(|_| {}))).ok().unwrap();
        jobs.try_send(Job::Write(a_write())).ok().unwrap();
        let mut next = None;
        let writes = gather(a_write(), &mut queue, &mut next);
        assert_eq!(
            writes.len(),
            4,
            "the first and the three before the lone job"
        );
        assert!(
            matches!(next, Some(Job::Alone(_))),
            "the lone job is kept for next"
        );
        assert!(
            matches!(queue.try_recv(), Ok(Job::Write(_))),
            "the write after it waits"
        );
    }

    #[test]
    fn one_commit_gathers_at_most_its_share_and_a_lone_write_goes_at_once() {
        let (jobs, mut queue) = mpsc::channel(QUEUE);
        let mut next = None;
        assert_eq!(gather(a_write(), &mut queue, &mut next).len(), 1);
        for _ in 0..MOST_PER_COMMIT + 5 {
            jobs.try_send(Job::Write(a_write())).ok().unwrap();
        }
        assert_eq!(
            gather(a_write(), &mut queue, &mut next).len(),
            MOST_PER_COMMIT
        );
        assert!(next.is_none());
        assert_eq!(gather(a_write(), &mut queue, &mut next).len(), 7);
    }
}
