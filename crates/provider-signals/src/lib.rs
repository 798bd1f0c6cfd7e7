//! Verifies the signals providers send about their accounts (docs/api.md, "Signals from
//! providers"; the provider facts with their sources: docs/providers.md), before anything
//! is stored:
//!
//! - [`AppleNotificationVerifier`]: Sign in with Apple server-to-server notifications, a JWS
//!   checked against Apple's key set (the id_token key-set cache, shared with the adapter);
//! - [`FacebookSignalVerifier`]: Meta's `signed_request` (data deletion and deauthorize
//!   callbacks), an HMAC-SHA256 under the app secret, compared in constant time;
//! - [`GoogleRiscVerifier`]: Google's Cross-Account Protection Security Event Tokens
//!   (RFC 8417), refused with RFC 8935's error codes.
//!
//! Each implements the `SignalVerifier` port and hands over a `VerifiedSignal`; what to do
//! with it is the use case's business.

mod apple;
mod facebook;
mod jws;
mod risc;

pub use apple::{APPLE_ISSUER, APPLE_JWKS_URL, AppleNotificationVerifier};
pub use facebook::FacebookSignalVerifier;
pub use jws::{JwsSignalSettings, MAX_SIGNAL_BYTES};
pub use risc::{
    GOOGLE_RISC_ISSUER, GOOGLE_RISC_JWKS_URL, GoogleRiscVerifier, RISC_EVENT_TYPES, VERIFICATION,
};
