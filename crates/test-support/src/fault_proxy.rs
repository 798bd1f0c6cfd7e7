//! A TCP forwarder in front of a service (PostgreSQL, Redis) that makes the service "go away"
//! and come back on demand, without stopping the server other tests share.

use crate::services::address_of;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinHandle;

/// Forwarded connections open at once; more are refused like a server at its limit.
pub const MAX_PROXIED_CONNECTIONS: usize = 64;
/// How long the proxy waits for the target to accept a forwarded connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Pause after a failed `accept` (out of file descriptors), so the loop does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Listens on `127.0.0.1:0` and forwards each connection to the target.
///
/// [`cut`](Self::cut) resets every forwarded connection and refuses new ones (accepted, then
/// reset at once), which a client sees as the server crashing or the network failing;
/// [`restore`](Self::restore) lets new connections through again. Dropping the proxy closes
/// everything.
pub struct FaultProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept_loop: JoinHandle<()>,
}

struct Shared {
    target: SocketAddr,
    refusing: AtomicBool,
    /// Bumped by every cut; each forwarded connection ends when it changes.
    cuts: watch::Sender<u64>,
    slots: Arc<Semaphore>,
}

impl FaultProxy {
    /// Starts forwarding to `target`.
    pub async fn start(target: SocketAddr) -> io::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            target,
            refusing: AtomicBool::new(false),
            cuts: watch::Sender::new(0),
            slots: Arc::new(Semaphore::new(MAX_PROXIED_CONNECTIONS)),
        });
        let accept_loop = tokio::spawn(accept(listener, shared.clone()));
        Ok(Self {
            addr,
            shared,
            accept_loop,
        })
    }

    /// Starts forwarding to the host and port of a `postgres://` or `redis://` URL.
    pub async fn in_front_of(url: &str) -> io::Result<Self> {
        let target = address_of(url).map_err(io::Error::other)?;
        Self::start(target).await
    }

    /// Where clients connect instead of the target.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `url` with its host and port replaced by the proxy's; user, path and query kept.
    pub fn route(&self, url: &str) -> String {
        let mut routed = url::Url::parse(url).expect("a service URL");
        routed
            .set_host(Some(&self.addr.ip().to_string()))
            .expect("the URL takes a host");
        routed
            .set_port(Some(self.addr.port()))
            .expect("the URL takes a port");
        routed.to_string()
    }

    /// The service "goes away": every forwarded connection is reset, new ones are refused
    /// until [`restore`](Self::restore).
    pub fn cut(&self) {
        // Refuse first, then end the open ones: a connection accepted in between sees
        // `refusing` once it subscribes to `cuts`.
        self.shared.refusing.store(true, Ordering::SeqCst);
        self.shared.cuts.send_modify(|cuts| *cuts += 1);
    }

    /// The service is back: new connections are forwarded again.
    pub fn restore(&self) {
        self.shared.refusing.store(false, Ordering::SeqCst);
    }

    /// Forwarded connections open right now.
    pub fn open_connections(&self) -> usize {
        MAX_PROXIED_CONNECTIONS - self.shared.slots.available_permits()
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.accept_loop.abort();
        self.cut();
    }
}

async fn accept(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let client = match listener.accept().await {
            Ok((client, _)) => client,
            Err(_) => {
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        if shared.refusing.load(Ordering::SeqCst) {
            reset(client);
            continue;
        }
        match shared.slots.clone().try_acquire_owned() {
            Ok(slot) => {
                tokio::spawn(forward(client, shared.clone(), slot));
            }
            Err(_) => reset(client),
        }
    }
}

/// Relays one connection until either side closes or the proxy is cut. The slot is held
/// for as long as the connection is open.
async fn forward(mut client: TcpStream, shared: Arc<Shared>, _slot: OwnedSemaphorePermit) {
    let mut cuts = shared.cuts.subscribe();
    if shared.refusing.load(Ordering::SeqCst) {
        reset(client);
        return;
    }
    let cut = tokio::select! {
        _ = cuts.changed() => true,
        () = relay(&mut client, shared.target) => false,
    };
    if cut {
        reset(client);
    }
}

async fn relay(client: &mut TcpStream, target: SocketAddr) {
    let Ok(Ok(mut upstream)) =
        tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(target)).await
    else {
        return;
    };
    let _ = tokio::io::copy_bidirectional(client, &mut upstream).await;
}

/// Closes with a TCP reset rather than an orderly close: what a client sees when the
/// server's host fails or a firewall drops the connection.
fn reset(stream: TcpStream) {
    let _ = stream.set_zero_linger();
    drop(stream);
}
