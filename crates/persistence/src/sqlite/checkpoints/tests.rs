use super::*;
use crate::sqlite::open::{SqliteFile, connect_serving_and_checkpointing};
use crate::sqlite::worker::Worker;
use std::path::{Path, PathBuf};

/// Rows of a 64 KiB blob: sixteen pages each, which reach the database file only by a
/// checkpoint (the log holds them until then).
const BLOB: u32 = 64 * 1024;

/// A database file served by a worker (with or without the checkpointing thread) after
/// `blobs` committed writes of one blob each; the directory goes when it is dropped.
async fn served_after_writes(
    with_checkpointer: bool,
    blobs: usize,
) -> (tempfile::TempDir, PathBuf, Worker) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("served.db");
    let file = SqliteFile {
        path: path.clone(),
        create: true,
    };
    let (serving, checkpointing) = connect_serving_and_checkpointing(&file).unwrap();
    serving
        .execute_batch("CREATE TABLE blobs (b BLOB NOT NULL)")
        .unwrap();
    let checkpointer = with_checkpointer.then(|| Checkpointer::start(checkpointing).unwrap());
    let worker = Worker::start(serving, checkpointer).unwrap();
    for _ in 0..blobs {
        write_blob(&worker).await;
    }
    (dir, path, worker)
}

async fn write_blob(worker: &Worker) {
    worker
        .write(|db| {
            db.execute("INSERT INTO blobs (b) VALUES (zeroblob(?1))", [BLOB])
                .map_err(failed)
        })
        .await
        .unwrap();
}

fn database_file_size(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

#[tokio::test]
async fn commits_reach_the_database_file_through_the_checkpointing_thread() {
    let (_dir, path, _worker) = served_after_writes(true, 4).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while database_file_size(&path) < 4 * u64::from(BLOB) {
        assert!(
            Instant::now() < deadline,
            "no checkpoint copied the commits back: the file has {} bytes",
            database_file_size(&path)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_serving_connection_checkpoints_only_past_its_safety_net() {
    // Over SQLite's default of 1,000 pages in the log, under the safety net.
    let (_dir, path, _worker) = served_after_writes(false, 70).await;
    // Nothing else writes the file: what the commits wrote is still only in the log.
    assert!(
        database_file_size(&path) < u64::from(BLOB),
        "the serving connection checkpointed: {} bytes",
        database_file_size(&path)
    );
}

/// A reader on an old snapshot keeps a checkpoint from copying the newer pages. A passive
/// one copies what it can and gives up on the rest; FULL or RESTART would hold new writes
/// back (for the busy timeout, 5 s) until the reader is done.
#[tokio::test]
async fn a_reader_that_holds_the_checkpoint_back_does_not_hold_back_writes() {
    let (_dir, path, worker) = served_after_writes(true, 1).await;
    let reader = Connection::open(&path).unwrap();
    reader.execute_batch("BEGIN").unwrap();
    let seen: i64 = reader
        .query_row("SELECT count(*) FROM blobs", [], |row| row.get(0))
        .unwrap();
    assert_eq!(seen, 1);
    // Writes over three pauses, so that checkpoints run while the reader holds its snapshot.
    for _ in 0..3 {
        let started = Instant::now();
        write_blob(&worker).await;
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "a write waited {:?} behind a checkpoint",
            started.elapsed()
        );
        tokio::time::sleep(PAUSE).await;
    }
    reader.execute_batch("COMMIT").unwrap();
}

#[tokio::test]
async fn when_the_repository_goes_its_log_is_folded_back_into_the_file() {
    let (_dir, path, worker) = served_after_writes(true, 3).await;
    let log = path.with_extension("db-wal");
    assert!(log.exists(), "the commits are in the log");
    // The last handle: the serving thread ends, the checkpointing thread before it.
    drop(worker);
    let deadline = Instant::now() + Duration::from_secs(10);
    while log.exists() {
        assert!(Instant::now() < deadline, "the log is still there");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn dropping_the_handle_ends_the_thread() {
    let checkpointer = Checkpointer::start(Connection::open_in_memory().unwrap()).unwrap();
    checkpointer.nudge();
    checkpointer.nudge();
    let (dropped, done) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        drop(checkpointer);
        dropped.send(()).unwrap();
    });
    done.recv_timeout(Duration::from_secs(10))
        .expect("the thread did not end");
}
