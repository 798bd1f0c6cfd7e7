//! The client's IP address: the TCP peer, or, when the peer is a trusted reverse proxy, the
//! right-most `X-Forwarded-For` address that is not itself a trusted proxy.
//!
//! Each proxy appends the address it got the request from. Walking right to left, every entry
//! up to the first untrusted address was written by one of our proxies, and that address is
//! what the outermost of them saw. Whatever lies to its left came from the client itself and
//! is never read, so a client cannot pick its own rate-limit bucket or log identity.

#[cfg(test)]
mod tests;

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderName};
use ipnet::IpNet;
use social_login_domain::throttle::client_network;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// At most this many `X-Forwarded-For` entries are examined, right to left. No real chain of
/// proxies is that long; past it the walk ends as at an unreadable entry. (hyper already
/// bounds the header's size; this bounds the work on it.)
pub const MAX_FORWARDED_ENTRIES: usize = 64;

/// Longest entry that can still be an address: `[` + the longest IPv6 text (45) + `]:65535`.
const MAX_ENTRY_LEN: usize = 53;

/// The resolved client address of a request, put in its extensions by [`record`]: the rate
/// limit keys on it and the request span logs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// A request with no TCP peer (a router driven in-process, as with `oneshot` in tests):
    /// `0.0.0.0`, so all such requests share one rate-limit bucket.
    pub const UNKNOWN: Self = Self(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
}

impl ClientIp {
    /// What limits count this client by: an IPv4 address itself, an IPv6 address by its
    /// first `ipv6_prefix` bits. One subscriber usually gets a whole /64 (often a /56 or
    /// /48), so keying on the full IPv6 address would give one machine 2^64 fresh buckets.
    pub fn network(self, ipv6_prefix: u8) -> IpAddr {
        client_network(self.0, ipv6_prefix)
    }
}

impl fmt::Display for ClientIp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// `server.trusted_proxies`, parsed: the peers allowed to name the client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Arc<[IpNet]>);

impl TrustedProxies {
    pub fn new(networks: impl IntoIterator<Item = IpNet>) -> Self {
        Self(networks.into_iter().collect())
    }

    /// An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how a dual-stack socket reports an
    /// IPv4 peer) matches the IPv4 networks too.
    pub(crate) fn contains(&self, address: IpAddr) -> bool {
        let canonical = address.to_canonical();
        self.0
            .iter()
            .any(|network| network.contains(&address) || network.contains(&canonical))
    }
}

/// The client address for a request from `peer` carrying `headers`.
///
/// An untrusted peer is the client, whatever the headers say. From a trusted peer the
/// `X-Forwarded-For` lines are read as one list (later lines are further right), entries
/// trimmed, right to left: trusted addresses are skipped and the first untrusted one is the
/// client. When the walk ends without one (the list is exhausted, an entry is not an address,
/// or [`MAX_FORWARDED_ENTRIES`] were examined), the client is the last trusted address it
/// reached: a hop our own proxies vouch for, never a value the client chose.
///
/// The lines are read as bytes and only the entries the walk examines must be addresses:
/// whatever the client put left of them (non-ASCII bytes included) is never looked at, so it
/// cannot make the service discard what its proxies wrote.
///
/// `1.2.3.4:5678`, `[2001:db8::1]:80` and `[2001:db8::1]` (proxies that add the port) are
/// read as their address. Results are canonical: `::ffff:1.2.3.4` becomes `1.2.3.4`.
pub fn resolve(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    let mut nearest = peer.to_canonical();
    if !trusted.contains(peer) {
        return nearest;
    }
    let entries = headers
        .get_all(X_FORWARDED_FOR)
        .iter()
        .rev()
        .flat_map(|line| line.as_bytes().rsplit(|&byte| byte == b','))
        .take(MAX_FORWARDED_ENTRIES);
    for entry in entries {
        let Some(address) = parse_entry(entry) else {
            break;
        };
        if !trusted.contains(address) {
            return address;
        }
        nearest = address;
    }
    nearest
}

/// One `X-Forwarded-For` entry as a canonical address; `None` for `unknown`, obfuscated
/// identifiers (RFC 7239 `_hidden`), empty entries, bytes that are not ASCII and anything
/// else.
fn parse_entry(entry: &[u8]) -> Option<IpAddr> {
    let entry = entry.trim_ascii();
    if entry.len() > MAX_ENTRY_LEN || !entry.is_ascii() {
        return None;
    }
    let entry = std::str::from_utf8(entry).ok()?;
    let address = entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|socket| socket.ip()))
        .or_else(|| {
            let bracketed = entry.strip_prefix('[')?.strip_suffix(']')?;
            bracketed.parse::<Ipv6Addr>().ok().map(IpAddr::V6)
        })?;
    Some(address.to_canonical())
}

/// The layer that applies [`record`] to each request: a plain function of the request
/// (`tower::util::MapRequestLayer`), so no boxed future per request as an axum
/// `map_request` middleware costs.
pub fn layer(
    trusted: TrustedProxies,
) -> tower::util::MapRequestLayer<impl Fn(Request) -> Request + Clone> {
    tower::util::MapRequestLayer::new(move |request| record(&trusted, request))
}

/// Resolves the request's [`ClientIp`] and stores it in its extensions. Needs the
/// `ConnectInfo<SocketAddr>` that `into_make_service_with_connect_info` provides; without it
/// the client is [`ClientIp::UNKNOWN`] and the headers are not read (an unknown peer is
/// never trusted).
pub fn record(trusted: &TrustedProxies, mut request: Request) -> Request {
    let client = match request.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(peer)) => ClientIp(resolve(peer.ip(), request.headers(), trusted)),
        None => ClientIp::UNKNOWN,
    };
    request.extensions_mut().insert(client);
    request
}
