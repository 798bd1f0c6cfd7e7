//! Sign in with Apple (spec 4.7, PROVIDERS.md §8).
//!
//! Apple differs from the other OIDC providers in three ways, one module each:
//! - [`client_secret`]: no static client secret; every code exchange sends a fresh ES256
//!   JWT signed with the team's `.p8` key, valid for five minutes, in the POST body;
//! - [`identity`]: no userinfo endpoint; everything comes from the id_token, verified with
//!   the shared [`social_login_id_token::IdTokenVerifier`] against Apple's key
//!   set (cached one hour, shared per process), and the name only from the first login's
//!   form_post, which the HTTP layer hands over untouched as `CallbackInput::post_body`
//!   and [`post_body`] reads;
//! - [`provider`]: the authorization request asks for `response_mode=form_post`.

pub mod client_secret;
pub mod identity;
#[cfg(test)]
mod native_tests;
pub mod post_body;
pub mod provider;
pub mod revoke;

pub use client_secret::{APPLE_AUDIENCE, CLIENT_SECRET_LIFETIME, ClientSecretSigner};
pub use provider::{APPLE_DEFAULTS, APPLE_ISSUER, APPLE_JWKS_URL, AppleProvider};
pub use revoke::APPLE_REVOCATION_URL;
