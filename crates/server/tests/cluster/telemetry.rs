//! Traces over OTLP/HTTP: a `serve` process exports to a small OTLP receiver on loopback
//! (real HTTP, protobuf). A login's span continues the trace a trusted peer named, its
//! provider calls and database transactions are its children, a stranger's `traceparent` is
//! ignored, and no attribute holds the code, the state, a token, the email or an address.

use super::deployment::{Database, Deployment, States, ada};
use super::flows::{Browser, access_token};
use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message;
use reqwest::StatusCode;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The caller's trace: version 00, a trace id, its span id, sampled.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "00f067aa0ba902b7";
const STRANGERS_TRACE_ID: &str = "0af7651916cd43dd8448eb211c80319c";

#[derive(Clone, Default)]
struct Received {
    spans: Arc<Mutex<Vec<Span>>>,
    services: Arc<Mutex<Vec<String>>>,
}

/// Takes OTLP/HTTP protobuf exports at `/v1/traces`; the base URL to configure.
async fn otlp_receiver(received: Received) -> String {
    async fn export(State(received): State<Received>, body: Bytes) -> StatusCode {
        let Ok(export) = ExportTraceServiceRequest::decode(body) else {
            return StatusCode::BAD_REQUEST;
        };
        for resource_spans in export.resource_spans {
            let attributes = resource_spans.resource.map(|r| r.attributes);
            for attribute in attributes.into_iter().flatten() {
                if attribute.key == "service.name" {
                    received
                        .services
                        .lock()
                        .unwrap()
                        .push(text(&attribute.value));
                }
            }
            for scope in resource_spans.scope_spans {
                received.spans.lock().unwrap().extend(scope.spans);
            }
        }
        StatusCode::OK
    }
    let router = axum::Router::new()
        .route("/v1/traces", post(export))
        .with_state(received);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

fn text(value: &Option<opentelemetry_proto::tonic::common::v1::AnyValue>) -> String {
    match value.as_ref().and_then(|v| v.value.as_ref()) {
        Some(AnyValue::StringValue(text)) => text.clone(),
        Some(AnyValue::IntValue(number)) => number.to_string(),
        Some(AnyValue::BoolValue(flag)) => flag.to_string(),
        Some(AnyValue::DoubleValue(number)) => number.to_string(),
        other => format!("{other:?}"),
    }
}

fn attribute(span: &Span, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|attribute| attribute.key == key)
        .map(|attribute| text(&attribute.value))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Waits (up to 30 s: the batch goes out every 5 s) until `wanted` holds of the spans.
async fn spans_when(received: &Received, wanted: impl Fn(&[Span]) -> bool) -> Vec<Span> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let spans = received.spans.lock().unwrap().clone();
        if wanted(&spans) || Instant::now() > deadline {
            return spans;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_login_is_traced(database: Database, system: &str) {
    let Some(deployment) = Deployment::new(database, States::Memory, vec![ada()]).await else {
        return;
    };
    let received = Received::default();
    let collector = otlp_receiver(received.clone()).await;
    let instance = deployment.spawn_instance_with(&format!(
        "\n[telemetry]\notlp_endpoint = \"{collector}\"\ntraceparent_from = [\"127.0.0.1\"]\n"
    ));
    let base = instance.base();
    let browser = Browser::new();

    let approval = browser.approval(base, "github", None, &ada().id).await;
    let login = browser
        .http
        .post(format!("{base}/auth/oauth/github/callback"))
        .header("traceparent", format!("00-{TRACE_ID}-{PARENT_ID}-01"))
        .json(&approval.body())
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::OK);
    let login: serde_json::Value = login.json().await.unwrap();
    // A refresh token nobody issued (of the earlier, unsigned format, so the store looks it
    // up): its transaction writes nothing.
    let forged = "A".repeat(43);
    let refused = (browser.http.post(format!("{base}/auth/refresh")))
        .json(&serde_json::json!({ "refresh_token": forged }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    // The same traceparent from a peer outside `traceparent_from` starts a trace of its own.
    let stranger = reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)))
        .build()
        .unwrap();
    let providers = stranger
        .get(format!("{base}/auth/oauth/providers"))
        .header(
            "traceparent",
            format!("00-{STRANGERS_TRACE_ID}-{PARENT_ID}-01"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(providers.status(), StatusCode::OK);

    let named = |spans: &[Span], name: &str| spans.iter().any(|span| span.name == name);
    let ended = |span: &Span| attribute(span, "db.transaction.outcome");
    let spans = spans_when(&received, |spans| {
        named(spans, "POST /auth/oauth/{provider}/callback")
            && named(spans, "GET /auth/oauth/providers")
            && named(spans, "POST /auth/refresh")
            && named(spans, "provider userinfo")
    })
    .await;
    let names: Vec<&str> = spans.iter().map(|span| span.name.as_str()).collect();
    let callback = spans
        .iter()
        .find(|span| span.name == "POST /auth/oauth/{provider}/callback")
        .unwrap_or_else(|| {
            panic!(
                "the callback is traced: {names:?}\n{}",
                instance.recent_logs()
            )
        });
    assert_eq!(
        hex(&callback.trace_id),
        TRACE_ID,
        "the trusted caller's trace goes on"
    );
    assert_eq!(hex(&callback.parent_span_id), PARENT_ID);
    assert_eq!(callback.kind, SpanKind::Server as i32);
    assert_eq!(
        attribute(callback, "http.response.status_code").as_deref(),
        Some("200")
    );
    assert_eq!(
        attribute(callback, "http.route").as_deref(),
        Some("/auth/oauth/{provider}/callback")
    );
    assert_eq!(attribute(callback, "provider").as_deref(), Some("github"));

    let children: Vec<&Span> = spans
        .iter()
        .filter(|span| span.parent_span_id == callback.span_id)
        .collect();
    for endpoint in ["token", "userinfo", "emails"] {
        let call = children
            .iter()
            .find(|span| attribute(span, "provider.endpoint").as_deref() == Some(endpoint))
            .unwrap_or_else(|| panic!("a {endpoint} call under the callback: {names:?}"));
        assert_eq!(attribute(call, "provider").as_deref(), Some("github"));
        assert_eq!(
            attribute(call, "http.response.status_code").as_deref(),
            Some("200")
        );
        assert_eq!(call.kind, SpanKind::Client as i32);
        assert_eq!(hex(&call.trace_id), TRACE_ID);
        assert!(call.end_time_unix_nano >= call.start_time_unix_nano);
    }
    let transaction = children
        .iter()
        .find(|span| span.name == "db transaction")
        .unwrap_or_else(|| panic!("the login's transaction under the callback: {names:?}"));
    assert_eq!(
        attribute(transaction, "db.system.name").as_deref(),
        Some(system)
    );
    assert_eq!(ended(transaction).as_deref(), Some("committed"));
    let refresh = spans
        .iter()
        .find(|span| span.name == "POST /auth/refresh")
        .unwrap_or_else(|| panic!("the refused refresh is traced: {names:?}"));
    let refused = spans
        .iter()
        .find(|span| span.parent_span_id == refresh.span_id && span.name == "db transaction")
        .unwrap_or_else(|| panic!("the refused refresh's transaction: {names:?}"));
    // It writes nothing: PostgreSQL's is given up, SQLite's writer commits its empty one.
    let nothing_written = match system {
        "postgresql" => "rolled_back",
        _ => "committed",
    };
    assert_eq!(ended(refused).as_deref(), Some(nothing_written));

    let listing = spans
        .iter()
        .find(|span| span.name == "GET /auth/oauth/providers")
        .unwrap();
    assert_ne!(
        hex(&listing.trace_id),
        STRANGERS_TRACE_ID,
        "a stranger names no trace"
    );
    assert!(listing.parent_span_id.is_empty());

    let secrets = [
        approval.code.as_str(),
        approval.state.as_str(),
        &access_token(&login),
        login["refresh_token"].as_str().unwrap(),
        "ada@example.com",
        "127.0.0.1",
        "127.0.0.2",
    ];
    for span in &spans {
        for attribute in &span.attributes {
            let value = text(&attribute.value);
            for secret in secrets {
                assert!(
                    !value.contains(secret),
                    "span {} attribute {} holds a secret",
                    span.name,
                    attribute.key
                );
            }
        }
    }
    assert!(
        received
            .services
            .lock()
            .unwrap()
            .iter()
            .all(|name| name == "social-login")
    );
}

#[tokio::test]
async fn a_login_on_sqlite_is_traced_with_its_provider_calls_and_transactions() {
    a_login_is_traced(Database::Sqlite, "sqlite").await;
}

#[tokio::test]
async fn a_login_on_postgres_is_traced_with_its_provider_calls_and_transactions() {
    a_login_is_traced(Database::Postgres, "postgresql").await;
}
