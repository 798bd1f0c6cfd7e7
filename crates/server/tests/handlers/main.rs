//! The HTTP layer alone: the router built over the in-memory fakes of `social-login-testing`
//! and driven with `oneshot`, no socket, no database, no provider. What it checks is the
//! HTTP layer's own job: routes, extractors, the problem+json mapping, the OpenAPI document.

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use social_login::http::{HttpOptions, TrustedProxies, router};
use social_login_app::{AuthPolicy, AuthService, Ports, ProviderRegistry};
use social_login_domain::{
    Email, ProviderIdentity, ProviderKey, ProviderSubject, ProviderTokens, SecretText,
};
use social_login_ports::ProviderLogin;
use social_login_testing::{
    FakeClock, FakeHasher, FakeProvider, FakeSessions, FakeStateSealer, FakeStateStore,
    InMemoryRepository, ReversingCipher, SeededRandomness, state_in,
};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;
use tower::ServiceExt;

const MAX_BODY: usize = 1024;

/// The router over fakes, with the GitHub fake answering as `subject`.
fn app(github: Arc<FakeProvider>) -> Router {
    let repository = Arc::new(InMemoryRepository::default());
    let ports = Ports {
        users: repository.clone(),
        refresh_tokens: repository,
        state_sealer: Arc::new(FakeStateSealer::default()),
        states: Arc::new(FakeStateStore::default()),
        providers: ProviderRegistry::new().with(github),
        cipher: Arc::new(ReversingCipher),
        hasher: Arc::new(FakeHasher),
        sessions: Arc::new(FakeSessions),
        clock: Arc::new(FakeClock::at(
            OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap(),
        )),
        random: Arc::new(SeededRandomness::default()),
    };
    let options = HttpOptions {
        max_body_bytes: MAX_BODY,
        request_timeout: Duration::from_secs(30),
        max_in_flight: 64,
        rate_limit: None,
        trusted_proxies: TrustedProxies::new([]),
    };
    router(
        Arc::new(AuthService::new(ports, AuthPolicy::default())),
        options,
    )
}

fn github() -> Arc<FakeProvider> {
    let github = Arc::new(FakeProvider::new(ProviderKey::Github));
    github.answer(Ok(ProviderLogin {
        identity: ProviderIdentity {
            provider: ProviderKey::Github,
            subject: ProviderSubject::parse("583231").unwrap(),
            email: Some(Email::parse("ada@example.com").unwrap()),
            email_verified: true,
            full_name: Some("Ada Lovelace".into()),
            avatar_url: None,
        },
        tokens: ProviderTokens {
            access_token: SecretText::new("gho_provider_access_token"),
            refresh_token: None,
        },
    }));
    github
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Option<String>, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|value| value.to_str().unwrap().to_owned());
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, content_type, body)
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).unwrap()
}

fn post_json(path: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_owned()))
        .unwrap()
}

async fn assert_problem(app: &Router, request: Request<Body>, status: u16, code: &str) {
    let (got, content_type, body) = send(app, request).await;
    assert_eq!(got.as_u16(), status, "{body}");
    assert_eq!(content_type.as_deref(), Some("application/problem+json"));
    assert_eq!(body["code"], code);
    assert_eq!(body["status"], status);
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let app = app(github());
    assert_problem(&app, get("/nowhere"), 404, "NotFound").await;
    let put = Request::put("/auth/login").body(Body::empty()).unwrap();
    assert_problem(&app, put, 405, "MethodNotAllowed").await;
}

#[tokio::test]
async fn an_unknown_provider_is_not_configured() {
    let app = app(github());
    assert_problem(
        &app,
        get("/auth/oauth/myspace/authorize"),
        404,
        "OAuthProviderNotConfigured",
    )
    .await;
    assert_problem(
        &app,
        get("/auth/oauth/google/authorize"),
        404,
        "OAuthProviderNotConfigured",
    )
    .await;
}

#[tokio::test]
async fn protected_endpoints_without_a_valid_bearer_are_401() {
    let app = app(github());
    assert_problem(&app, get("/users/me"), 401, "Unauthorized").await;
    let bad_bearer = Request::get("/auth/oauth/accounts")
        .header(header::AUTHORIZATION, "Bearer not-a-token")
        .body(Body::empty())
        .unwrap();
    assert_problem(&app, bad_bearer, 401, "Unauthorized").await;
}

#[tokio::test]
async fn bodies_over_the_limit_are_413_and_bad_json_is_422() {
    let app = app(github());
    let big = format!("{{\"email\":\"{}\"}}", "a".repeat(MAX_BODY));
    assert_problem(
        &app,
        post_json("/auth/register", &big),
        413,
        "PayloadTooLarge",
    )
    .await;
    assert_problem(
        &app,
        post_json("/auth/register", "{not json"),
        422,
        "ValidationError",
    )
    .await;
    assert_problem(
        &app,
        post_json("/auth/register", "{}"),
        422,
        "ValidationError",
    )
    .await;
}

#[tokio::test]
async fn the_error_order_is_provider_then_code_then_state() {
    let app = app(github());
    let bad_both = json!({"code": "", "state": "x"}).to_string();
    assert_problem(
        &app,
        post_json("/auth/oauth/nope/callback", &bad_both),
        404,
        "OAuthProviderNotConfigured",
    )
    .await;
    assert_problem(
        &app,
        post_json("/auth/oauth/github/callback", &bad_both),
        422,
        "ValidationError",
    )
    .await;
    let bad_state = json!({"code": "c", "state": "x"}).to_string();
    assert_problem(
        &app,
        post_json("/auth/oauth/github/callback", &bad_state),
        400,
        "OAuthStateMismatch",
    )
    .await;
}

#[tokio::test]
async fn a_login_answers_the_login_result_without_any_provider_token() {
    let app = app(github());
    let (status, _, body) = send(&app, get("/auth/oauth/github/authorize")).await;
    assert_eq!(status, StatusCode::OK);
    let state = state_in(body["authorization_url"].as_str().unwrap());
    let callback = json!({"code": "c", "state": state}).to_string();
    let (status, content_type, body) =
        send(&app, post_json("/auth/oauth/github/callback", &callback)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(content_type.as_deref(), Some("application/json"));
    assert_eq!(body["token_type"], "bearer");
    assert_eq!(body["is_new_user"], true);
    assert_eq!(body["user"]["email"], "ada@example.com");
    assert!(!body.to_string().contains("gho_provider_access_token"));
    // A second use of the state is refused, with the problem the contract names.
    assert_problem(
        &app,
        post_json("/auth/oauth/github/callback", &callback),
        400,
        "OAuthStateMismatch",
    )
    .await;
}

#[tokio::test]
async fn the_openapi_document_describes_every_route() {
    let app = app(github());
    let (status, _, document) = send(&app, get("/openapi.json")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(document["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths = document["paths"].as_object().unwrap();
    for path in [
        "/auth/oauth/{provider}/authorize",
        "/auth/oauth/{provider}/callback",
        "/auth/oauth/{provider}/connect",
        "/auth/oauth/accounts",
        "/auth/oauth/{provider}/disconnect",
        "/auth/register",
        "/auth/login",
        "/auth/refresh",
        "/auth/logout",
        "/users/me",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
    ] {
        assert!(paths.contains_key(path), "{path} missing");
    }
    assert!(document["components"]["securitySchemes"]["bearer"].is_object());
}
