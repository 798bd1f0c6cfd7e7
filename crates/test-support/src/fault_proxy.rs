//! A TCP forwarder in front of a dependency (PostgreSQL, Redis) that a test can cut: every
//! forwarded connection closes and new ones are refused until it is restored. The shared
//! servers keep running for the other tests.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

/// Connections forwarded at once; more wait for a slot.
const MAX_CONNECTIONS: usize = 256;

pub struct FaultProxy {
    addr: SocketAddr,
    up: Arc<AtomicBool>,
    cuts: watch::Sender<u64>,
}

impl FaultProxy {
    /// Listens on 127.0.0.1 (a free port) and forwards to `target`.
    pub async fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fault proxy");
        let addr = listener.local_addr().expect("a local address");
        let up = Arc::new(AtomicBool::new(true));
        let (cuts, _) = watch::channel(0u64);
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let (accepting, forwarding) = (up.clone(), cuts.clone());
        tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                if !accepting.load(Ordering::SeqCst) {
                    continue; // dropped: the connection is refused
                }
                let Ok(slot) = slots.clone().acquire_owned().await else {
                    return;
                };
                let mut cut = forwarding.subscribe();
                tokio::spawn(async move {
                    let _slot = slot;
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

    /// Where to point the service instead of the dependency.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The dependency "goes away": open connections close, new ones are refused.
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.cuts.send_modify(|generation| *generation += 1);
    }

    /// The dependency is back.
    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}
