//! `TEST_POSTGRES_URL` and `TEST_REDIS_URL`: the dependencies a test may need, or a loud skip.

use std::time::Duration;

/// The PostgreSQL admin URL of `TEST_POSTGRES_URL`, if it is set and answers. Without it
/// the caller skips (printing `SKIPPED`), except under `CI`, where this panics.
pub fn postgres_admin_url() -> Option<String> {
    service_url("TEST_POSTGRES_URL", 5432)
}

/// The Redis URL of `TEST_REDIS_URL`, like [`postgres_admin_url`].
pub fn redis_url() -> Option<String> {
    service_url("TEST_REDIS_URL", 6379)
}

fn service_url(variable: &str, default_port: u16) -> Option<String> {
    let in_ci = std::env::var_os("CI").is_some();
    let why = match std::env::var(variable) {
        Ok(url) if reachable(&url, default_port) => return Some(url),
        Ok(_) => format!("{variable} is set but does not answer"),
        Err(_) => format!("{variable} is not set"),
    };
    assert!(!in_ci, "{why}, and CI is set: this test needs it");
    eprintln!("SKIPPED: {why}");
    None
}

/// A TCP connection to the URL's host and port opens within two seconds.
fn reachable(url: &str, default_port: u16) -> bool {
    let Ok(parsed) = url::Url::parse(url) else {
        return false;
    };
    let host = parsed.host_str().unwrap_or("127.0.0.1");
    let port = parsed.port().unwrap_or(default_port);
    std::net::ToSocketAddrs::to_socket_addrs(&(host, port))
        .ok()
        .and_then(|mut addresses| addresses.next())
        .is_some_and(|address| {
            std::net::TcpStream::connect_timeout(&address, Duration::from_secs(2)).is_ok()
        })
}
