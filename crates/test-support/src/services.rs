//! `TEST_POSTGRES_URL` and `TEST_REDIS_URL`: a test uses the service when it answers, skips
//! loudly when it does not, and fails instead of skipping when `CI` is set.

use std::io::Write;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;
use url::{Host, Url};

/// A loopback or LAN service answers a TCP connect well within this.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// The PostgreSQL URL of a role that may create and drop databases (`TEST_POSTGRES_URL`),
/// when it is set and the server accepts TCP connections.
///
/// Otherwise: panics when `CI` is set (a CI run must not pass by skipping), else prints a
/// `SKIPPED:` line and returns `None`, and the caller returns.
pub fn postgres_admin_url() -> Option<String> {
    service_url("TEST_POSTGRES_URL", "PostgreSQL")
}

/// The Redis URL of `TEST_REDIS_URL`, under the same rules as [`postgres_admin_url`].
pub fn redis_url() -> Option<String> {
    service_url("TEST_REDIS_URL", "Redis")
}

/// Prints `SKIPPED: <why>` on the process's own stderr. `eprintln!` would not do: libtest
/// captures it and shows it only for a failing test, so a skip would pass silently.
pub fn skipped(why: &str) {
    loud(&format!("SKIPPED: {why}"));
}

/// One line on the process's stderr, past libtest's capture.
pub(crate) fn loud(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A variable's value, unset and empty alike being `None`.
fn environment(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

fn service_url(variable: &str, service: &str) -> Option<String> {
    match check(variable, service, &environment) {
        Ok(url) => Some(url),
        Err(Unusable::Fail(why)) => panic!("{why}"),
        Err(Unusable::Skip(why)) => {
            skipped(&why);
            None
        }
    }
}

/// Why a test cannot use the service, and what it does about it.
#[derive(Debug, PartialEq, Eq)]
enum Unusable {
    Fail(String),
    Skip(String),
}

/// `variable`'s URL if the service answers. `env` reads the environment; it is a parameter
/// so the rules can be tested without changing the process's real environment.
fn check(
    variable: &str,
    service: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String, Unusable> {
    let why = match env(variable) {
        Some(url) => match probe(&url) {
            Ok(()) => return Ok(url),
            Err(why) => format!("{service} of {variable} is unreachable: {why}"),
        },
        None => format!("{variable} is not set"),
    };
    Err(if env("CI").is_some() {
        Unusable::Fail(format!(
            "this test needs {service} and CI is set, so it fails instead of skipping: {why}"
        ))
    } else {
        Unusable::Skip(format!("this test needs {service}: {why}"))
    })
}

/// A TCP connect to the URL's host and port. Messages name the address, never the URL: it
/// may hold a password.
fn probe(url: &str) -> Result<(), String> {
    let address = address_of(url)?;
    TcpStream::connect_timeout(&address, PROBE_TIMEOUT)
        .map(drop)
        .map_err(|error| format!("cannot connect to {address}: {error}"))
}

/// The socket address a `postgres://` or `redis://` URL points at (default ports filled in).
pub(crate) fn address_of(url: &str) -> Result<SocketAddr, String> {
    let parsed = Url::parse(url).map_err(|error| format!("not a URL ({error})"))?;
    let port = parsed.port().unwrap_or(match parsed.scheme() {
        "redis" | "rediss" => 6379,
        _ => 5432,
    });
    match parsed.host() {
        Some(Host::Ipv4(ip)) => Ok(SocketAddr::from((ip, port))),
        Some(Host::Ipv6(ip)) => Ok(SocketAddr::from((ip, port))),
        Some(Host::Domain(name)) => (name, port)
            .to_socket_addrs()
            .map_err(|error| format!("cannot resolve {name}: {error}"))?
            .next()
            .ok_or_else(|| format!("{name} resolves to no address")),
        None => Err("the URL names no host".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_come_from_the_url_with_each_schemes_default_port() {
        assert_eq!(
            address_of("postgres://u:p@127.0.0.1/db").unwrap(),
            "127.0.0.1:5432".parse().unwrap()
        );
        assert_eq!(
            address_of("redis://[::1]").unwrap(),
            "[::1]:6379".parse().unwrap()
        );
        assert_eq!(
            address_of("rediss://127.0.0.1:7000/0").unwrap(),
            "127.0.0.1:7000".parse().unwrap()
        );
        assert!(address_of("not a url").is_err());
    }

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.clone())
        }
    }

    /// A port on loopback that was free a moment ago: nothing listens there.
    fn closed_port_url() -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        format!("postgres://admin:hunter2@127.0.0.1:{port}/x")
    }

    /// What `check` says of a PostgreSQL URL where nothing listens, with `more` set too.
    fn check_unreachable_postgres(more: &[(&str, &str)]) -> Result<String, Unusable> {
        let url = closed_port_url();
        let env = env_of(&[more, &[("TEST_POSTGRES_URL", url.as_str())]].concat());
        check("TEST_POSTGRES_URL", "PostgreSQL", &env)
    }

    #[test]
    fn a_reachable_service_gives_its_url() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("redis://{}", listener.local_addr().unwrap());
        let env = env_of(&[("TEST_REDIS_URL", &url), ("CI", "1")]);
        assert_eq!(check("TEST_REDIS_URL", "Redis", &env), Ok(url));
    }

    #[test]
    fn outside_ci_a_missing_or_unreachable_service_is_a_skip() {
        let missing = check("TEST_REDIS_URL", "Redis", &env_of(&[]));
        assert_eq!(
            missing,
            Err(Unusable::Skip(
                "this test needs Redis: TEST_REDIS_URL is not set".into()
            ))
        );
        let unreachable = check_unreachable_postgres(&[]);
        assert!(
            matches!(&unreachable, Err(Unusable::Skip(why)) if why.contains("unreachable")),
            "{unreachable:?}"
        );
    }

    #[test]
    fn under_ci_a_missing_or_unreachable_service_is_a_failure() {
        let missing = check("TEST_REDIS_URL", "Redis", &env_of(&[("CI", "true")]));
        assert!(
            matches!(&missing, Err(Unusable::Fail(why)) if why.contains("TEST_REDIS_URL is not set")),
            "{missing:?}"
        );
        let unreachable = check_unreachable_postgres(&[("CI", "1")]);
        assert!(
            matches!(&unreachable, Err(Unusable::Fail(why)) if why.contains("unreachable")),
            "{unreachable:?}"
        );
    }

    #[test]
    fn an_unreachable_service_is_reported_by_address_without_the_url() {
        let url = closed_port_url();
        let why = probe(&url).unwrap_err();
        assert!(why.contains("cannot connect to 127.0.0.1:"), "{why}");
        assert!(!why.contains("hunter2"), "{why}");
    }
}
