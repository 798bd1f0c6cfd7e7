//! The accept loop: each client connection counted against its client's
//! `http.max_connections_per_ip` (`per_ip`), served by hyper's HTTP/1.1 server with a
//! deadline for its request heads, the client address handed to the router, and a graceful
//! shutdown.
//!
//! Not `axum::serve`, which sets no timer on hyper, so hyper's header deadline never ran: a
//! client sending its head a byte at a time held a connection (and a descriptor) for as long
//! as it liked. The body and handling deadline is the router's (`http::request_timeout`).

use super::head_errors::ProblemHeads;
use super::per_ip::ConnectionsPerIp;
use crate::http::TrustedProxies;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// What each connection is held to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionOptions {
    /// From the moment hyper waits for a request head (a new connection, or a kept-alive one
    /// after its last response) until the head is complete; past it the connection is closed
    /// without a response.
    pub header_read_timeout: Duration,
    /// Connections one client may hold open; more are closed at accept.
    pub max_connections_per_ip: usize,
    /// IPv6 peers are counted by their network of this many bits.
    pub ipv6_prefix: u8,
    /// Peers not counted: the reverse proxies, whose connections carry many clients.
    pub exempt: TrustedProxies,
    /// From the shutdown signal until accepting stops (`[server] shutdown_delay_seconds`).
    pub shutdown_delay: Duration,
}

impl From<&crate::settings::Settings> for ConnectionOptions {
    /// From validated settings.
    fn from(settings: &crate::settings::Settings) -> Self {
        let exempt = settings.server.trusted_proxy_networks();
        Self {
            header_read_timeout: settings.http.header_read_timeout(),
            max_connections_per_ip: settings.http.max_connections_per_ip,
            ipv6_prefix: settings.rate_limit.ipv6_prefix,
            exempt: TrustedProxies::new(exempt),
            shutdown_delay: settings.server.shutdown_delay(),
        }
    }
}

/// How long the loop pauses after an accept error other than a client giving up, typically
/// running out of file descriptors: retrying at once would spin.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_secs(1);

/// Serves until `signal` completes, then stops accepting, lets every connection finish its
/// request in progress (each is bounded by the deadlines) and returns.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    options: ConnectionOptions,
    signal: impl Future<Output = ()> + Send + 'static,
) {
    // Sending on `shutdown` asks every connection to finish; each holds a clone of `open`,
    // so `open_tx.closed()` completes once all of them are gone.
    let (shutdown, _) = watch::channel(());
    let (open_tx, open) = watch::channel(());
    let per_ip = ConnectionsPerIp::new(
        options.max_connections_per_ip,
        options.ipv6_prefix,
        options.exempt.clone(),
    );
    let header_read_timeout = options.header_read_timeout;
    let mut signal = std::pin::pin!(signal);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    pause_after(error).await;
                    continue;
                }
            },
            () = &mut signal => break,
        };
        let Ok(counted) = per_ip.admit(peer.ip()) else {
            // Closed before a byte is read: the cheapest answer to a client that already
            // holds its share. Logged at debug only: a flood must not flood the logs.
            tracing::debug!(%peer, "connection refused: too many from this client");
            metrics::counter!("social_login_connections_refused_total").increment(1);
            drop(stream);
            continue;
        };
        let stop = shutdown.subscribe();
        let open = open.clone();
        let router = router.clone();
        tokio::spawn(async move {
            serve_connection(stream, peer, router, header_read_timeout, stop).await;
            drop(counted);
            drop(open);
        });
    }
    drop(listener);
    let _ = shutdown.send(());
    drop(open);
    open_tx.closed().await;
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    header_read_timeout: Duration,
    mut stop: watch::Receiver<()>,
) {
    // What `into_make_service_with_connect_info::<SocketAddr>()` does: the client-IP layer
    // and the rate limit start from `ConnectInfo<SocketAddr>`.
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        router.clone().oneshot(request.map(Body::new))
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout);
    let stream = ProblemHeads::new(stream);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let mut connection = std::pin::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        _ = stop.changed() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = result {
        // Header deadlines, clients that went away, malformed requests: the client's doing.
        tracing::debug!(%peer, %error, "connection closed");
    }
}

/// A client that reset or aborted before we accepted it is nothing to wait for.
async fn pause_after(error: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(%error, "accept failed; pausing");
    tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
}
