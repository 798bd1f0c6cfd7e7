//! `[server]`: where the HTTP service listens, which peers may name the client, where
//! clients reach it, and how it stops.

use super::proxies::checked_proxy_networks;
use ipnet::IpNet;
use serde::Deserialize;
use std::net::{AddrParseError, SocketAddr};
use std::time::Duration;

/// `[server]`: where the HTTP service listens and which peers may name the client.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerSettings {
    /// A socket address, e.g. `127.0.0.1:8080` or `0.0.0.0:8080`.
    pub bind: String,
    /// CIDRs or bare IPs of the reverse proxies in front of the service. Only a peer in one
    /// of them may name the client through `X-Forwarded-For`.
    pub trusted_proxies: Vec<String>,
    /// Where clients reach the service, e.g. `https://auth.example.com`: the base of every
    /// absolute URL it prints (never the request's `Host`). Unset: no discovery document.
    pub public_url: Option<String>,
    /// On SIGTERM, how long `/readyz` answers 503 while requests are still taken, before
    /// the service stops accepting: the time a load balancer takes to stop sending here.
    pub shutdown_delay_seconds: u64,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            bind: "127.0.0.1:8080".to_owned(),
            trusted_proxies: Vec::new(),
            public_url: None,
            shutdown_delay_seconds: 0,
        }
    }
}

impl ServerSettings {
    /// The parsed `bind`; never fails once [`super::Settings::validate`] passed.
    pub fn bind_addr(&self) -> Result<SocketAddr, AddrParseError> {
        self.bind.parse()
    }

    /// `public_url` as configured without a trailing `/`, when it is set and an absolute
    /// http(s) URL: what the default issuer is and every absolute URL starts with.
    pub fn public_base(&self) -> Option<&str> {
        let configured = self.public_url.as_deref()?;
        let url = url::Url::parse(configured).ok()?;
        matches!(url.scheme(), "http" | "https").then(|| configured.trim_end_matches('/'))
    }

    /// The absolute URL of `path` (which starts with `/`) under `public_url`, keeping any
    /// path prefix the service is mounted under: `https://x.example/auth` + `/a` is
    /// `https://x.example/auth/a`. `None` without a `public_url`. (The discovery document's
    /// `jwks_uri`; also what a provider's status or deletion callback URL is made of.)
    pub fn public_url_for(&self, path: &str) -> Option<String> {
        Some(format!("{}{path}", self.public_base()?))
    }

    /// [`Self::shutdown_delay_seconds`].
    pub fn shutdown_delay(&self) -> Duration {
        Duration::from_secs(self.shutdown_delay_seconds)
    }

    /// The `trusted_proxies` networks, in order (validated settings).
    pub fn trusted_proxy_networks(&self) -> impl Iterator<Item = IpNet> + '_ {
        checked_proxy_networks(&self.trusted_proxies)
    }
}
