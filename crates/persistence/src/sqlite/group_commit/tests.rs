use super::*;
use crate::sqlite::worker::Worker;
use rusqlite::Connection;
use social_login_ports::RepoResult;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

type Answer = oneshot::Receiver<RepoResult<i64>>;

fn table() -> Connection {
    let db = Connection::open_in_memory().unwrap();
    db.execute_batch(
        "PRAGMA foreign_keys = ON;
         CREATE TABLE parent (id INTEGER PRIMARY KEY);
         CREATE TABLE t (x INTEGER PRIMARY KEY,
             parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);",
    )
    .unwrap();
    db
}

fn write(body: impl Fn(&Db) -> RepoResult<i64> + Send + 'static) -> (Box<dyn Write>, Answer) {
    let (reply, answer) = oneshot::channel();
    (Box::new(Pending::new(body, reply)), answer)
}

fn insert(x: i64) -> impl Fn(&Db) -> RepoResult<i64> + Send + Clone {
    move |db| {
        db.execute("INSERT INTO t (x) VALUES (?1)", [x])
            .map_err(failed)?;
        Ok(x)
    }
}

/// Inserts `x`, then refuses with `why`: a write that fails after changing rows.
fn insert_then_refuse(
    x: i64,
    why: RepositoryError,
) -> impl Fn(&Db) -> RepoResult<i64> + Send + 'static {
    move |db| {
        insert(x)(db)?;
        Err(why.clone())
    }
}

/// How many rows of `t` the write sees.
fn count_rows(db: &Db) -> RepoResult<i64> {
    db.query_row("SELECT count(*) FROM t", [], |row| row.get(0))
        .map_err(failed)
}

