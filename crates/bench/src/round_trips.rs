//! Round trips between the service and PostgreSQL, counted by a relay in front of the
//! server. A round trip is a turn of a connection: the client speaks after the server did
//! (or first) and will wait for the answer; sqlx never pipelines across awaits on one
//! connection. A turn of nothing but `Sync` messages is a pool check: sqlx pings every
//! connection that comes back to the pool, and the service has it ping one it hands out
//! after a second idle (`test_before_acquire_if_idle_for`); the two may share a turn. The relay reads the client's messages, so the routed URL
//! turns TLS off (`sslmode=disable`: loopback only).

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// Relayed connections at once; the service's pool is far smaller.
const MAX_CONNECTIONS: u64 = 256;
/// The frontend message `Sync`.
const SYNC: u8 = b'S';

/// Round trips so far, over every connection.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RoundTrips {
    pub all: u64,
    /// Of them, turns that only checked the connection.
    pub pool_checks: u64,
}

#[derive(Default)]
struct Totals {
    all: AtomicU64,
    pool_checks: AtomicU64,
}

pub struct RoundTripCounter {
    addr: SocketAddr,
    totals: Arc<Totals>,
    accept_loop: JoinHandle<()>,
}

impl RoundTripCounter {
    /// Relays every connection to `target`.
    pub async fn start(target: SocketAddr) -> io::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let totals = Arc::new(Totals::default());
        let accept_loop = tokio::spawn(accept(listener, target, totals.clone()));
        Ok(Self {
            addr,
            totals,
            accept_loop,
        })
    }

    pub fn count(&self) -> RoundTrips {
        RoundTrips {
            all: self.totals.all.load(Ordering::Relaxed),
            pool_checks: self.totals.pool_checks.load(Ordering::Relaxed),
        }
    }

    /// `url` pointed at the relay, in plain text: host and port replaced, the rest kept.
    pub fn route(&self, url: &str) -> Result<String, String> {
        let mut routed = url::Url::parse(url).map_err(|error| error.to_string())?;
        routed
            .set_ip_host(self.addr.ip())
            .map_err(|()| "the URL takes no host")?;
        routed
            .set_port(Some(self.addr.port()))
            .map_err(|()| "the URL takes no port")?;
        routed.query_pairs_mut().append_pair("sslmode", "disable");
        Ok(routed.to_string())
    }
}

impl Drop for RoundTripCounter {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}

async fn accept(listener: TcpListener, target: SocketAddr, totals: Arc<Totals>) {
    let open = Arc::new(AtomicU64::new(0));
    while let Ok((client, _)) = listener.accept().await {
        if open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            continue; // dropped: the client sees the connection closed
        }
        let Ok(server) = TcpStream::connect(target).await else {
            continue;
        };
        open.fetch_add(1, Ordering::Relaxed);
        let (totals, open) = (totals.clone(), open.clone());
        tokio::spawn(async move {
            let _ = (client.set_nodelay(true), server.set_nodelay(true));
            let (client_read, client_write) = client.into_split();
            let (server_read, server_write) = server.into_split();
            let turn = Mutex::new(Turn::default());
            let asks = relay(client_read, server_write, |bytes| {
                turn.lock().expect("turn").client_sent(bytes);
            });
            let answers = relay(server_read, client_write, |_| {
                turn.lock().expect("turn").server_answered(&totals);
            });
            tokio::join!(asks, answers);
            open.fetch_sub(1, Ordering::Relaxed);
        });
    }
}

/// One connection's current turn, and where the client's message stream stands.
struct Turn {
    /// The client has spoken since the server last answered.
    open: bool,
    /// Every message of the open turn so far was a `Sync`.
    only_syncs: bool,
    messages: MessageReader,
}

impl Default for Turn {
    fn default() -> Self {
        Self {
            open: false,
            only_syncs: true,
            messages: MessageReader::default(),
        }
    }
}

impl Turn {
    fn client_sent(&mut self, bytes: &[u8]) {
        if !self.open {
            self.open = true;
            self.only_syncs = true;
        }
        let only_syncs = &mut self.only_syncs;
        self.messages
            .read(bytes, |kind| *only_syncs &= kind == Some(SYNC));
    }

    /// The server's answer closes the open turn (its later bytes belong to the same one).
    fn server_answered(&mut self, totals: &Totals) {
        if std::mem::take(&mut self.open) {
            totals.all.fetch_add(1, Ordering::Relaxed);
            if self.only_syncs {
                totals.pool_checks.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// Splits the client's bytes into messages: the first (the startup message, or a request to
/// switch to TLS) has no type byte, every later one is a type byte and a big-endian length
/// that counts itself.
#[derive(Default)]
struct MessageReader {
    started: bool,
    /// Bytes of the current message's header read so far.
    header: Vec<u8>,
    /// Bytes of the current message's body still to skip.
    skip: usize,
}

impl MessageReader {
    /// Calls `seen` with the type of each message that begins in `bytes` (`None` for an
    /// untyped one).
    fn read(&mut self, mut bytes: &[u8], mut seen: impl FnMut(Option<u8>)) {
        while !bytes.is_empty() {
            if self.skip > 0 {
                let skipped = self.skip.min(bytes.len());
                self.skip -= skipped;
                bytes = &bytes[skipped..];
                continue;
            }
            let header_len = if self.started { 5 } else { 4 };
            let wanted = header_len - self.header.len();
            let taken = wanted.min(bytes.len());
            self.header.extend_from_slice(&bytes[..taken]);
            bytes = &bytes[taken..];
            if self.header.len() < header_len {
                return;
            }
            let (kind, length) = if self.started {
                let length = &self.header[1..5];
                (Some(self.header[0]), length)
            } else {
                (None, &self.header[..4])
            };
            let length = u32::from_be_bytes(length.try_into().expect("four bytes")) as usize;
            seen(kind);
            // The length counts its own four bytes; the startup message's counts them too.
            self.skip = length.saturating_sub(4);
            self.header.clear();
            self.started = true;
        }
    }
}

/// Copies `from` to `to` until either closes, calling `seen` with each read before it is
/// forwarded.
async fn relay(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, seen: impl Fn(&[u8])) {
    let mut buffer = vec![0; 16 * 1024];
    loop {
        match from.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => {
                seen(&buffer[..read]);
                if to.write_all(&buffer[..read]).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = to.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(chunks: &[&[u8]]) -> Vec<Option<u8>> {
        let mut reader = MessageReader::default();
        let mut kinds = Vec::new();
        for chunk in chunks {
            reader.read(chunk, |kind| kinds.push(kind));
        }
        kinds
    }

    #[test]
    fn messages_are_found_across_reads_of_any_size() {
        let startup = [0, 0, 0, 8, 0, 3, 0, 0];
        let query = [b'Q', 0, 0, 0, 6, b';', 0];
        let sync = [b'S', 0, 0, 0, 4];
        let stream: Vec<u8> = [&startup[..], &query, &sync].concat();
        let expected = vec![None, Some(b'Q'), Some(SYNC)];
        assert_eq!(kinds(&[&stream]), expected);
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(kinds(&bytes), expected);
        let (head, tail) = stream.split_at(10);
        assert_eq!(kinds(&[head, tail]), expected);
    }
}
