//! `http.max_connections_per_ip`: how many open connections one client may hold, counted at
//! accept by the TCP peer's address (an IPv6 peer by its network of `rate_limit.ipv6_prefix`
//! bits, as the rate limit counts it).
//!
//! Without it one machine could open connections until the process ran out of descriptors,
//! or hold many slow requests at once. The peers in `server.trusted_proxies` are exempt:
//! each of their connections carries many clients, and limiting them would cap the whole
//! service at that number; behind them the proxy buffers and limits its own clients.

use crate::http::{ClientIp, TrustedProxies};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// The open connections per client of one listener. Only clients with a connection open
/// have an entry, so the map is bounded by the connections themselves.
#[derive(Debug)]
pub struct ConnectionsPerIp {
    max: usize,
    ipv6_prefix: u8,
    exempt: TrustedProxies,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// The client already holds its `max` connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooMany;

/// One counted connection; dropping it gives the place back.
#[derive(Debug)]
pub struct Counted {
    owner: Arc<ConnectionsPerIp>,
    key: IpAddr,
}

impl ConnectionsPerIp {
    pub fn new(max: usize, ipv6_prefix: u8, exempt: TrustedProxies) -> Arc<Self> {
        Arc::new(Self {
            max: max.max(1),
            ipv6_prefix,
            exempt,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// `Ok` with what to hold while the connection is open (`None` for an exempt proxy), or
    /// `Err` when `peer` already holds `max` connections.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Option<Counted>, TooMany> {
        if self.exempt.contains(peer) {
            return Ok(None);
        }
        let key = ClientIp(peer.to_canonical()).network(self.ipv6_prefix);
        // A counter bump under a lock held for nanoseconds; nothing awaits inside it.
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= self.max {
            return Err(TooMany);
        }
        *count += 1;
        Ok(Some(Counted {
            owner: self.clone(),
            key,
        }))
    }

    #[cfg(test)]
    fn clients(&self) -> usize {
        self.open.lock().unwrap().len()
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = self
            .owner
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_client_gets_max_connections_and_each_closed_one_back() {
        let limit = ConnectionsPerIp::new(2, 64, TrustedProxies::default());
        let first = limit.admit(ip("192.0.2.1")).unwrap();
        let _second = limit.admit(ip("192.0.2.1")).unwrap();
        assert!(limit.admit(ip("192.0.2.1")).is_err());
        assert!(limit.admit(ip("192.0.2.2")).is_ok(), "another client");
        drop(first);
        assert!(limit.admit(ip("192.0.2.1")).is_ok());
    }

    #[test]
    fn ipv6_clients_count_per_network_and_ipv4_mapped_peers_as_ipv4() {
        let limit = ConnectionsPerIp::new(1, 64, TrustedProxies::default());
        let _held = limit.admit(ip("2001:db8::1")).unwrap();
        assert!(limit.admit(ip("2001:db8::2")).is_err(), "same /64");
        assert!(limit.admit(ip("2001:db8:0:1::1")).is_ok(), "next /64");
        let _v4 = limit.admit(ip("192.0.2.1")).unwrap();
        assert!(limit.admit(ip("::ffff:192.0.2.1")).is_err());
    }

    #[test]
    fn trusted_proxies_are_not_counted() {
        let proxies = TrustedProxies::new(["10.0.0.0/8".parse().unwrap()]);
        let limit = ConnectionsPerIp::new(1, 64, proxies);
        let held: Vec<_> = (0..5)
            .map(|_| limit.admit(ip("10.0.0.2")).unwrap())
            .collect();
        assert!(held.iter().all(Option::is_none));
        assert_eq!(limit.clients(), 0);
    }

    #[test]
    fn a_client_whose_connections_all_closed_leaves_no_entry() {
        let limit = ConnectionsPerIp::new(3, 64, TrustedProxies::default());
        let held: Vec<_> = (0..3)
            .map(|_| limit.admit(ip("192.0.2.9")).unwrap())
            .collect();
        assert_eq!(limit.clients(), 1);
        drop(held);
        assert_eq!(limit.clients(), 0);
    }
}
