//! Discovery against a document served on loopback, and the document rules alone.

use super::*;
use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::json;
use tokio::net::TcpListener;

/// A provider answering `answer` at `{base}/realms/main/.well-known/openid-configuration`;
/// returns the issuer without a trailing slash.
async fn provider(
    answer: impl Fn(&str) -> (StatusCode, String) + Clone + Send + Sync + 'static,
) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}/realms/main", listener.local_addr().unwrap());
    let served = issuer.clone();
    let app = Router::new().route(
        "/realms/main/.well-known/openid-configuration",
        get(move || {
            let (status, body) = answer(&served);
            async move { (status, [("content-type", "application/json")], body).into_response() }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    issuer
}

fn document(issuer: &str) -> Value {
    json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/protocol/openid-connect/auth"),
        "token_endpoint": format!("{issuer}/protocol/openid-connect/token"),
        "userinfo_endpoint": format!("{issuer}/protocol/openid-connect/userinfo"),
        "jwks_uri": format!("{issuer}/protocol/openid-connect/certs"),
        "revocation_endpoint": format!("{issuer}/protocol/openid-connect/revoke"),
        "token_endpoint_auth_methods_supported": ["private_key_jwt", "client_secret_post", "client_secret_basic"],
        "id_token_signing_alg_values_supported": ["HS256", "ES256", "RS256", "none"],
    })
}

fn ok(body: Value) -> (StatusCode, String) {
    (StatusCode::OK, body.to_string())
}

fn http() -> social_login_provider_core::ProviderHttp {
    social_login_provider_core::http_client::test_client()
}

fn object(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

#[tokio::test]
async fn a_document_of_the_same_issuer_gives_its_endpoints_auth_method_and_algorithms() {
    let issuer = provider(|issuer| ok(document(issuer))).await;
    let found = discover(&http(), &issuer).await.unwrap();
    assert_eq!(found.issuer, issuer);
    assert_eq!(
        found.token.as_str(),
        format!("{issuer}/protocol/openid-connect/token")
    );
    assert_eq!(
        found.jwks.as_str(),
        format!("{issuer}/protocol/openid-connect/certs")
    );
    assert!(found.userinfo.is_some() && found.revocation.is_some());
    assert_eq!(found.client_auth, TokenAuth::ClientSecretPost);
    assert_eq!(found.signing_algorithms, ["RS256", "ES256"]);
}

#[tokio::test]
async fn one_trailing_slash_on_either_side_is_ignored() {
    let issuer = provider(|issuer| ok(document(&format!("{issuer}/")))).await;
    let found = discover(&http(), &issuer).await.unwrap();
    assert_eq!(
        found.issuer,
        format!("{issuer}/"),
        "tokens carry the document's"
    );
    // Configured with the slash, the document is still found below the issuer.
    let issuer = provider(|issuer| ok(document(issuer))).await;
    assert!(discover(&http(), &format!("{issuer}/")).await.is_ok());
    assert!(!same_issuer("https://a.example/x", "https://a.example/x//"));
    assert!(!same_issuer("https://a.example/x", "https://a.example/X"));
}

#[tokio::test]
async fn another_issuer_is_named_with_the_expected_one() {
    let issuer = provider(|_| ok(document("https://evil.example/realms/main"))).await;
    let error = discover(&http(), &issuer).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("issuer is \"https://evil.example/realms/main\", expected \"{issuer}\"")
    );
}

#[tokio::test]
async fn fetch_failures_name_the_status_the_shape_or_the_unreachable_host() {
    let missing = provider(|_| (StatusCode::NOT_FOUND, "{}".into())).await;
    let error = discover(&http(), &missing).await.unwrap_err();
    assert_eq!(error.to_string(), "discovery document answered HTTP 404");

    let html = provider(|_| (StatusCode::OK, "<html>client_secret=s3cr3t</html>".into())).await;
    let error = discover(&http(), &html).await.unwrap_err().to_string();
    assert!(
        error.starts_with("discovery document answered a body that is not the expected JSON"),
        "{error}"
    );
    assert!(!error.contains("s3cr3t"), "{error}");

    let array = provider(|_| (StatusCode::OK, "[]".into())).await;
    let error = discover(&http(), &array).await.unwrap_err();
    assert_eq!(error, DiscoveryError::NotAnObject);

    // Bound and released at once: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let error = discover(&http(), &format!("http://127.0.0.1:{port}/realms/main"))
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), "discovery document could not be reached");

    let error = discover(&http(), "ftp://sso.example.com")
        .await
        .unwrap_err();
    assert_eq!(error, DiscoveryError::InvalidIssuer);
}

#[test]
fn a_missing_or_unusable_endpoint_is_named() {
    let issuer = "https://sso.example.com/realms/main";
    for field in [
        "authorization_endpoint",
        "token_endpoint",
        "jwks_uri",
        "issuer",
    ] {
        let mut doc = object(document(issuer));
        doc.remove(field);
        let error = Discovered::from_document(issuer, &doc).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("the discovery document is missing {field}")
        );
    }
    for (field, value) in [
        ("jwks_uri", json!("not a url")),
        ("userinfo_endpoint", json!(42)),
        ("revocation_endpoint", json!("file:///etc/passwd")),
    ] {
        let mut doc = object(document(issuer));
        doc.insert(field.into(), value);
        let error = Discovered::from_document(issuer, &doc).unwrap_err();
        assert_eq!(error, DiscoveryError::NotHttpUrl(field));
    }
    let mut doc = object(document(issuer));
    doc.insert(
        "token_endpoint".into(),
        json!("http://sso.example.com/token"),
    );
    let error = Discovered::from_document(issuer, &doc).unwrap_err();
    assert_eq!(
        error.to_string(),
        "token_endpoint in the discovery document is plain http while the issuer is https"
    );
}

#[test]
fn without_optional_fields_basic_rs256_and_no_userinfo_or_revocation_are_assumed() {
    let issuer = "https://sso.example.com";
    let mut doc = object(document(issuer));
    for optional in [
        "token_endpoint_auth_methods_supported",
        "id_token_signing_alg_values_supported",
        "userinfo_endpoint",
        "revocation_endpoint",
    ] {
        doc.remove(optional);
    }
    let found = Discovered::from_document(issuer, &doc).unwrap();
    assert_eq!(found.client_auth, TokenAuth::ClientSecretBasic);
    assert_eq!(found.signing_algorithms, ["RS256"]);
    assert_eq!((found.userinfo, found.revocation), (None, None));

    doc.insert(
        "token_endpoint_auth_methods_supported".into(),
        json!(["client_secret_basic", "client_secret_post"]),
    );
    let found = Discovered::from_document(issuer, &doc).unwrap();
    assert_eq!(found.client_auth, TokenAuth::ClientSecretBasic);

    doc.insert(
        "id_token_signing_alg_values_supported".into(),
        json!(["HS256", "none", "EdDSA"]),
    );
    let error = Discovered::from_document(issuer, &doc).unwrap_err();
    assert_eq!(error, DiscoveryError::NoSupportedAlgorithm);
}

#[test]
fn a_long_foreign_issuer_is_quoted_only_in_part() {
    let issuer = "https://sso.example.com";
    let mut doc = object(document(issuer));
    doc.insert(
        "issuer".into(),
        json!(format!("https://x.example/{}", "a".repeat(5000))),
    );
    let error = Discovered::from_document(issuer, &doc)
        .unwrap_err()
        .to_string();
    assert!(error.len() < 400, "{}", error.len());
}
