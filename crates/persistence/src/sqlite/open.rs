//! Which file a `sqlite:` URL names, and opening it the way the service needs.

use super::checkpoints::SAFETY_NET_PAGES;
use super::columns::failed;
use rusqlite::{Connection, ErrorCode, OpenFlags};
use social_login_ports::{RepoResult, RepositoryError};
use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a statement waits for another process's SQLite write lock before failing.
pub(crate) const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Pause between attempts to open a SQLite database another process is opening.
pub(crate) const SQLITE_BUSY_RETRY: Duration = Duration::from_millis(20);

/// Owner read and write, nothing for anyone else: the file holds password hashes and sealed
/// provider tokens.
pub(crate) const OWNER_ONLY: u32 = 0o600;

/// The file of a `sqlite:` URL and whether it may be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SqliteFile {
    pub path: PathBuf,
    pub create: bool,
}

/// `sqlite:PATH` or `sqlite://PATH`, optionally with `?mode=rwc` (create if missing) or
/// `?mode=rw`, as sqlx reads them. An in-memory database is refused: the migrator and the
/// service use separate connections, which would each see an empty database of their own.
pub(crate) fn sqlite_file(url: &str) -> RepoResult<SqliteFile> {
    let refuse = |why: &str| RepositoryError::Internal(format!("database.url: {why}"));
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .ok_or_else(|| refuse("a SQLite URL starts with sqlite:"))?;
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let mut create = false;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        match pair {
            "mode=rwc" => create = true,
            "mode=rw" => create = false,
            "mode=memory" => return Err(refuse("an in-memory SQLite database cannot be served")),
            other => return Err(refuse(&format!("unsupported SQLite URL option `{other}`"))),
        }
    }
    if path.is_empty() || path == ":memory:" {
        return Err(refuse(
            "name a SQLite file (an in-memory database cannot be served)",
        ));
    }
    Ok(SqliteFile {
        path: PathBuf::from(path),
        create,
    })
}

/// Opens `file` with the settings every statement relies on.
pub(super) fn connect(file: &SqliteFile) -> RepoResult<Connection> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if file.create {
        create_owner_only(&file.path)?;
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let connection = Connection::open_with_flags(&file.path, flags).map_err(failed)?;
    // Another process holding the write lock makes us wait, not fail.
    connection
        .busy_timeout(SQLITE_BUSY_TIMEOUT)
        .map_err(failed)?;
    switch_to_wal(&connection)?;
    connection
        .execute_batch(
            // Off by default in SQLite, per connection: without it there is no ON DELETE
            // CASCADE and no foreign-key check on a new link. NORMAL is durable across
            // process crashes in WAL mode; only a power loss may drop the last commits.
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
        )
        .map_err(failed)?;
    Ok(connection)
}

/// The connection that serves, its automatic checkpoint only a safety net, and a second
/// one for the thread that checkpoints (`checkpoints`).
pub(super) fn connect_serving_and_checkpointing(
    file: &SqliteFile,
) -> RepoResult<(Connection, Connection)> {
    let serving = connect(file)?;
    serving
        .pragma_update(None, "wal_autocheckpoint", SAFETY_NET_PAGES)
        .map_err(failed)?;
    Ok((serving, connect(file)?))
}

/// Creates `path`, empty and [`OWNER_ONLY`], unless it exists. SQLite itself would create
/// it 0644 (less the umask), and it gives the `-wal` and `-shm` files it makes later the
/// database file's mode: creating the database first makes all three private. An existing
/// file keeps the mode its operator gave it, and is not opened at all: closing any
/// descriptor of a file drops every POSIX lock this process holds on it, SQLite's too, and
/// this runs while the file may already be open (the migrator, the checkpointing
/// connection).
pub(crate) fn create_owner_only(path: &Path) -> RepoResult<()> {
    let created = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(OWNER_ONLY)
        .open(path);
    match created {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(RepositoryError::Internal(format!(
            "cannot create the SQLite database file: {error}"
        ))),
    }
}

