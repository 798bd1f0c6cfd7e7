//! The SQLite files hold password hashes and sealed provider tokens: the database, its -wal
//! and -shm and the migration lock file are created readable and writable by their owner
//! only (0600), whatever the process umask lets through, and a lock file left world-readable
//! by an older version is tightened, so no other local user can open it and hold the lock.

use crate::harness::{rusqlite_repository, sqlite_repository};
use social_login_ports::UserRepository;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

fn assert_owner_only(dir: &Path, names: &[&str]) {
    for name in names {
        assert_eq!(mode(&dir.join(name)), 0o600, "{name}");
    }
}

const FILES: [&str; 4] = [
    "test.db",
    "test.db-wal",
    "test.db-shm",
    "test.db.migrate-lock",
];

#[tokio::test]
async fn the_service_creates_its_database_wal_shm_and_lock_files_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let repo = rusqlite_repository(dir.path()).await;
    // A read opens the WAL index again after the migrator's connection closed.
    repo.ping().await.unwrap();
    assert_owner_only(dir.path(), &FILES);
    drop(repo);
}

#[tokio::test]
async fn the_migrate_command_creates_its_database_wal_shm_and_lock_files_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let repo = sqlite_repository(dir.path()).await;
    assert_owner_only(dir.path(), &FILES);
    repo.connection().close_by_ref().await.ok();
}

#[tokio::test]
async fn a_world_readable_lock_file_from_an_older_version_is_made_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("test.db.migrate-lock");
    std::fs::write(&lock, b"").unwrap();
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o644)).unwrap();
    let repo = sqlite_repository(dir.path()).await;
    assert_eq!(mode(&lock), 0o600);
    repo.connection().close_by_ref().await.ok();
}
