//! The signals a person's action at a provider makes the provider send (docs/providers.md):
//! Apple's server-to-server notifications, Meta's data deletion and deauthorize callbacks,
//! Google's Cross-Account Protection events, each signed as the real provider signs it
//! (Apple's and Google's with the simulator's key ring, Meta's with the registered app
//! secret) about a simulated user.
//!
//! `POST /_control/signals/build` answers the signed request (path, type, body) for a test
//! to send or alter; `POST /_control/signals/send` also sends it to the service at `to` and
//! answers the service's status and body, for the demo's buttons.

use crate::config::Provider;
use crate::flow::unix_now;
use crate::lock::locked;
use crate::state::SimState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::Sha256;
use std::sync::Arc;

/// Apple's `iss` and Google's RISC `iss` (with its slash), as the real ones are.
const APPLE_ISSUER: &str = crate::apple::APPLE_ISSUER;
const RISC_ISSUER: &str = "https://accounts.google.com/";
const RISC: &str = "https://schemas.openid.net/secevent/risc/event-type/";

/// What the person did at the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalKind {
    /// Apple `consent-revoked`: stopped using Sign in with Apple with this app.
    RevokeConsent,
    /// Apple `account-delete`: deleted the Apple Account.
    DeleteAppleAccount,
    /// Apple `email-disabled`: switched off Hide My Email forwarding.
    DisableEmailForwarding,
    /// Meta's data deletion callback: asked the app to delete their data.
    RequestDataDeletion,
    /// Meta's deauthorize callback: removed the app.
    RemoveFacebookApp,
    /// RISC `account-disabled` (reason `hijacking`): Google found the account hijacked.
    ReportHijacking,
    /// RISC `account-enabled`: Google gave the account back.
    RecoverGoogleAccount,
    /// RISC `sessions-revoked`.
    RevokeGoogleSessions,
    /// RISC `tokens-revoked` (OAuth event).
    RevokeGoogleTokens,
    /// RISC `account-purged`.
    DeleteGoogleAccount,
}

/// `POST /_control/signals/build` and `/send`: which signal, about whom (a login or id; the
/// current identity when absent), and for `send` where the service is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignalRequest {
    pub kind: SignalKind,
    pub user: Option<String>,
    /// The service's base URL (`send` only), e.g. `http://127.0.0.1:8080`.
    pub to: Option<String>,
}

/// A signed request, ready to post to the service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignalDelivery {
    /// Under the service's base URL.
    pub path: String,
    pub content_type: String,
    pub body: String,
}

/// What the service answered (`send`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignalAnswer {
    pub delivery: SignalDelivery,
    pub status: u16,
    pub body: String,
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/build", post(build))
        .route("/send", post(send))
}

async fn build(
    State(sim): State<Arc<SimState>>,
    Json(request): Json<SignalRequest>,
) -> Result<Json<SignalDelivery>, (StatusCode, String)> {
    delivery(&sim, &request).map(Json)
}

async fn send(
    State(sim): State<Arc<SimState>>,
    Json(request): Json<SignalRequest>,
) -> Result<Json<SignalAnswer>, (StatusCode, String)> {
    let delivery = delivery(&sim, &request)?;
    let refused = |why: String| (StatusCode::BAD_GATEWAY, why);
    let to = request
        .to
        .as_deref()
        .ok_or((StatusCode::BAD_REQUEST, "no `to`".into()))?;
    let answer = reqwest::Client::new()
        .post(format!("{}{}", to.trim_end_matches('/'), delivery.path))
        .header("content-type", &delivery.content_type)
        .body(delivery.body.clone())
        .send()
        .await
        .map_err(|error| refused(format!("the service could not be reached: {error}")))?;
    let status = answer.status().as_u16();
    let body = answer.text().await.unwrap_or_default();
    Ok(Json(SignalAnswer {
        delivery,
        status,
        body,
    }))
}

