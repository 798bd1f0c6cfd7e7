//! The real `social-login serve` binary in a child process, for what only a process of its
//! own can show: its resident memory, apart from the test's.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use tempfile::TempDir;

const STARTS_WITHIN: Duration = Duration::from_secs(60);

/// A `social-login serve` child process, killed when dropped.
pub struct ServerProcess {
    child: Child,
    pub base: String,
    _data_dir: TempDir,
}

impl ServerProcess {
    /// Starts the binary with a configuration of its own SQLite file, port 0, and `extra`
    /// TOML appended (tables other than `[server]` and `[database]`).
    pub fn start(extra: &str) -> Self {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let config = data_dir.path().join("social-login.toml");
        std::fs::write(&config, config_text(data_dir.path(), extra)).expect("write config");
        let mut child = Command::new(env!("CARGO_BIN_EXE_social-login"))
            .arg("serve")
            .arg("--config")
            .arg(&config)
            .env("RUST_LOG", "info")
            .env_remove("SOCIAL_LOGIN_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the social-login binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (address_tx, address_rx) = mpsc::channel();
        // Reads the log to learn the port, then keeps draining it: a full pipe would block
        // the server's logging and with it every request.
        std::thread::spawn(move || {
            let mut address_tx = Some(address_tx);
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(address) = listening_address(&line)
                    && let Some(tx) = address_tx.take()
                {
                    let _ = tx.send(address);
                }
            }
        });
        let address = match address_rx.recv_timeout(STARTS_WITHIN) {
            Ok(address) => address,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("social-login did not log its address within {STARTS_WITHIN:?}");
            }
        };
        Self {
            child,
            base: format!("http://{address}"),
            _data_dir: data_dir,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Resident memory now, in KiB.
    pub fn rss_kib(&self) -> u64 {
        self.status_field("VmRSS")
    }

    /// Highest resident memory since the process started, in KiB.
    pub fn peak_rss_kib(&self) -> u64 {
        self.status_field("VmHWM")
    }

    fn status_field(&self, name: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server process is alive");
        status
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/<pid>/status"))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn config_text(data_dir: &Path, extra: &str) -> String {
    let database = data_dir.join("social-login.db");
    format!(
        "secret_key = \"process-test-secret-key-that-is-long-enough-0123\"\n\
         [server]\nbind = \"127.0.0.1:0\"\n\
         [database]\nurl = \"sqlite://{}?mode=rwc\"\n{extra}\n",
        database.display()
    )
}

/// The `address` of the JSON log line `social-login listening`.
fn listening_address(line: &str) -> Option<String> {
    let entry: serde_json::Value = serde_json::from_str(line).ok()?;
    let fields = &entry["fields"];
    if fields["message"] != "social-login listening" {
        return None;
    }
    fields["address"].as_str().map(str::to_owned)
}
