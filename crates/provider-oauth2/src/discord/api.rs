//! The JSON shape of Discord's user object that sign-in needs (PROVIDERS.md §6.5).
//!
//! No `Debug`: it holds an email, which stays out of logs.
//!
//! Every struct decodes from a JSON object only ([`ObjectOnly`]): an array in its place is a
//! malformed answer, not fields in order.

use serde::Deserialize;
use social_login_provider_core::ObjectOnly;

/// `GET /users/@me`.
#[derive(Clone, Deserialize)]
pub struct User {
    /// A snowflake: a 64-bit unsigned integer sent as a string.
    pub id: String,
    #[serde(default)]
    pub username: Option<String>,
    /// `"0"` for users migrated to unique usernames, else the legacy four digits.
    #[serde(default)]
    pub discriminator: Option<String>,
    /// The display name; null when the user set none.
    #[serde(default)]
    pub global_name: Option<String>,
    /// The avatar hash; null means the default avatar.
    #[serde(default)]
    pub avatar: Option<String>,
    /// Present with the `email` scope; may still be null (a phone-only account).
    #[serde(default)]
    pub email: Option<String>,
    /// Whether the email is verified; present with the `email` scope.
    #[serde(default)]
    pub verified: Option<bool>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}
