//! Bodies of the signal endpoints, with their OpenAPI schemas.

use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;

/// What Apple posts to the notification endpoint.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct AppleNotification {
    /// A JWS signed with Apple's id_token keys (its `events` claim says what happened).
    pub payload: String,
}

/// What Meta posts to its two callbacks (`application/x-www-form-urlencoded`).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SignedRequestForm {
    /// `<signature>.<payload>`, base64url: the HMAC-SHA256 of the encoded payload under the
    /// app secret, and the JSON payload (`algorithm`, `issued_at`, `user_id`).
    pub signed_request: String,
}

/// Meta's expected answer to a data deletion request.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataDeletionAnswer {
    /// Where the person can follow the request: `[server] public_url` +
    /// `/auth/oauth/facebook/data-deletion/{confirmation_code}`.
    pub url: String,
    /// The same for the same request, however often it comes.
    pub confirmation_code: String,
}

/// The status of a data deletion request.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataDeletionStatus {
    pub confirmation_code: String,
    /// Always `completed`: the deletion happens while the request is answered.
    pub status: &'static str,
    /// RFC 3339.
    pub completed_at: String,
}

impl DataDeletionStatus {
    pub fn completed(confirmation_code: &str, at: OffsetDateTime) -> Self {
        Self {
            confirmation_code: confirmation_code.to_owned(),
            status: "completed",
            completed_at: at.format(&Rfc3339).unwrap_or_default(),
        }
    }
}

/// RFC 8935 §2.3: why a Security Event Token was refused (not problem+json: the RFC fixes
/// this format for the transmitter).
#[derive(Debug, Serialize, ToSchema)]
pub struct SetError {
    /// `invalid_request`, `invalid_key`, `invalid_issuer` or `invalid_audience`.
    pub err: &'static str,
    /// Which check failed, for the people behind the transmitter.
    pub description: String,
}
