//! Request and response bodies of the API, with their OpenAPI schemas.

use serde::{Deserialize, Serialize};
use social_login_app::LoginResult;
use social_login_domain::{AuditEvent, LinkedAccount, User};
use social_login_ports::{PostBody, ProviderInfo};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use utoipa::ToSchema;

mod export;
pub use export::{ExportRead, ExportedSession};

#[derive(Debug, Serialize, ToSchema)]
pub struct AuthorizeResponse {
    /// Where to send the user's browser.
    pub authorization_url: String,
}

/// One enabled provider (`GET /auth/oauth/providers`): exactly these four fields.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProviderRead {
    /// The `{provider}` of every provider endpoint.
    pub key: String,
    /// What a sign-in button says.
    pub display_name: String,
    /// `oidc` or `oauth2`.
    pub kind: &'static str,
    /// Apps may sign in with an id_token of this provider (`/id-token`).
    pub id_token: bool,
}

impl From<&ProviderInfo> for ProviderRead {
    fn from(info: &ProviderInfo) -> Self {
        Self {
            key: info.key.to_string(),
            display_name: info.display_name.clone(),
            kind: info.kind.as_str(),
            id_token: info.id_token,
        }
    }
}

/// Body of `POST /auth/link/complete`. No `Debug`: the token carries sealed provider tokens.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkCompleteRequest {
    /// The `link_token` of the 409 `EmailAlreadyRegistered` a provider login answered.
    pub link_token: String,
}

/// Body of callback and connect. No `Debug`: it carries the code (and Apple's id_token).
#[derive(Deserialize, ToSchema)]
pub struct CallbackRequest {
    /// Authorization code from the provider.
    pub code: String,
    /// The state value from the authorize step.
    pub state: String,
    /// Apple's first form_post body as received (others ignore it): an object or null, else 422.
    #[schema(value_type = Option<Object>)]
    #[serde(default, deserialize_with = "object_or_null")]
    pub post_body: Option<PostBody>,
    /// The secret of authorize's `binding_challenge`, if any: else 400, nothing spent.
    pub binding: Option<String>,
}

/// Body of native sign-in and its connect (docs/api.md#native-sign-in). No `Debug`: it carries the id_token.
#[derive(Deserialize, ToSchema)]
pub struct IdTokenRequest {
    /// The id_token the app received from the provider on the device (at most 16 KiB).
    pub id_token: String,
    /// The raw nonce the app chose (at most 512 bytes); the token's `nonce` claim must be its
    /// hex SHA-256. Required (422 without it) unless the provider's `id_token_nonce` is
    /// "optional"; a token that carries a `nonce` claim needs it either way.
    pub nonce: Option<String>,
    /// Apple only: what Apple gave the app on the first authorization, as
    /// `{"user": {"name": {"firstName", "lastName"}}}` (the name is in no token).
    #[schema(value_type = Option<Object>)]
    #[serde(default, deserialize_with = "object_or_null")]
    pub post_body: Option<PostBody>,
    /// Apple only (422 for another provider): the authorization code Sign in with Apple
    /// gave the app with the id_token (at most 2 KiB). It is exchanged as the client the
    /// id_token was issued to and the tokens are stored encrypted, so that disconnect and
    /// account deletion revoke the grant at Apple; a code Apple refuses is 502
    /// `OAuthCodeExchangeFailed` and nobody is signed in.
    pub authorization_code: Option<String>,
}

/// A `post_body` as the provider's adapter takes it: the object as it came, in JSON.
fn object_or_null<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<PostBody>, D::Error> {
    let value = Option::<serde_json::Map<String, serde_json::Value>>::deserialize(deserializer)?;
    Ok(value.map(|object| PostBody::new(serde_json::Value::Object(object).to_string())))
}

/// UserRead (docs/api.md#userread).
#[derive(Debug, Serialize, ToSchema)]
pub struct UserRead {
    pub id: String,
    pub email: Option<String>,
    pub full_name: Option<String>,
    pub avatar_url: Option<String>,
    pub email_verified: bool,
    pub has_password: bool,
    /// RFC 3339.
    pub created_at: String,
}

impl From<&User> for UserRead {
    fn from(user: &User) -> Self {
        Self {
            id: user.id.to_string(),
            email: user.email.as_ref().map(|email| email.as_str().to_owned()),
            full_name: user.full_name.clone(),
            avatar_url: user.avatar_url.clone(),
            email_verified: user.email_verified,
            has_password: user.has_password(),
            created_at: rfc3339(user.created_at),
        }
    }
}

/// The login result (docs/api.md#resources). No `Debug`: it carries live session tokens.
#[derive(Serialize, ToSchema)]
pub struct LoginResponse {
    pub access_token: String,
    pub refresh_token: String,
    /// Always `bearer`.
    pub token_type: &'static str,
    pub user: UserRead,
    pub is_new_user: bool,
}

impl LoginResponse {
    /// Room for the JSON of a usual login answer (an access token of a few hundred bytes,
    /// a refresh token, the user), so it is written without growing its buffer.
    pub const TYPICAL_JSON_BYTES: usize = 1024;
}