/// The signed request for `request`, or why there is none (no such user, no client).
pub(crate) fn delivery(
    sim: &SimState,
    request: &SignalRequest,
) -> Result<SignalDelivery, (StatusCode, String)> {
    let user = locked(&sim.directory)
        .choose(request.user.as_deref())
        .ok_or((StatusCode::NOT_FOUND, "no such simulated user".to_owned()))?;
    let client = |provider: Provider| {
        sim.clients
            .iter()
            .find(|client| client.provider == provider)
            .ok_or((
                StatusCode::CONFLICT,
                format!("no {provider:?} client is registered"),
            ))
    };
    let now = unix_now();
    let jti = crate::random::hex(32);
    let apple = |kind: &str| -> Result<SignalDelivery, (StatusCode, String)> {
        let claims = json!({
            "iss": APPLE_ISSUER, "aud": client(Provider::Apple)?.client_id, "iat": now,
            "exp": now + 86_400, "jti": jti,
            // Apple sends the event as a JSON string, its time in milliseconds.
            "events": json!({"type": kind, "sub": user.id, "event_time": now * 1000}).to_string(),
        });
        Ok(SignalDelivery {
            path: "/auth/oauth/apple/notifications".into(),
            content_type: "application/json".into(),
            body: json!({"payload": sim.keys.sign(&claims, None)}).to_string(),
        })
    };
    // The members Meta's examples show: the deletion request carries `expires`, the
    // deauthorize callback the person's `user` (country, locale).
    let facebook = |path: &str, extra: Value| -> Result<SignalDelivery, (StatusCode, String)> {
        let mut payload = json!({"algorithm": "HMAC-SHA256", "issued_at": now, "user_id": user.id});
        if let (Some(payload), Value::Object(extra)) = (payload.as_object_mut(), extra) {
            payload.extend(extra);
        }
        let signed = signed_request(&client(Provider::Facebook)?.client_secret, &payload);
        Ok(SignalDelivery {
            path: path.into(),
            content_type: "application/x-www-form-urlencoded".into(),
            body: format!("signed_request={signed}"),
        })
    };
    let risc = |uri: &str, details: Value| -> Result<SignalDelivery, (StatusCode, String)> {
        let mut event =
            json!({"subject": {"subject_type": "iss-sub", "iss": RISC_ISSUER, "sub": user.id}});
        if let (Some(event), Value::Object(details)) = (event.as_object_mut(), details) {
            event.extend(details);
        }
        let claims = json!({
            "iss": RISC_ISSUER, "aud": client(Provider::Google)?.client_id, "iat": now,
            "jti": jti, "events": {uri: event},
        });
        Ok(SignalDelivery {
            path: "/auth/oauth/google/risc".into(),
            content_type: "application/secevent+jwt".into(),
            body: sim.keys.sign(&claims, None),
        })
    };
    match request.kind {
        SignalKind::RevokeConsent => apple("consent-revoked"),
        SignalKind::DeleteAppleAccount => apple("account-delete"),
        SignalKind::DisableEmailForwarding => apple("email-disabled"),
        SignalKind::RequestDataDeletion => facebook(
            "/auth/oauth/facebook/data-deletion",
            json!({"expires": now + 3600}),
        ),
        SignalKind::RemoveFacebookApp => facebook(
            "/auth/oauth/facebook/deauthorize",
            json!({"user": {"country": "gb", "locale": "en_GB"}}),
        ),
        SignalKind::ReportHijacking => risc(
            &format!("{RISC}account-disabled"),
            json!({"reason": "hijacking"}),
        ),
        SignalKind::RecoverGoogleAccount => risc(&format!("{RISC}account-enabled"), json!({})),
        SignalKind::RevokeGoogleSessions => risc(&format!("{RISC}sessions-revoked"), json!({})),
        SignalKind::RevokeGoogleTokens => risc(
            "https://schemas.openid.net/secevent/oauth/event-type/tokens-revoked",
            json!({}),
        ),
        SignalKind::DeleteGoogleAccount => risc(&format!("{RISC}account-purged"), json!({})),
    }
}

/// Meta's `signed_request`: base64url (no padding) of the HMAC-SHA256, under the app secret,
/// of the base64url-encoded JSON payload, then `.` and that payload.
pub fn signed_request(app_secret: &str, payload: &Value) -> String {
    let encoded = URL_SAFE_NO_PAD.encode(payload.to_string());
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(app_secret.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(encoded.as_bytes());
    format!(
        "{}.{encoded}",
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    )
}
