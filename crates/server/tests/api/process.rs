//! The real `social-login serve` binary in a child process, for what only a process of its
//! own can show: its resident memory, apart from the test's.

use social_login_test_support::{Launch, ServiceProcess};
use std::ops::Deref;
use std::path::Path;
use tempfile::TempDir;

/// A server process on a SQLite file of its own, killed when dropped.
pub struct ServerProcess {
    process: ServiceProcess,
    _data_dir: TempDir,
}

impl ServerProcess {
    /// Starts the binary with a configuration of its own SQLite file, port 0, and `extra`
    /// TOML appended (tables other than `[server]` and `[database]`).
    pub fn start(extra: &str) -> Self {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let config = data_dir.path().join("social-login.toml");
        std::fs::write(&config, config_text(data_dir.path(), extra)).expect("write config");
        let process = ServiceProcess::start(
            Path::new(env!("CARGO_BIN_EXE_social-login")),
            &config,
            &Launch::default(),
        );
        Self {
            process,
            _data_dir: data_dir,
        }
    }
}

impl Deref for ServerProcess {
    type Target = ServiceProcess;

    fn deref(&self) -> &ServiceProcess {
        &self.process
    }
}

fn config_text(data_dir: &Path, extra: &str) -> String {
    let database = data_dir.join("social-login.db");
    format!(
        "secret_key = \"ieFuJ8itygrGs4-vu-V93oWjW_RFcfYMV8rOKKyLN7WubOw-j_DWdcrLKpdYneI9\"\n\
         [server]\nbind = \"127.0.0.1:0\"\n\
         [database]\nurl = \"sqlite://{}?mode=rwc\"\n{extra}\n",
        database.display()
    )
}
