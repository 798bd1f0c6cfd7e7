//! The two standards-only providers: `/oidc` (OpenID Connect as the specifications say it)
//! and `/oauth2` (OAuth 2.0 with a user document of its own shape), and the knobs that make
//! them lie for a client's checks to catch. What they share with every provider is in
//! `dialects`.

mod oauth2;
mod oidc;
