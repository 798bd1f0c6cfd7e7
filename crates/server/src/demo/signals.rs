//! The demo page's signal buttons: `POST /demo/signals {"kind"}` with the person's bearer
//! token asks the simulator to act as the provider (Apple, Meta, Google) would when the
//! person revokes consent, deletes their account, asks for their data to be deleted or has
//! their account hijacked: it signs the signal about the person's linked account of that
//! provider and sends it to this service's public signal endpoint, like any provider.
//!
//! Only the demo has this route: it needs the simulator, and the page must not learn the
//! provider subjects (the API never shows them), so the lookup happens here.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use social_login_app::AuthService;
use social_login_domain::ProviderKey;
use social_login_simulator::{SignalAnswer, SignalKind, SignalRequest};
use std::sync::Arc;
use std::time::Duration;

/// What the route needs: the service (whose accounts), the simulator (who signs), and where
/// the simulator sends the signal (this service).
#[derive(Clone)]
pub struct DemoSignals {
    pub service: Arc<AuthService>,
    pub simulator_url: String,
    pub service_url: String,
    pub http: reqwest::Client,
}

#[derive(Deserialize)]
struct Button {
    kind: SignalKind,
}

pub fn routes(signals: DemoSignals) -> Router {
    Router::new()
        .route("/demo/signals", post(send))
        .route("/demo/provider-grants/revoke", post(revoke_grants))
        .with_state(signals)
}

/// The relay panel's "revoke": the simulated providers drop every grant they issued, as a
/// person revoking the app at their provider does, so the next relayed call meets a refused
/// refresh (docs/api.md#relay).
async fn revoke_grants(State(demo): State<DemoSignals>, headers: HeaderMap) -> Response {
    if signed_in(&demo, &headers).is_none() {
        return problem(
            StatusCode::UNAUTHORIZED,
            "Unauthorized",
            "Sign in first",
            "Revoking is about the signed-in person's grants.",
        );
    }
    let sent = demo
        .http
        .post(format!("{}/_control/grants/revoke", demo.simulator_url))
        .timeout(Duration::from_secs(10))
        .send()
        .await;
    match sent {
        Ok(sent) if sent.status().is_success() => StatusCode::NO_CONTENT.into_response(),
        _ => problem(
            StatusCode::BAD_GATEWAY,
            "SimulatorUnavailable",
            "The simulator did not revoke the grants",
            "The simulated provider could not be reached.",
        ),
    }
}

/// The user of the request's bearer token, if it is valid.
fn signed_in(demo: &DemoSignals, headers: &HeaderMap) -> Option<social_login_domain::UserId> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))?;
    demo.service.authenticate(bearer)
}

/// The provider whose signal `kind` is.
fn provider_of(kind: SignalKind) -> ProviderKey {
    match kind {
        SignalKind::RevokeConsent
        | SignalKind::DeleteAppleAccount
        | SignalKind::DisableEmailForwarding => ProviderKey::APPLE,
        SignalKind::RequestDataDeletion | SignalKind::RemoveFacebookApp => ProviderKey::FACEBOOK,
        SignalKind::ReportHijacking
        | SignalKind::RecoverGoogleAccount
        | SignalKind::RevokeGoogleSessions
        | SignalKind::RevokeGoogleTokens
        | SignalKind::DeleteGoogleAccount => ProviderKey::GOOGLE,
    }
}

/// How the page names the provider.
fn name_of(provider: ProviderKey) -> &'static str {
    match provider {
        ProviderKey::APPLE => "Apple",
        ProviderKey::FACEBOOK => "Facebook",
        _ => "Google",
    }
}

/// A problem the page shows as it shows the API's.
fn problem(status: StatusCode, code: &str, title: &str, detail: &str) -> Response {
    let body = json!({"type": "about:blank", "title": title, "status": status.as_u16(),
                      "code": code, "detail": detail});
    (
        status,
        [(header::CONTENT_TYPE, "application/problem+json")],
        body.to_string(),
    )
        .into_response()
}

async fn send(
    State(demo): State<DemoSignals>,
    headers: HeaderMap,
    Json(button): Json<Button>,
) -> Response {
    let Some(user) = signed_in(&demo, &headers) else {
        return problem(
            StatusCode::UNAUTHORIZED,
            "Unauthorized",
            "Sign in first",
            "A signal is about the signed-in person's linked account.",
        );
    };
    let provider = provider_of(button.kind);
    let accounts = match demo.service.accounts(user).await {
        Ok(accounts) => accounts,
        Err(_) => {
            let detail = "The service could not list your accounts.";
            return problem(
                StatusCode::SERVICE_UNAVAILABLE,
                "ServiceUnavailable",
                "Try again",
                detail,
            );
        }
    };
    let Some(link) = accounts.iter().find(|link| link.provider == provider) else {
        let name = name_of(provider);
        let title = format!("No {name} account is linked");
        let detail = format!("Connect {name} first: the signal is about that account.");
        return problem(StatusCode::CONFLICT, "NotLinked", &title, &detail);
    };
    let request = SignalRequest {
        kind: button.kind,
        user: Some(link.subject.as_str().to_owned()),
        to: Some(demo.service_url.clone()),
    };
    let sent = demo
        .http
        .post(format!("{}/_control/signals/send", demo.simulator_url))
        .json(&request)
        .timeout(Duration::from_secs(10))
        .send()
        .await;
    let answer = match sent {
        Ok(sent) if sent.status().is_success() => sent.json::<SignalAnswer>().await.ok(),
        _ => None,
    };
    match answer {
        Some(answer) if (200..300).contains(&answer.status) => Json(json!({
            "provider": provider.as_str(),
            "path": answer.delivery.path,
            "status": answer.status,
        }))
        .into_response(),
        Some(answer) => {
            let detail = format!(
                "{} answered HTTP {}: {}",
                answer.delivery.path, answer.status, answer.body
            );
            problem(
                StatusCode::BAD_GATEWAY,
                "SignalRefused",
                "The service refused the signal",
                &detail,
            )
        }
        None => problem(
            StatusCode::BAD_GATEWAY,
            "SimulatorUnavailable",
            "The simulator did not send the signal",
            "The simulated provider could not be reached.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_button_is_about_its_providers_account() {
        assert_eq!(provider_of(SignalKind::RevokeConsent), ProviderKey::APPLE);
        assert_eq!(
            provider_of(SignalKind::DeleteAppleAccount),
            ProviderKey::APPLE
        );
        assert_eq!(
            provider_of(SignalKind::RequestDataDeletion),
            ProviderKey::FACEBOOK
        );
        assert_eq!(
            provider_of(SignalKind::ReportHijacking),
            ProviderKey::GOOGLE
        );
    }
}
