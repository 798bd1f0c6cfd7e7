//! The service under test: a real `social-login serve` process, optionally pinned to one
//! core, and what /proc says it spent.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct Service {
    child: Child,
    pub base: String,
    /// From spawn to the first 200 of `/readyz`.
    pub ready_after: Duration,
}

impl Service {
    /// Starts `binary serve --config config`, pinned to `cpu` when given, and waits until it
    /// answers `/readyz`.
    pub async fn start(binary: &Path, config: &Path, cpu: Option<usize>) -> Result<Self, String> {
        let started = Instant::now();
        let mut command = match cpu {
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
            .env("RUST_LOG", "warn,social_login::server=info")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("cannot start {}: {error}", binary.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (found, address) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(address) = listening_address(&line) {
                    let _ = found.send(address);
                }
            }
        });
        let address = address
            .recv_timeout(Duration::from_secs(60))
            .map_err(|_| "the service did not start listening within 60 s".to_owned())?;
        let base = format!("http://{address}");
        let http = reqwest::Client::new();
        while !http
            .get(format!("{base}/readyz"))
            .send()
            .await
            .is_ok_and(|response| response.status().is_success())
        {
            if started.elapsed() > Duration::from_secs(60) {
                return Err("the service was not ready within 60 s".into());
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        Ok(Self {
            child,
            base,
            ready_after: started.elapsed(),
        })
    }

    /// CPU time the process has used (user + system).
    pub fn cpu_time(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let ticks = |index: usize| fields.get(index).and_then(|f| f.parse::<u64>().ok());
        // utime and stime are fields 14 and 15 of stat(5): 11 and 12 after the name.
        let total = ticks(11).unwrap_or(0) + ticks(12).unwrap_or(0);
        Duration::from_secs_f64(total as f64 / clock_ticks_per_second())
    }

    /// Resident memory in MiB.
    pub fn rss_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(0.0, |kib| kib / 1024.0)
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn clock_ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(100.0)
}

fn listening_address(line: &str) -> Option<String> {
    let entry: serde_json::Value = serde_json::from_str(line).ok()?;
    let fields = &entry["fields"];
    (fields["message"] == "social-login listening")
        .then(|| fields["address"].as_str().map(str::to_owned))
        .flatten()
}