/// Readers in other processes (backups, `migrate`) do not block the writer, and a commit is
/// one append to the log. Switching a new file needs its exclusive lock, which SQLite
/// refuses at once (no busy wait) while another process opens it too: retried here for up
/// to [`SQLITE_BUSY_TIMEOUT`].
fn switch_to_wal(connection: &Connection) -> RepoResult<()> {
    let deadline = Instant::now() + SQLITE_BUSY_TIMEOUT;
    loop {
        let switched = connection
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0));
        match switched {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Ok(mode) => {
                return Err(RepositoryError::Internal(format!(
                    "SQLite refused WAL (journal mode {mode})"
                )));
            }
            Err(error)
                if error.sqlite_error_code() == Some(ErrorCode::DatabaseBusy)
                    && Instant::now() < deadline =>
            {
                std::thread::sleep(SQLITE_BUSY_RETRY);
            }
            Err(error) => return Err(failed(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_name_their_file_and_say_whether_to_create_it() {
        let file = sqlite_file("sqlite:///var/lib/sl/users.db?mode=rwc").unwrap();
        assert_eq!(file.path, PathBuf::from("/var/lib/sl/users.db"));
        assert!(file.create);
        let file = sqlite_file("sqlite:users.db").unwrap();
        assert_eq!(file.path, PathBuf::from("users.db"));
        assert!(!file.create);
        assert!(!sqlite_file("sqlite://users.db?mode=rw").unwrap().create);
    }

    #[test]
    fn memory_databases_unknown_options_and_other_schemes_are_refused() {
        for url in [
            "sqlite::memory:",
            "sqlite://x.db?mode=memory",
            "sqlite://x.db?cache=shared",
            "sqlite://",
            "postgres://localhost/x",
        ] {
            assert!(sqlite_file(url).is_err(), "{url}");
        }
    }

    fn file_in(dir: &tempfile::TempDir, name: &str, create: bool) -> SqliteFile {
        SqliteFile {
            path: dir.path().join(name),
            create,
        }
    }

    #[test]
    fn a_connection_is_in_wal_mode_with_foreign_keys_on() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_in(&dir, "x.db", true);
        let connection = connect(&file).unwrap();
        let pragma = |name: &str| -> String {
            connection
                .query_row(&format!("PRAGMA {name}"), [], |row| {
                    row.get::<_, rusqlite::types::Value>(0)
                })
                .map(|value| format!("{value:?}"))
                .unwrap()
        };
        assert!(pragma("journal_mode").contains("wal"));
        assert_eq!(pragma("foreign_keys"), "Integer(1)");
        assert_eq!(pragma("synchronous"), "Integer(1)");
    }

    /// `.cargo/config.toml` builds the bundled SQLite with these; without the spill size a
    /// statement's journal over 64 KiB (a cascade over many rows) goes to a temporary file.
    #[test]
    fn the_bundled_sqlite_has_the_compile_options_the_adapter_relies_on() {
        let connection = Connection::open_in_memory().unwrap();
        let mut statement = connection.prepare("PRAGMA compile_options").unwrap();
        let options: Vec<String> = statement
            .query_map([], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for wanted in ["DEFAULT_MEMSTATUS=0", "STMTJRNL_SPILL=1048576"] {
            assert!(
                options.iter().any(|option| option == wanted),
                "{wanted}: {options:?}"
            );
        }
    }

    #[test]
    fn a_missing_file_without_mode_rwc_is_not_created() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_in(&dir, "missing.db", false);
        assert!(connect(&file).is_err());
        assert!(!file.path.exists());
    }

    /// The POSIX locks this process holds on `path`, from `/proc/locks`.
    fn locks_held_on(path: &Path) -> usize {
        use std::os::unix::fs::MetadataExt;
        let inode = std::fs::metadata(path).unwrap().ino().to_string();
        let pid = std::process::id().to_string();
        std::fs::read_to_string("/proc/locks")
            .unwrap()
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            // "1: POSIX  ADVISORY  READ  <pid> <major>:<minor>:<inode> <start> <end>"
            .filter(|fields| {
                fields.get(4) == Some(&pid.as_str())
                    && fields.get(5).and_then(|device| device.rsplit(':').next())
                        == Some(inode.as_str())
            })
            .count()
    }

    #[test]
    fn opening_a_served_database_again_keeps_sqlite_s_locks_on_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = file_in(&dir, "held.db", true);
        let (serving, _checkpointing) = connect_serving_and_checkpointing(&file).unwrap();
        serving
            .query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))
            .unwrap();
        let held = locks_held_on(&file.path);
        assert!(held > 0, "a WAL database's connection holds a shared lock");
        // What the migrator's connection does while the service runs.
        create_owner_only(&file.path).unwrap();
        assert_eq!(locks_held_on(&file.path), held);
    }
}
