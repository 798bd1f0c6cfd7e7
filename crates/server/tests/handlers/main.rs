//! The HTTP layer alone: the router built over the in-memory fakes of `social-login-testing`
//! and driven with `oneshot`, no socket, no database, no provider. What it checks is the
//! HTTP layer's own job: routes, extractors, the problem+json mapping, the OpenAPI document.

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use social_login::http::{HttpOptions, TrustedProxies, WellKnown, router};
use social_login_app::{AuthPolicy, AuthService, Ports, ProviderRegistry, SignalVerifiers};
use social_login_domain::ProviderKind;
use social_login_domain::{
    Email, ProviderIdentity, ProviderKey, ProviderSubject, ProviderTokens, SecretText,
};
use social_login_ports::SessionTokens as _;
use social_login_ports::{AccessIssue, ProviderInfo, ProviderLogin};
use social_login_security::JwtSessionTokens;
use social_login_testing::{
    FakeClock, FakeHasher, FakeProvider, FakeSessions, FakeStateSealer, FakeStateStore,
    InMemoryRepository, ReversingCipher, SeededRandomness, state_in,
};
use std::sync::Arc;
use std::time::Duration;
use time::OffsetDateTime;
use tower::ServiceExt;

const MAX_BODY: usize = 1024;

/// The access tokens' keys this app publishes: current and one previous secret.
fn session_tokens() -> JwtSessionTokens {
    JwtSessionTokens::new(
        &SecretText::new("current-secret-key-of-at-least-32-bytes"),
        &[SecretText::new("previous-secret-key-of-at-least-32-bytes")],
        time::Duration::minutes(15),
        time::Duration::days(30),
    )
}

mod api_doc;
mod signals;

/// The router over fakes, with the GitHub fake answering as `subject`.
fn app(github: Arc<FakeProvider>) -> Router {
    app_with(ProviderRegistry::new().with(github))
}

/// The router over fakes, with these providers enabled.
fn app_with(providers: ProviderRegistry) -> Router {
    app_with_signals(providers, SignalVerifiers::new())
}

/// The router over fakes, with these providers and signal verifiers.
fn app_with_signals(providers: ProviderRegistry, signal_verifiers: SignalVerifiers) -> Router {
    let repository = Arc::new(InMemoryRepository::default());
    let ports = Ports {
        users: repository.clone(),
        refresh_tokens: repository.clone(),
        grants: repository.clone(),
        signals: repository,
        signal_verifiers,
        state_sealer: Arc::new(FakeStateSealer::default()),
        states: Arc::new(FakeStateStore::default()),
        providers,
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
        body_read_timeout: Duration::from_secs(5),
        max_in_flight: 64,
        rate_limit: None,
        trusted_proxies: TrustedProxies::new([]),
        deletion_status_base: Some(format!("{PUBLIC_URL}/auth/oauth/facebook/data-deletion/")),
        relay_keys: Default::default(),
        traces: None,
        draining: Default::default(),
    };
    let tokens = session_tokens();
    router(
        Arc::new(AuthService::new(ports, AuthPolicy::default())),
        WellKnown::new(tokens.issuer(), &tokens.public_keys())
            .with_jwks_uri(Some(format!("{PUBLIC_URL}/.well-known/jwks.json"))),
        options,
    )
}

fn github() -> Arc<FakeProvider> {
    let github = Arc::new(FakeProvider::new(ProviderKey::GITHUB));
    github.answer(Ok(ProviderLogin {
        identity: ProviderIdentity {
            provider: ProviderKey::GITHUB,
            subject: ProviderSubject::parse("583231").unwrap(),
            email: Some(Email::parse("ada@example.com").unwrap()),
            email_verified: true,
            full_name: Some("Ada Lovelace".into()),
            avatar_url: None,
            hosted_domain: None,
        },
        tokens: ProviderTokens {
            scopes: social_login_domain::Scopes::default(),
            expires_in: None,
            access_token: SecretText::new("gho_provider_access_token"),
            refresh_token: None,
        },
    }));
    github
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Option<String>, Value) {
    let (status, headers, body) = send_with_headers(app, request).await;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|value| value.to_str().unwrap().to_owned());
    (status, content_type, body)
}

