//! A real `social-login serve` in a child process: for what only a process of its own shows
//! (its memory and CPU apart from the test's, a `kill -9`, a second instance).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// How long a process may take to log where it listens.
const STARTS_WITHIN: Duration = Duration::from_secs(60);
/// Log lines kept for a failure message.
const KEPT_LOG_LINES: usize = 200;

/// How to start the process.
#[derive(Debug, Clone)]
pub struct Launch<'a> {
    /// `RUST_LOG`; it must let `social-login listening` through (`social_login::server=info`).
    pub log_filter: &'a str,
    /// Pin the process to this CPU with `taskset`.
    pub cpu: Option<usize>,
}

impl Default for Launch<'_> {
    fn default() -> Self {
        Self {
            log_filter: "info",
            cpu: None,
        }
    }
}

/// A `social-login serve` child process, killed when dropped.
pub struct ServiceProcess {
    child: Child,
    base: String,
    logs: Arc<Mutex<VecDeque<String>>>,
}

impl ServiceProcess {
    /// Starts `binary serve --config config` and waits until it logs its address.
    ///
    /// # Panics
    /// When the process does not start or does not listen within a minute.
    pub fn start(binary: &Path, config: &Path, launch: &Launch<'_>) -> Self {
        let mut command = match launch.cpu {
            Some(cpu) => {
                let mut taskset = Command::new("taskset");
                taskset.arg("-c").arg(cpu.to_string()).arg(binary);
                taskset
            }
            None => Command::new(binary),
        };
        let mut child = command
            .arg("serve")
            .arg("--config")
            .arg(config)
            .env("RUST_LOG", launch.log_filter)
            .env_remove("SOCIAL_LOGIN_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("social-login starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let logs = Arc::new(Mutex::new(VecDeque::new()));
        let (found, address) = mpsc::channel();
        let kept = logs.clone();
        // Keeps draining the pipe for the life of the process (a full pipe would block its
        // logging, and with it every request) and keeps only the last lines.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(address) = listening_address(&line) {
                    let _ = found.send(address);
                }
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == KEPT_LOG_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        let Ok(address) = address.recv_timeout(STARTS_WITHIN) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("social-login did not log where it listens within {STARTS_WITHIN:?}");
        };
        Self {
            child,
            base: format!("http://{address}"),
            logs,
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `kill -9`: no shutdown, no flush; whatever was in flight is cut off.
    pub fn kill_hard(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Resident memory now, in KiB.
    pub fn rss_kib(&self) -> u64 {
        self.status_field("VmRSS")
    }

    /// Highest resident memory since the process started, in KiB.
    pub fn peak_rss_kib(&self) -> u64 {
        self.status_field("VmHWM")
    }

    /// CPU time the process has used, user and system.
    pub fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid()))
            .expect("the process is alive");
        // The fields after the command name, which is in parentheses and may hold spaces;
        // utime and stime are fields 14 and 15 of stat(5), 11 and 12 after the name.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let ticks = |index: usize| fields.get(index).and_then(|f| f.parse::<u64>().ok());
        let total = ticks(11).unwrap_or(0) + ticks(12).unwrap_or(0);
        Duration::from_secs_f64(total as f64 / clock_ticks_per_second())
    }

    /// The last log lines, for a failure message.
    pub fn recent_logs(&self) -> String {
        let logs = self.logs.lock().unwrap_or_else(|e| e.into_inner());
        logs.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    fn status_field(&self, name: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("the process is alive");
        status
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/<pid>/status"))
    }
}

impl Drop for ServiceProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux in practice).
fn clock_ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100.0)
}

/// The `address` of the JSON log line `social-login listening`.
fn listening_address(line: &str) -> Option<String> {
    let entry: serde_json::Value = serde_json::from_str(line).ok()?;
    let fields = &entry["fields"];
    (fields["message"] == "social-login listening")
        .then(|| fields["address"].as_str().map(str::to_owned))
        .flatten()
}
