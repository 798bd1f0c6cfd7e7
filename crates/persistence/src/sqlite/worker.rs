//! The one thread that owns the SQLite connection. Each repository call is one job: a
//! closure that runs its whole transaction there and sends its result back. A login thus
//! costs one hand-off between threads, not one per statement (sqlx's SQLite driver sends
//! every statement to its worker thread and back), and a write lock held by another process
//! blocks this thread, never the async runtime.

use rusqlite::Connection;
use social_login_ports::RepositoryError;
use std::panic::{AssertUnwindSafe, catch_unwind};
use tokio::sync::{mpsc, oneshot};

/// Jobs waiting for the connection. A full queue makes callers wait (back-pressure), it does
/// not grow; requests are bounded upstream by the in-flight limit and their timeout.
const QUEUE: usize = 1024;

type Job = Box<dyn FnOnce(&mut Connection) + Send>;

/// The sending side; the thread ends, and closes the connection, when the last clone drops.
#[derive(Clone)]
pub(crate) struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    pub(crate) fn start(mut connection: Connection) -> Result<Self, RepositoryError> {
        let (jobs, mut queue) = mpsc::channel::<Job>(QUEUE);
        std::thread::Builder::new()
            .name("sqlite".into())
            .spawn(move || {
                while let Some(job) = queue.blocking_recv() {
                    // A panicking job has already rolled its transaction back (the
                    // transaction is dropped while unwinding); its caller gets an error and
                    // the connection serves the next job.
                    let _ = catch_unwind(AssertUnwindSafe(|| job(&mut connection)));
                }
            })
            .map_err(|error| RepositoryError::Internal(format!("sqlite thread: {error}")))?;
        Ok(Self { jobs })
    }

    /// Runs `job` on the connection and returns what it returns.
    pub(crate) async fn run<T, F>(&self, job: F) -> Result<T, RepositoryError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Box::new(move |connection| {
                let _ = reply.send(job(connection));
            }))
            .await
            .map_err(|_| RepositoryError::Unavailable("the sqlite thread has stopped".into()))?;
        answer
            .await
            .map_err(|_| RepositoryError::Internal("a sqlite job panicked".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_job_fails_alone_and_the_next_job_runs() {
        let worker = Worker::start(Connection::open_in_memory().unwrap()).unwrap();
        let failed = worker.run(|_| -> i64 { panic!("boom") }).await;
        assert!(matches!(failed, Err(RepositoryError::Internal(_))));
        let answer: i64 = worker
            .run(|connection| connection.query_row("SELECT 41 + 1", [], |row| row.get::<_, i64>(0)))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(answer, 42_i64);
    }
}
