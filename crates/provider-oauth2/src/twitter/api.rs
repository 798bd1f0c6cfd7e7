//! The JSON shape of X's `/2/users/me` answer that sign-in needs (PROVIDERS.md §7.5).
//!
//! No `Debug`: it holds an email, which stays out of logs.
//!
//! Every struct decodes from a JSON object only ([`ObjectOnly`]): an array in its place is a
//! malformed answer, not fields in order.

use serde::Deserialize;
use social_login_provider_core::ObjectOnly;

/// The answer: `{"data": {...}}`, or `{"errors": [...]}` without `data`.
#[derive(Clone, Deserialize)]
pub struct UsersMe {
    #[serde(default)]
    pub data: Option<User>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

#[derive(Clone, Deserialize)]
pub struct User {
    pub id: String,
    /// The display name; every account has one.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub profile_image_url: Option<String>,
    /// The account's confirmed email: sent only with `users.email` and
    /// `user.fields=confirmed_email`, and only if the app may request emails.
    #[serde(default)]
    pub confirmed_email: Option<String>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}