async fn send_with_headers(
    app: &Router,
    request: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, body)
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
    let request_line = format!("{} {}", request.method(), request.uri());
    let (got, content_type, body) = send(app, request).await;
    assert_eq!(got.as_u16(), status, "{request_line}: {body}");
    assert_eq!(
        content_type.as_deref(),
        Some("application/problem+json"),
        "{request_line}"
    );
    assert_eq!(body["code"], code, "{request_line}");
    assert_eq!(body["status"], status, "{request_line}");
}

/// A JSON body posted to a path, and the problem it must be answered with.
type RefusedPost<'a> = (&'a str, &'a str, u16, &'a str);

/// Posts each case in turn; each must be answered with its problem.
async fn assert_posts_refused(app: &Router, cases: &[RefusedPost<'_>]) {
    for &(path, body, status, code) in cases {
        assert_problem(app, post_json(path, body), status, code).await;
    }
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
    for path in [
        "/auth/oauth/myspace/authorize",
        "/auth/oauth/google/authorize",
    ] {
        assert_problem(&app, get(path), 404, "OAuthProviderNotConfigured").await;
    }
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
    let cases = [
        ("/auth/register", big.as_str(), 413, "PayloadTooLarge"),
        ("/auth/register", "{not json", 422, "ValidationError"),
        ("/auth/register", "{}", 422, "ValidationError"),
    ];
    assert_posts_refused(&app, &cases).await;
}

#[tokio::test]
async fn the_error_order_is_provider_then_code_then_state() {
    let app = app(github());
    let bad_both = json!({"code": "", "state": "x"}).to_string();
    let bad_state = json!({"code": "c", "state": "x"}).to_string();
    let cases = [
        (
            "/auth/oauth/nope/callback",
            bad_both.as_str(),
            404,
            "OAuthProviderNotConfigured",
        ),
        (
            "/auth/oauth/github/callback",
            &bad_both,
            422,
            "ValidationError",
        ),
        (
            "/auth/oauth/github/callback",
            &bad_state,
            400,
            "OAuthStateMismatch",
        ),
    ];
    assert_posts_refused(&app, &cases).await;
}

#[tokio::test]
async fn native_sign_in_refuses_an_unknown_provider_then_bad_fields_then_a_provider_without_id_tokens()
 {
    let app = app(github());
    let empty = json!({"id_token": ""}).to_string();
    let long_nonce = json!({"id_token": "x", "nonce": "n".repeat(513)}).to_string();
    let token = json!({"id_token": "x", "nonce": "n"}).to_string();
    let native = "/auth/oauth/github/id-token";
    let cases = [
        (
            "/auth/oauth/nope/id-token",
            empty.as_str(),
            404,
            "OAuthProviderNotConfigured",
        ),
        (native, &empty, 422, "ValidationError"),
        (native, &long_nonce, 422, "ValidationError"),
        (native, "{}", 422, "ValidationError"),
        (native, r#"{"id_token": 5}"#, 422, "ValidationError"),
        (
            native,
            r#"{"id_token": "x", "post_body": "s"}"#,
            422,
            "ValidationError",
        ),
        (native, &token, 400, "IdTokenNotSupported"),
        // Connect wants a bearer before anything else.
        (
            "/auth/oauth/github/id-token/connect",
            &token,
            401,
            "Unauthorized",
        ),
    ];
    assert_posts_refused(&app, &cases).await;
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
    let again = post_json("/auth/oauth/github/callback", &callback);
    assert_problem(&app, again, 400, "OAuthStateMismatch").await;
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
        "/auth/oauth/{provider}/id-token",
        "/auth/oauth/{provider}/id-token/connect",
        "/auth/oauth/accounts",
        "/auth/oauth/providers",
        "/auth/oauth/{provider}/disconnect",
        "/auth/register",
        "/auth/login",
        "/auth/refresh",
        "/auth/logout",
        "/users/me",
        "/users/me/events",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
        "/.well-known/jwks.json",
        "/.well-known/openid-configuration",
    ] {
        assert!(paths.contains_key(path), "{path} missing");
    }
    assert!(document["components"]["securitySchemes"]["bearer"].is_object());
    let native = &document["components"]["schemas"]["IdTokenRequest"]["properties"];
    assert!(
        native["authorization_code"]["description"]
            .as_str()
            .is_some_and(|text| text.contains("revoke")),
        "Apple's authorization_code is documented: {native}"
    );
}

#[tokio::test]
async fn the_provider_list_is_public_in_configuration_order_with_exactly_four_fields() {
    let acme: ProviderKey = "acme-sso".parse().unwrap();
    let acme = FakeProvider::new(acme).with_info(ProviderInfo {
        key: acme,
        display_name: "Acme SSO".into(),
        kind: ProviderKind::Oidc,
        id_token: true,
    });
    let app = app_with(
        ProviderRegistry::new()
            .with(Arc::new(FakeProvider::new(ProviderKey::TWITTER)))
            .with(Arc::new(acme))
            .with(github()),
    );
    let (status, content_type, body) = send(&app, get("/auth/oauth/providers")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type.as_deref(), Some("application/json"));
    assert_eq!(
        body,
        json!([
            {"key": "twitter", "display_name": "X", "kind": "oauth2", "id_token": false},
            {"key": "acme-sso", "display_name": "Acme SSO", "kind": "oidc", "id_token": true},
            {"key": "github", "display_name": "GitHub", "kind": "oauth2", "id_token": false},
        ])
    );
    let (status, _, body) = send(
        &app_with(ProviderRegistry::new()),
        get("/auth/oauth/providers"),
    )
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!([])));
}

