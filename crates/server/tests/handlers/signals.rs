//! The signal endpoints' HTTP side: 404 before anything when the provider is off, each body
//! read as its provider sends it (the wrong type or shape is 400, never 422), RFC 8935's own
//! error body on the RISC endpoint, 413 past the limit, the status URL and the OpenAPI paths.

use super::*;
use social_login_domain::{ProviderSubject, SignalId, SignalKind, SignalSource};
use social_login_ports::{SignalVerifier, VerifiedSignal};
use social_login_testing::FakeSignalVerifier;

struct Endpoints {
    app: Router,
    apple: Arc<FakeSignalVerifier>,
    deletion: Arc<FakeSignalVerifier>,
    risc: Arc<FakeSignalVerifier>,
}

/// Apple, Facebook and Google enabled, each signal endpoint with a scripted verifier.
fn endpoints() -> Endpoints {
    let verifier = |source| Arc::new(FakeSignalVerifier::new(source));
    let apple = verifier(SignalSource::AppleNotification);
    let deletion = verifier(SignalSource::FacebookDataDeletion);
    let deauthorize = verifier(SignalSource::FacebookDeauthorize);
    let risc = verifier(SignalSource::GoogleRisc);
    let mut providers = ProviderRegistry::new();
    for key in [
        ProviderKey::APPLE,
        ProviderKey::FACEBOOK,
        ProviderKey::GOOGLE,
    ] {
        providers = providers.with(Arc::new(FakeProvider::new(key)));
    }
    let verifiers = SignalVerifiers::new()
        .with(apple.clone())
        .with(deletion.clone())
        .with(deauthorize)
        .with(risc.clone());
    Endpoints {
        app: app_with_signals(providers, verifiers),
        apple,
        deletion,
        risc,
    }
}

/// A token `verifier` accepts, about an account linked to nobody.
fn signed(verifier: &FakeSignalVerifier, id: &str, kind: SignalKind) -> String {
    let now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    verifier.sign(VerifiedSignal {
        source: verifier.source(),
        id: SignalId::parse(id).unwrap(),
        issued_at: now,
        kind,
        subject: Some(ProviderSubject::parse("nobody").unwrap()),
        occurred_at: now,
        payload: None,
    })
}

fn post(path: &str, content_type: &str, body: String) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}

const FORM: &str = "application/x-www-form-urlencoded";
const SET: &str = "application/secevent+jwt";

#[tokio::test]
async fn a_signal_endpoint_of_a_provider_that_is_off_is_not_configured_whatever_it_gets() {
    let app = app(github());
    for (path, content_type) in [
        ("/auth/oauth/apple/notifications", "text/plain"),
        ("/auth/oauth/facebook/data-deletion", "text/plain"),
        ("/auth/oauth/facebook/deauthorize", FORM),
        ("/auth/oauth/google/risc", "text/plain"),
    ] {
        let request = post(path, content_type, "junk".into());
        assert_problem(&app, request, 404, "OAuthProviderNotConfigured").await;
    }
}

#[tokio::test]
async fn a_verified_apple_notification_is_200_and_anything_else_400_invalid_signal() {
    let endpoints = endpoints();
    let token = signed(&endpoints.apple, "jti-1", SignalKind::ConsentRevoked);
    let path = "/auth/oauth/apple/notifications";
    let ok = post(
        path,
        "application/json; charset=utf-8",
        json!({"payload": token}).to_string(),
    );
    let (status, _, _) = send(&endpoints.app, ok).await;
    assert_eq!(status, StatusCode::OK);
    for request in [
        post(
            path,
            "application/json",
            json!({"payload": "forged"}).to_string(),
        ),
        post(path, "application/json", "{not json".into()),
        post(path, "application/json", json!({"payload": 7}).to_string()),
        post(path, FORM, format!("payload={token}")),
    ] {
        assert_problem(&endpoints.app, request, 400, "InvalidSignal").await;
    }
    assert_eq!(
        endpoints.apple.presented(),
        [token, "forged".to_owned()],
        "only readable ones"
    );
    assert_problem(&endpoints.app, get(path), 405, "MethodNotAllowed").await;
}

