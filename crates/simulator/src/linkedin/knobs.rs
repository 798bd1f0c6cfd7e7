//! The knobs of the simulated LinkedIn: what its token endpoint does with PKCE.
//!
//! LinkedIn supports PKCE for native apps only, by arrangement (docs/providers.md#linkedin); whether
//! a web app's token endpoint ignores or refuses a stray `code_verifier` is not verified
//! The default ignores it; `reject` is the app that `pkce = false` exists for.

use serde::{Deserialize, Serialize};

/// What the token endpoint does with a `code_verifier`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkedinPkce {
    /// Records the challenge and verifier and checks nothing (a web app).
    #[default]
    Ignore,
    /// Requires an S256 challenge at authorize and the matching verifier (a native app).
    Enforce,
    /// Refuses a token request that carries a `code_verifier` (`400 invalid_request`).
    Reject,
}

/// The body of `POST /_control/linkedin_knobs`; every field has its default when left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkedinKnobs {
    pub pkce: LinkedinPkce,
}
