//! The JSON shapes of GitHub's REST answers that sign-in needs (PROVIDERS.md §2.5).
//!
//! No `Debug`: these hold emails, which stay out of logs.
//!
//! Every struct decodes from a JSON object only ([`ObjectOnly`]): an array in its place is a
//! malformed answer, not fields in order.

use serde::Deserialize;
use social_login_provider_core::ObjectOnly;

/// `GET /user`.
#[derive(Clone, Deserialize)]
pub struct User {
    /// Stable numeric id; the `login` handle can be renamed, this cannot.
    pub id: u64,
    #[serde(default)]
    pub name: Option<String>,
    /// The public email; null unless the user chose to show one.
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

/// One entry of `GET /user/emails`.
#[derive(Clone, Deserialize)]
pub struct EmailEntry {
    pub email: String,
    #[serde(default)]
    pub primary: bool,
    #[serde(default)]
    pub verified: bool,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}