fn rows(db: &Connection) -> Vec<i64> {
    let mut statement = db.prepare("SELECT x FROM t ORDER BY x").unwrap();
    statement
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn commit(db: &Connection, writes: Vec<(Box<dyn Write>, Answer)>) -> Vec<RepoResult<i64>> {
    let (writes, answers): (Vec<_>, Vec<_>) = writes.into_iter().unzip();
    commit_together(&Db::new(db), writes);
    answers
        .into_iter()
        .map(|mut answer| answer.try_recv().expect("every write is answered"))
        .collect()
}

#[test]
fn a_failed_write_is_undone_alone_and_the_others_commit() {
    let db = table();
    let refused = RepositoryError::Internal("refused".into());
    let answers = commit(
        &db,
        vec![
            write(insert(1)),
            write(insert_then_refuse(2, refused.clone())),
            write(insert(3)),
        ],
    );
    assert_eq!(answers, vec![Ok(1), Err(refused), Ok(3)]);
    assert_eq!(rows(&db), vec![1, 3]);
    assert!(db.is_autocommit(), "the transaction is over");
}

#[test]
fn a_write_alone_that_fails_or_panics_leaves_nothing_and_ends_its_transaction() {
    let db = table();
    let refused = RepositoryError::Internal("refused".into());
    let failing = insert_then_refuse(1, refused.clone());
    assert_eq!(commit(&db, vec![write(failing)]), vec![Err(refused)]);
    let answers = commit(
        &db,
        vec![write(|db| {
            insert(2)(db)?;
            panic!("a bug in the only write");
        })],
    );
    assert!(matches!(answers[0], Err(RepositoryError::Internal(_))));
    assert!(rows(&db).is_empty());
    assert!(db.is_autocommit(), "no transaction is left open");
}

#[test]
fn a_panicking_write_is_undone_alone_and_answered_with_an_error() {
    let db = table();
    let answers = commit(
        &db,
        vec![
            write(insert(1)),
            write(|db| {
                insert(2)(db)?;
                panic!("a bug in one write");
            }),
            write(insert(3)),
        ],
    );
    assert_eq!(answers[0], Ok(1));
    assert!(matches!(answers[1], Err(RepositoryError::Internal(_))));
    assert_eq!(answers[2], Ok(3));
    assert_eq!(rows(&db), vec![1, 3]);
}

/// `body`, told which of its runs this is (0 the first), counting its runs in `runs`.
fn numbered(
    runs: &Arc<AtomicUsize>,
    body: impl Fn(usize, &Db) -> RepoResult<i64> + Send + 'static,
) -> (Box<dyn Write>, Answer) {
    let runs = Arc::clone(runs);
    write(move |db| body(runs.fetch_add(1, Ordering::SeqCst), db))
}

/// `body`, counting its runs in `runs`.
fn counted(
    runs: &Arc<AtomicUsize>,
    body: impl Fn(&Db) -> RepoResult<i64> + Send + 'static,
) -> (Box<dyn Write>, Answer) {
    numbered(runs, move |_, db| body(db))
}

fn counters<const N: usize>() -> [Arc<AtomicUsize>; N] {
    std::array::from_fn(|_| Arc::new(AtomicUsize::new(0)))
}

fn counts<const N: usize>(runs: &[Arc<AtomicUsize>; N]) -> [usize; N] {
    std::array::from_fn(|index| runs[index].load(Ordering::SeqCst))
}

#[test]
fn a_write_that_fails_after_changing_rows_is_taken_out_and_the_others_run_again_in_order() {
    let db = table();
    let runs = counters::<4>();
    let refused = RepositoryError::Internal("refused after writing".into());
    let failing = insert_then_refuse(2, refused.clone());
    // The last write reads what the first wrote, and not what the undone one did.
    let answers = commit(
        &db,
        vec![
            counted(&runs[0], insert(1)),
            counted(&runs[1], failing),
            counted(&runs[2], insert(3)),
            counted(&runs[3], count_rows),
        ],
    );
    assert_eq!(answers, vec![Ok(1), Err(refused), Ok(3), Ok(2)]);
    assert_eq!(rows(&db), vec![1, 3]);
    assert_eq!(
        counts(&runs),
        [2, 2, 1, 1],
        "the write before the undone one ran again; the undone one once more, alone"
    );
    assert!(db.is_autocommit());
}

#[test]
fn a_write_taken_out_runs_again_alone_after_the_others_committed() {
    let db = table();
    let runs = Arc::new(AtomicUsize::new(0));
    // Fails after writing on its first run; on the next it counts the rows it sees.
    let once_failing = numbered(&runs, |run, db| {
        insert(5)(db)?;
        if run == 0 {
            return Err(RepositoryError::Internal("refused once".into()));
        }
        count_rows(db)
    });
    let answers = commit(&db, vec![write(insert(1)), once_failing, write(insert(3))]);
    assert_eq!(
        answers,
        vec![Ok(1), Ok(3), Ok(3)],
        "it saw 1, 3 and its own 5"
    );
    assert_eq!(rows(&db), vec![1, 3, 5]);
}

#[test]
fn a_transaction_sqlite_rolled_back_answers_its_writes_with_an_error_and_the_rest_go_on() {
    let db = table();
    let refused = RepositoryError::Internal("refused after writing".into());
    let failing = insert_then_refuse(2, refused.clone());
    // As SQLite does after an I/O error: the transaction is gone under the write.
    let rolling_back = |db: &Db| {
        insert(3)(db)?;
        db.execute_batch("ROLLBACK").map_err(failed)?;
        Ok(3)
    };
    let answers = commit(
        &db,
        vec![
            write(insert(1)),
            write(failing),
            write(rolling_back),
            write(insert(4)),
        ],
    );
    let lost = |answer: &RepoResult<i64>| matches!(answer, Err(RepositoryError::Unavailable(_)));
    assert!(lost(&answers[0]) && lost(&answers[2]), "{answers:?}");
    assert_eq!(
        answers[1],
        Err(refused),
        "taken out, and refused again alone"
    );
    assert_eq!(answers[3], Ok(4));
    assert_eq!(rows(&db), vec![4]);
    assert!(db.is_autocommit());
}

#[test]
fn a_write_run_again_is_answered_from_its_last_run() {
    let db = table();
    let runs = Arc::new(AtomicUsize::new(0));
    // Succeeds without writing, then panics when run again.
    let read_then_panic = numbered(&runs, |run, _| match run {
        0 => Ok(7),
        _ => panic!("a bug on the second run"),
    });
    let failing = insert_then_refuse(2, RepositoryError::Internal("refused".into()));
    let answers = commit(&db, vec![read_then_panic, write(failing)]);
    assert!(
        matches!(&answers[0], Err(RepositoryError::Internal(why)) if why.contains("panicked")),
        "not the first run's answer: {answers:?}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert!(rows(&db).is_empty());
}

#[test]
fn a_refusal_that_changed_nothing_costs_no_second_run() {
    let db = table();
    let runs = counters::<3>();
    let refused = RepositoryError::Internal("refused before writing".into());
    let refusing = {
        let refused = refused.clone();
        move |_: &Db| Err(refused.clone())
    };
    // A statement that fails halfway is undone by SQLite itself: 10 went in before 1
    // clashed, and neither stays nor counts as a change.
    let clashing = |db: &Db| {
        db.execute("INSERT INTO t (x) VALUES (10), (1)", [])
            .map_err(failed)?;
        Ok(10)
    };
    let answers = commit(
        &db,
        vec![
            counted(&runs[0], insert(1)),
            counted(&runs[1], refusing),
            counted(&runs[2], clashing),
        ],
    );
    assert_eq!(answers[..2], [Ok(1), Err(refused)]);
    assert!(matches!(&answers[2], Err(RepositoryError::Internal(why)) if why.contains("UNIQUE")));
    assert_eq!(rows(&db), vec![1]);
    assert_eq!(counts(&runs), [1, 1, 1], "nothing ran twice");
}

#[test]
fn writes_that_all_fail_after_changing_rows_leave_nothing() {
    let db = table();
    let failing = |x: i64| insert_then_refuse(x, RepositoryError::Internal(format!("refused {x}")));
    let answers = commit(&db, vec![write(failing(1)), write(failing(2))]);
    assert_eq!(
        answers,
        vec![
            Err(RepositoryError::Internal("refused 1".into())),
            Err(RepositoryError::Internal("refused 2".into()))
        ]
    );
    assert!(rows(&db).is_empty());
    assert!(db.is_autocommit());
}

#[test]
fn a_later_write_reads_what_an_earlier_one_wrote() {
    let db = table();
    let answers = commit(&db, vec![write(insert(7)), write(count_rows)]);
    assert_eq!(answers, vec![Ok(7), Ok(1)]);
}

#[test]
fn when_the_commit_fails_every_write_in_it_gets_the_error_and_nothing_stays() {
    let db = table();
    // The dangling reference is checked at COMMIT (a deferred foreign key), so its body
    // succeeds and the commit is what fails.
    let dangling = |db: &Db| {
        db.execute("INSERT INTO t (x, parent) VALUES (2, 99)", [])
            .map_err(failed)?;
        Ok(2)
    };
    // A refusal decided inside the failed transaction is not repeated either: the rows it
    // read (1) were never committed.
    let refusing = |db: &Db| -> RepoResult<i64> {
        let seen = count_rows(db)?;
        Err(RepositoryError::Internal(format!(
            "refused on {seen} uncommitted rows"
        )))
    };
    let answers = commit(
        &db,
        vec![
            write(insert(1)),
            write(refusing),
            write(dangling),
            write(insert(3)),
        ],
    );
    let the_commits_error = |answer: &RepoResult<i64>| matches!(answer, Err(RepositoryError::Internal(why)) if why.contains("FOREIGN KEY"));
    assert_eq!(answers.len(), 4);
    assert!(answers.iter().all(the_commits_error), "{answers:?}");
    assert!(rows(&db).is_empty());
    assert!(db.is_autocommit(), "the failed transaction was rolled back");
    // The connection goes on serving.
    assert_eq!(commit(&db, vec![write(insert(4))]), vec![Ok(4)]);
    assert_eq!(rows(&db), vec![4]);
}

/// Through the worker: writes that queue while the thread is busy share one commit. A
/// second connection to the same file, opened inside the second write, does not see the
/// first write yet, which it would if each write had committed on its own.
#[tokio::test]
async fn writes_queued_behind_a_busy_thread_share_one_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("group.db");
    let db = Connection::open(&path).unwrap();
    db.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER PRIMARY KEY);")
        .unwrap();
    let worker = Worker::start(db, None).unwrap();

    let (release, hold) = std::sync::mpsc::channel::<()>();
    let busy = worker.run(move |_| hold.recv().unwrap());
    let first = worker.write(insert(1));
    let reader = path.clone();
    let second = worker.write(move |db| {
        insert(2)(db)?;
        let outside = Connection::open(&reader).map_err(failed)?;
        outside
            .query_row("SELECT count(*) FROM t", [], |row| row.get::<_, i64>(0))
            .map_err(failed)
    });
    // `join!` polls in order, and a first poll queues its job: both writes are queued
    // behind the busy job before it lets the thread go.
    let released = async { release.send(()).unwrap() };
    let (busy, first, second, ()) = tokio::join!(busy, first, second, released);
    busy.unwrap();
    assert_eq!(first, Ok(1));
    assert_eq!(
        second,
        Ok(0),
        "the first write was not committed on its own"
    );
    let committed = worker.run(|db| rows(db)).await.unwrap();
    assert_eq!(committed, vec![1, 2]);
}
