//! The simulated Google, served under `/google`: one prefix stands in for
//! `accounts.google.com` (discovery, authorize), `oauth2.googleapis.com` (token),
//! `openidconnect.googleapis.com` (userinfo) and `www.googleapis.com` (certs). Its manners
//! are its dialect's; its id_tokens and userinfo are the standard ones, under its issuer.

use crate::hooks::{Cx, SimHooks};
use crate::paths::EndpointSet;

/// The endpoint URLs of the simulated Google (and LinkedIn), to put in a provider's
/// endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoogleEndpoints {
    pub discovery: String,
    pub authorization: String,
    pub token: String,
    pub userinfo: String,
    pub jwks: String,
    pub revocation: String,
    /// The `iss` its id_tokens carry (Google's: `<base>/google` unless configured).
    pub issuer: String,
}

impl From<EndpointSet> for GoogleEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            discovery: e.discovery.unwrap_or_default(),
            authorization: e.authorization,
            token: e.token,
            userinfo: e.userinfo.unwrap_or_default(),
            jwks: e.jwks.unwrap_or_default(),
            revocation: e.revocation.unwrap_or_default(),
            issuer: e.issuer.unwrap_or_default(),
        }
    }
}

pub struct Google;

impl SimHooks for Google {
    /// The configured issuer ([`crate::SimulatorConfig::google_issuer`]).
    fn issuer(&self, cx: &Cx<'_>) -> String {
        cx.sim.google_issuer.clone()
    }
}