#[tokio::test]
async fn the_jwks_publishes_the_current_and_previous_public_keys_only() {
    let app = app(github());
    let (status, headers, jwks) = send_with_headers(&app, get("/.well-known/jwks.json")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=300");
    let keys = jwks["keys"].as_array().unwrap();
    let kids: Vec<&str> = keys
        .iter()
        .map(|key| key["kid"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = session_tokens()
        .public_keys()
        .iter()
        .map(|key| key.kid().to_owned())
        .collect();
    assert_eq!(kids, expected);
    for key in keys {
        let mut members: Vec<&str> = key
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        members.sort_unstable();
        assert_eq!(members, ["alg", "crv", "kid", "kty", "use", "x"], "{key}");
        assert_eq!(key["kty"], "OKP");
        assert_eq!(key["alg"], "EdDSA");
        assert_eq!(key["use"], "sig");
    }
    // The token a login issues names the first key.
    let issued = session_tokens()
        .issue_access(
            AccessIssue {
                user: social_login_domain::UserId::new(),
                session: social_login_domain::FamilyId::new(),
                auth_time: OffsetDateTime::now_utc(),
            },
            OffsetDateTime::now_utc(),
        )
        .unwrap();
    let header = issued.value.expose().split('.').next().unwrap().to_owned();
    let header: Value = serde_json::from_slice(
        &base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, header).unwrap(),
    )
    .unwrap();
    assert_eq!(header["kid"], kids[0]);
    assert_eq!(header["alg"], "EdDSA");
}

/// Where the handler tests' service says it is (`server.public_url`).
const PUBLIC_URL: &str = "https://auth.example.test";

#[tokio::test]
async fn the_discovery_document_names_the_issuer_and_a_jwks_uri_the_host_header_cannot_change() {
    let app = app(github());
    for host in [None, Some("auth.internal:8080"), Some("evil.example")] {
        let mut request = Request::get("/.well-known/openid-configuration");
        if let Some(host) = host {
            request = request.header(header::HOST, host);
        }
        let request = request.body(Body::empty()).unwrap();
        let (status, headers, document) = send_with_headers(&app, request).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=3600");
        assert_eq!(document["issuer"], "social-login");
        assert_eq!(
            document["jwks_uri"],
            format!("{PUBLIC_URL}/.well-known/jwks.json"),
            "{host:?}"
        );
    }
}