#[tokio::test]
async fn a_data_deletion_answers_its_status_url_under_public_url_and_the_status_is_served() {
    let endpoints = endpoints();
    let token = signed(
        &endpoints.deletion,
        "c0ffee",
        SignalKind::DataDeletionRequested,
    );
    let form = format!("signed_request={token}");
    let request = post("/auth/oauth/facebook/data-deletion", FORM, form.clone());
    let (status, _, body) = send(&endpoints.app, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body,
        json!({"url": format!("{PUBLIC_URL}/auth/oauth/facebook/data-deletion/c0ffee"),
               "confirmation_code": "c0ffee"})
    );
    let (status, _, again) = send(
        &endpoints.app,
        post("/auth/oauth/facebook/data-deletion", FORM, form),
    )
    .await;
    assert_eq!(
        (status, again),
        (StatusCode::OK, body),
        "the same request, the same answer"
    );

    let (status, content_type, status_body) = send(
        &endpoints.app,
        get("/auth/oauth/facebook/data-deletion/c0ffee"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type.as_deref(), Some("application/json"));
    assert_eq!(status_body["status"], "completed");
    assert_eq!(status_body["confirmation_code"], "c0ffee");
    assert!(
        status_body["completed_at"]
            .as_str()
            .unwrap()
            .starts_with("2027-01-15T")
    );

    let page = Request::get("/auth/oauth/facebook/data-deletion/c0ffee")
        .header(header::ACCEPT, "text/html,application/xhtml+xml")
        .body(Body::empty())
        .unwrap();
    let response = endpoints.app.clone().oneshot(page).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    assert!(String::from_utf8_lossy(&html).contains("c0ffee"));

    let unknown = get("/auth/oauth/facebook/data-deletion/deadbeef");
    assert_problem(&endpoints.app, unknown, 404, "NotFound").await;
}

#[tokio::test]
async fn a_facebook_callback_without_its_form_field_is_400_invalid_signal() {
    let endpoints = endpoints();
    for path in [
        "/auth/oauth/facebook/data-deletion",
        "/auth/oauth/facebook/deauthorize",
    ] {
        for request in [
            post(path, FORM, "user_id=1".into()),
            post(
                path,
                "application/json",
                json!({"signed_request": "x.y"}).to_string(),
            ),
            post(path, FORM, "signed_request=forged.request".into()),
        ] {
            assert_problem(&endpoints.app, request, 400, "InvalidSignal").await;
        }
    }
    assert!(
        endpoints
            .deletion
            .presented()
            .contains(&"forged.request".to_owned())
    );
}

#[tokio::test]
async fn a_risc_token_is_accepted_with_202_and_refused_with_rfc_8935_errors() {
    let endpoints = endpoints();
    let path = "/auth/oauth/google/risc";
    let token = signed(&endpoints.risc, "set-1", SignalKind::SessionsRevoked);
    let response = endpoints
        .app
        .clone()
        .oneshot(post(path, SET, token))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert!(
        to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .is_empty()
    );

    for (request, err) in [
        (post(path, SET, "forged".into()), "invalid_key"),
        (
            post(path, "application/jwt", "forged".into()),
            "invalid_request",
        ),
        (
            post(path, "application/json", "{}".into()),
            "invalid_request",
        ),
    ] {
        let (status, content_type, body) = send(&endpoints.app, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(content_type.as_deref(), Some("application/json"));
        assert_eq!(body["err"], err, "{body}");
        assert!(body["description"].is_string());
        assert_eq!(
            body.as_object().unwrap().len(),
            2,
            "exactly err and description"
        );
    }
}

#[tokio::test]
async fn a_signal_body_over_the_limit_is_413() {
    let endpoints = endpoints();
    let big = "A".repeat(MAX_BODY + 1);
    for (path, content_type) in [
        ("/auth/oauth/apple/notifications", "application/json"),
        ("/auth/oauth/facebook/data-deletion", FORM),
        ("/auth/oauth/google/risc", SET),
    ] {
        let request = post(path, content_type, big.clone());
        assert_problem(&endpoints.app, request, 413, "PayloadTooLarge").await;
    }
    assert!(
        endpoints.risc.presented().is_empty(),
        "nothing was verified"
    );
}

#[tokio::test]
async fn the_openapi_document_lists_the_signal_endpoints() {
    let app = app(github());
    let (_, _, document) = send(&app, get("/openapi.json")).await;
    let paths = &document["paths"];
    for (path, method) in [
        ("/auth/oauth/apple/notifications", "post"),
        ("/auth/oauth/facebook/data-deletion", "post"),
        (
            "/auth/oauth/facebook/data-deletion/{confirmation_code}",
            "get",
        ),
        ("/auth/oauth/facebook/deauthorize", "post"),
        ("/auth/oauth/google/risc", "post"),
    ] {
        assert!(paths[path][method].is_object(), "{method} {path}");
    }
    for login in [
        "/auth/oauth/{provider}/callback",
        "/auth/oauth/{provider}/id-token",
    ] {
        let refused = &paths[login]["post"]["responses"]["403"];
        assert!(
            refused.is_object(),
            "{login} documents ProviderAccountDisabled"
        );
    }
    let risc = &paths["/auth/oauth/google/risc"]["post"];
    assert!(risc["requestBody"]["content"]["application/secevent+jwt"].is_object());
    assert!(risc["responses"]["400"]["content"]["application/json"].is_object());
}