impl From<LoginResult> for LoginResponse {
    fn from(result: LoginResult) -> Self {
        Self {
            access_token: result.access_token.value.expose().to_owned(),
            refresh_token: result.refresh_token.expose().to_owned(),
            token_type: "bearer",
            user: UserRead::from(&result.user),
            is_new_user: result.is_new_user,
        }
    }
}

/// A linked account: exactly these five fields, never a token.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinkedAccountRead {
    pub id: String,
    pub provider: String,
    pub email: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// The scopes the provider granted the stored tokens (empty when unknown).
    pub scopes: Vec<String>,
}

impl From<&LinkedAccount> for LinkedAccountRead {
    fn from(link: &LinkedAccount) -> Self {
        Self {
            id: link.id.to_string(),
            provider: link.provider.to_string(),
            email: link.email.as_ref().map(|email| email.as_str().to_owned()),
            created_at: rfc3339(link.created_at),
            scopes: link.scopes.iter().map(str::to_owned).collect(),
        }
    }
}

/// One of the caller's live sessions (docs/api.md#your-sessions): an exported session and
/// `current`.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionRead {
    pub id: String,
    /// RFC 3339: when its login happened.
    pub created_at: String,
    /// RFC 3339: when its newest refresh token was issued (the login, or the last refresh).
    pub last_used_at: String,
    /// What it began with: `password`, a provider key, or null for a session from before
    /// the service recorded it.
    pub provider: Option<String>,
    /// Whether the caller's own access token belongs to it.
    pub current: bool,
}

// Its fields are its own rather than a flattened `ExportedSession`: the OpenAPI document
// would describe a flattened field as an `allOf`, not the one flat object clients know.
impl From<&social_login_app::SessionListed> for SessionRead {
    fn from(listed: &social_login_app::SessionListed) -> Self {
        let ExportedSession {
            id,
            created_at,
            last_used_at,
            provider,
        } = ExportedSession::from(&listed.session);
        Self {
            id,
            created_at,
            last_used_at,
            provider,
            current: listed.current,
        }
    }
}

/// An audit event of the caller (docs/api.md#audit-event): these five fields, and `actor`
/// on what support did.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditEventRead {
    pub id: String,
    /// `user.registered`, `user.login`, `account.linked`, `account.unlinked`,
    /// `session.logout`, `session.refresh_reuse_detected`, `user.deleted`,
    /// `provider.revocation_failed`.
    pub r#type: &'static str,
    pub provider: Option<String>,
    /// The client IP, as the trusted-proxy rules resolved it; null when support acted (the
    /// operator's address is not the user's to see).
    pub ip: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// `"admin"` when support made the change with an admin key; absent when the user did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<&'static str>,
    /// How the change came about, when its type does not say: `link_token` on an
    /// `account.linked` completed after a 409 (docs/api.md#finishing-a-link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
}

impl From<&AuditEvent> for AuditEventRead {
    fn from(event: &AuditEvent) -> Self {
        Self {
            id: event.id.to_string(),
            r#type: event.kind.as_str(),
            provider: event.provider.map(|p| p.to_string()),
            ip: event.origin.ip_shown_to_user().map(|ip| ip.to_string()),
            created_at: rfc3339(event.created_at),
            actor: event.origin.admin().map(|_| "admin"),
            via: event.origin.how().map(|via| via.as_str()),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct RegisterRequest {
    pub email: String,
    pub password: String,
    pub full_name: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

/// Body of refresh and logout.
#[derive(Deserialize, ToSchema)]
pub struct RefreshRequest {
    pub refresh_token: String,
}

pub(super) fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
}

/// `axum::Json`, serialised into one buffer of `capacity` bytes: axum's starts at 128 and
/// grows (a reallocation each time) while an authorization URL or a pair of tokens is
/// written into it. The same body, the same `Content-Type`, and the same 500 when a value
/// cannot be serialised.
pub struct SizedJson<T> {
    pub value: T,
    pub capacity: usize,
}

impl<T: Serialize> axum::response::IntoResponse for SizedJson<T> {
    fn into_response(self) -> axum::response::Response {
        let mut body = Vec::with_capacity(self.capacity);
        match serde_json::to_writer(&mut body, &self.value) {
            Ok(()) => {
                let mut response = axum::response::Response::new(axum::body::Body::from(body));
                response.headers_mut().insert(
                    axum::http::header::CONTENT_TYPE,
                    axum::http::HeaderValue::from_static("application/json"),
                );
                response
            }
            Err(error) => (
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                [(
                    axum::http::header::CONTENT_TYPE,
                    axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
                )],
                error.to_string(),
            )
                .into_response(),
        }
    }
}

/// A connect's answer: 201 with the new linked account, or 200 with the caller's own link
/// whose tokens it renewed.
pub struct ConnectedRead(pub social_login_app::Connected);

impl axum::response::IntoResponse for ConnectedRead {
    fn into_response(self) -> axum::response::Response {
        let status = if self.0.renewed {
            axum::http::StatusCode::OK
        } else {
            axum::http::StatusCode::CREATED
        };
        (status, axum::Json(LinkedAccountRead::from(&self.0.link))).into_response()
    }
}
