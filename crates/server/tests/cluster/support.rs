//! Stand-ins for the shared test-support crate while it lands: the PostgreSQL / Redis
//! switches, a fresh PostgreSQL database, and a TCP proxy that can cut a dependency off.

use sea_orm::{ConnectionTrait, Database};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

fn service_url(variable: &str) -> Option<String> {
    match std::env::var(variable) {
        Ok(url) if reachable(&url) => Some(url),
        Ok(url) if std::env::var_os("CI").is_some() => {
            panic!("{variable}={url} is not reachable, and CI is set")
        }
        Ok(_) => {
            eprintln!("SKIPPED: {variable} is set but not reachable");
            None
        }
        Err(_) if std::env::var_os("CI").is_some() => panic!("{variable} is not set, and CI is set"),
        Err(_) => {
            eprintln!("SKIPPED: {variable} is not set");
            None
        }
    }
}

fn reachable(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else {
        return false;
    };
    let host = parsed.host_str().unwrap_or("127.0.0.1");
    let port = parsed.port().unwrap_or(match parsed.scheme() {
        "redis" | "rediss" => 6379,
        _ => 5432,
    });
    std::net::ToSocketAddrs::to_socket_addrs(&(host, port))
        .ok()
        .and_then(|mut addresses| addresses.next())
        .is_some_and(|address| {
            std::net::TcpStream::connect_timeout(&address, Duration::from_secs(2)).is_ok()
        })
}

pub fn postgres_admin_url() -> Option<String> {
    service_url("TEST_POSTGRES_URL")
}

pub fn redis_url() -> Option<String> {
    service_url("TEST_REDIS_URL")
}

/// A fresh PostgreSQL database, dropped when this is dropped.
pub struct PostgresDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl PostgresDatabase {
    pub async fn create(admin_url: &str) -> Self {
        let name = format!("social_login_cluster_{}", uuid::Uuid::new_v4().simple());
        let admin = Database::connect(admin_url).await.expect("connect to PostgreSQL");
        admin
            .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
            .await
            .expect("create database");
        admin.close().await.ok();
        let base = admin_url.rsplit_once('/').map_or(admin_url, |(base, _)| base);
        Self {
            admin_url: admin_url.to_owned(),
            url: format!("{base}/{name}"),
            name,
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for PostgresDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // A runtime of its own: Drop cannot await, and the test's runtime may be ending.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async {
                if let Ok(admin) = Database::connect(admin_url.as_str()).await {
                    let _ = admin
                        .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                        .await;
                    admin.close().await.ok();
                }
            });
        })
        .join();
    }
}

/// A TCP forwarder in front of `target` that can cut every connection and refuse new ones.
pub struct FaultProxy {
    addr: SocketAddr,
    up: Arc<AtomicBool>,
    cuts: watch::Sender<u64>,
}

impl FaultProxy {
    pub async fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let addr = listener.local_addr().unwrap();
        let up = Arc::new(AtomicBool::new(true));
        let (cuts, _) = watch::channel(0u64);
        let (accept_up, accept_cuts) = (up.clone(), cuts.clone());
        tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                if !accept_up.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let mut cut = accept_cuts.subscribe();
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(target).await else {
                        return;
                    };
                    let (mut client, mut server) = (client, server);
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.changed() => {}
                    }
                });
            }
        });
        Self { addr, up, cuts }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Closes every forwarded connection and refuses new ones until [`Self::restore`].
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.cuts.send_modify(|generation| *generation += 1);
    }

    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}
