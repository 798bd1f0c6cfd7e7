use super::*;
use crate::sqlite::open::{SqliteFile, connect_serving_and_checkpointing};
use crate::sqlite::worker::Worker;
use std::path::Path;

/// Rows of a 64 KiB blob: sixteen pages each, which reach the database file only by a
/// checkpoint (the log holds them until then).
const BLOB: u32 = 64 * 1024;

async fn served(path: &Path, with_checkpointer: bool) -> Worker {
    let file = SqliteFile {
        path: path.to_path_buf(),
        create: true,
    };
    let (serving, checkpointing) = connect_serving_and_checkpointing(&file).unwrap();
    serving
        .execute_batch("CREATE TABLE blobs (b BLOB NOT NULL)")
        .unwrap();
    let checkpointer = with_checkpointer.then(|| Checkpointer::start(checkpointing).unwrap());
    Worker::start(serving, checkpointer).unwrap()
}

async fn write_blobs(worker: &Worker, count: usize) {
    for _ in 0..count {
        worker
            .write(|db| {
                db.execute("INSERT INTO blobs (b) VALUES (zeroblob(?1))", [BLOB])
                    .map_err(failed)
            })
            .await
            .unwrap();
    }
}

fn database_file_size(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

#[tokio::test]
async fn commits_reach_the_database_file_through_the_checkpointing_thread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("served.db");
    let worker = served(&path, true).await;
    write_blobs(&worker, 4).await;
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
async fn the_serving_connection_leaves_checkpoints_to_the_thread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("served.db");
    let worker = served(&path, false).await;
    // Over SQLite's default of 1,000 pages in the log, under the safety net.
    write_blobs(&worker, 70).await;
    // Nothing else writes the file: what the commits wrote is still only in the log.
    assert!(
        database_file_size(&path) < u64::from(BLOB),
        "the serving connection checkpointed: {} bytes",
        database_file_size(&path)
    );
}

#[test]
fn dropping_the_handle_ends_the_thread_even_mid_pause() {
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
