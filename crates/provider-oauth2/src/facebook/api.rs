//! The JSON shape of the Graph API's user node that sign-in needs (PROVIDERS.md §3.5).
//!
//! No `Debug`: it holds an email, which stays out of logs.
//!
//! Every struct decodes from a JSON object only ([`ObjectOnly`]): an array in its place is a
//! malformed answer, not fields in order.

use serde::Deserialize;
use social_login_provider_core::ObjectOnly;

/// `GET /me?fields=id,name,email,picture`. A Graph error can come back instead, in the
/// envelope `{"error": {...}}`; `id` is then absent.
#[derive(Clone, Deserialize)]
pub struct Me {
    /// The app-scoped user id, a numeric string.
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// Absent when the `email` permission was declined or no valid email is on file.
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub picture: Option<Picture>,
    #[serde(default)]
    pub error: Option<GraphError>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

/// `picture` → `{"data": {...}}`.
#[derive(Clone, Deserialize)]
pub struct Picture {
    #[serde(default)]
    pub data: Option<PictureData>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

#[derive(Clone, Deserialize)]
pub struct PictureData {
    #[serde(default)]
    pub url: Option<String>,
    /// True for Facebook's generic default picture.
    #[serde(default)]
    pub is_silhouette: bool,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}

/// The Graph error envelope's content; only the type and code are repeated in logs (the
/// message is free text).
#[derive(Clone, Deserialize)]
pub struct GraphError {
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub code: Option<i64>,
    #[serde(flatten)]
    pub _object: ObjectOnly,
}
