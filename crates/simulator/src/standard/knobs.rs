//! What the standard providers say differently from the truth, set by a test.

use serde::{Deserialize, Serialize};

/// What the standard providers say differently from the truth, to test a client's checks;
/// the body of `POST /_control/standard_knobs` (every field optional).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StandardKnobs {
    /// The issuer `/oidc`'s discovery document announces; its id_tokens keep the real one.
    pub announced_issuer: Option<String>,
    /// The `sub` `/oidc`'s userinfo answers; its id_tokens keep the user's.
    pub userinfo_sub: Option<String>,
}
