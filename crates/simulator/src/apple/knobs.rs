//! The knobs of the simulated Apple: how its id_tokens spell booleans, private relay
//! addresses, Apple's strict redirect URIs, and the June-2025 discovery incident.

use serde::{Deserialize, Serialize};

/// How `email_verified` and `is_private_email` are written in the id_token: Apple sends
/// either (docs/providers.md#apple).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimStyle {
    /// `"true"` / `"false"`, as Apple's web flow sends them.
    #[default]
    Strings,
    /// `true` / `false`.
    Booleans,
}

/// The body of `POST /_control/apple_knobs`; every field defaults to off / strings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppleKnobs {
    pub claim_style: ClaimStyle,
    /// "Hide my email": the id_token and the `user` field carry a
    /// `…@privaterelay.appleid.com` address (stable per user and client) instead of the
    /// user's own, and `is_private_email` is true.
    pub private_relay_email: bool,
    /// Refuse redirect URIs that are not `https` on a domain name, as real Apple does
    /// (loopback and IP addresses included). Off, so local tests can use `127.0.0.1`.
    pub strict_redirect_uris: bool,
    /// The discovery document advertises `https://account.apple.com` while id_tokens keep
    /// `https://appleid.apple.com`: the incident that broke discovering clients (docs/providers.md#apple).
    pub advertise_account_apple_issuer: bool,
}
