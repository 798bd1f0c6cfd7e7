//! Bad input and failing providers: problem+json, the contract's status, nothing written.

use crate::helpers::*;
use serde_json::{Value, json};
use social_login_simulator::{Endpoint, Fault, Provider};

fn fault(endpoint: Endpoint) -> Fault {
    Fault {
        provider: Provider::Github,
        endpoint,
        status: None,
        garbage: false,
        delay_ms: None,
        error_in_200: None,
    }
}

/// Runs a login whose provider step fails, and checks the status and that no user exists.
async fn failed_login_is(case: &str, provider_timeout_seconds: u64, fault: Fault, code: &str) {
    let app = spawn_app_with(Options {
        provider_timeout_seconds,
        ..Options::default()
    })
    .await;
    app.sim.set_fault(fault);
    let response = app.login_response("583231").await;
    assert_problem_in(case, response, 502, code).await;
    app.sim.clear_faults();
    // Nothing half-written: the same account now registers as a new user.
    let login = app.login("583231").await;
    assert_eq!(login["is_new_user"], true, "{case}");
    app.stop().await;
}

#[tokio::test]
async fn malformed_json_is_a_validation_error() {
    let app = spawn_app().await;
    let response = app
        .http
        .post(app.url("/auth/oauth/github/callback"))
        .header("content-type", "application/json")
        .body("{\"code\": ")
        .send()
        .await
        .unwrap();
    assert_problem(response, 422, "ValidationError").await;
    app.stop().await;
}

#[tokio::test]
async fn a_missing_field_is_named_and_a_wrong_type_is_not_echoed() {
    let app = spawn_app().await;
    let missing = app
        .post("/auth/oauth/github/callback", &json!({"code": "c"}), None)
        .await;
    let body = assert_problem(missing, 422, "ValidationError").await;
    assert!(body["detail"].as_str().unwrap().contains("state"));
    let wrong = app
        .post(
            "/auth/login",
            &json!({"email": "a@b.c", "password": ["hunter2-secret"]}),
            None,
        )
        .await;
    let body = assert_problem(wrong, 422, "ValidationError").await;
    assert!(!body.to_string().contains("hunter2-secret"));
    app.stop().await;
}

#[tokio::test]
async fn an_oversized_body_is_payload_too_large() {
    let app = spawn_app_with(Options {
        max_body_bytes: 1024,
        ..Options::default()
    })
    .await;
    let body = json!({"code": "x".repeat(4096), "state": "s"});
    let response = app.post("/auth/oauth/github/callback", &body, None).await;
    assert_problem(response, 413, "PayloadTooLarge").await;
    app.stop().await;
}

#[tokio::test]
async fn protected_endpoints_need_a_valid_bearer_token() {
    let app = spawn_app().await;
    let body = json!({"code": "c", "state": "s"});
    for bearer in [None, Some("garbage"), Some("")] {
        for response in [
            app.get("/auth/oauth/accounts", bearer).await,
            app.post("/auth/oauth/github/connect", &body, bearer).await,
            app.delete("/auth/oauth/github/disconnect", bearer).await,
            app.get("/users/me", bearer).await,
        ] {
            assert_problem(response, 401, "Unauthorized").await;
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_failing_provider_step_is_a_failed_exchange_or_user_info() {
    let usual = Options::default().provider_timeout_seconds;
    let exchange = "OAuthCodeExchangeFailed";
    let user_info = "OAuthUserInfoFailed";
    let cases = [
        (
            "a token endpoint error",
            usual,
            Fault {
                status: Some(500),
                ..fault(Endpoint::Token)
            },
            exchange,
        ),
        (
            "an error member in a 200 token answer",
            usual,
            Fault {
                error_in_200: Some("bad_verification_code".into()),
                ..fault(Endpoint::Token)
            },
            exchange,
        ),
        (
            "a slow token endpoint times out",
            1,
            Fault {
                delay_ms: Some(3000),
                ..fault(Endpoint::Token)
            },
            exchange,
        ),
        (
            "a failing profile endpoint",
            usual,
            Fault {
                garbage: true,
                ..fault(Endpoint::Userinfo)
            },
            user_info,
        ),
        (
            "a failing emails endpoint",
            usual,
            Fault {
                status: Some(503),
                ..fault(Endpoint::Emails)
            },
            user_info,
        ),
    ];
    for (case, provider_timeout_seconds, fault, code) in cases {
        failed_login_is(case, provider_timeout_seconds, fault, code).await;
    }
}

#[tokio::test]
async fn a_key_set_that_cannot_be_fetched_is_a_failed_user_info_and_writes_nothing() {
    let app = spawn_app().await;
    app.sim.set_fault(Fault {
        provider: Provider::Google,
        status: Some(503),
        ..fault(Endpoint::Jwks)
    });
    // Nothing cached yet, so no grace applies: the id_token cannot be checked.
    let response = app.login_response_at("google", "583231").await;
    assert_problem(response, 502, "OAuthUserInfoFailed").await;
    assert!(
        !app.stored_bytes()
            .await
            .windows(15)
            .any(|w| w == b"ada@example.com")
    );
    app.stop().await;
}

#[tokio::test]
async fn the_public_endpoints_are_rate_limited_per_client() {
    let app = spawn_app_with(Options {
        rate_limit: Some((1, 3)),
        ..Options::default()
    })
    .await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(app.get("/auth/oauth/github/authorize", None).await);
    }
    let limited = statuses.pop().unwrap();
    assert!(limited.headers().contains_key("retry-after"));
    assert_problem(limited, 429, "RateLimited").await;
    // One bucket per client across the public endpoints, the provider list included.
    let listed = app.get("/auth/oauth/providers", None).await;
    assert_problem(listed, 429, "RateLimited").await;
    // Protected and operational endpoints are not limited.
    assert_eq!(app.get("/healthz", None).await.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn errors_never_leak_internal_details() {
    let app = spawn_app().await;
    let response = app.get("/auth/oauth/nope/authorize", None).await;
    let body: Value = assert_problem(response, 404, "OAuthProviderNotConfigured").await;
    let keys: Vec<_> = body.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_provider_segment_that_does_not_decode_is_a_problem_not_plain_text() {
    let app = spawn_app().await;
    for path in ["/auth/oauth/%FF/authorize", "/auth/oauth/%C3%28/authorize"] {
        assert_problem(app.get(path, None).await, 404, "OAuthProviderNotConfigured").await;
    }
    let body = serde_json::json!({"code": "c", "state": "s"});
    assert_problem(
        app.post("/auth/oauth/%FF/callback", &body, None).await,
        404,
        "OAuthProviderNotConfigured",
    )
    .await;
    app.stop().await;
}

#[tokio::test]
async fn any_other_path_parameter_that_does_not_decode_names_nothing() {
    let app = spawn_app().await;
    let status = app
        .get("/auth/oauth/facebook/data-deletion/%FF", None)
        .await;
    assert_problem(status, 404, "NotFound").await;
    let login = app.login("583231").await;
    let ended = app
        .delete("/users/me/sessions/%C3%28", Some(&token(&login)))
        .await;
    assert_problem(ended, 404, "NotFound").await;
    app.stop().await;
}

#[tokio::test]
async fn every_documented_field_of_the_wrong_type_is_a_validation_error() {
    let app = spawn_app().await;
    let state = "s".repeat(43);
    let cases = [
        (
            "/auth/oauth/apple/callback",
            serde_json::json!({"code": "c", "state": state, "post_body": 5}),
        ),
        (
            "/auth/oauth/apple/callback",
            serde_json::json!({"code": "c", "state": state, "post_body": "user"}),
        ),
        (
            "/auth/oauth/github/callback",
            serde_json::json!({"code": 5, "state": state}),
        ),
        (
            "/auth/oauth/github/callback",
            serde_json::json!({"code": "c", "state": ["s"]}),
        ),
        (
            "/auth/register",
            serde_json::json!({"email": 1, "password": PASSWORD}),
        ),
        (
            "/auth/register",
            serde_json::json!({"email": "a@example.com", "password": true}),
        ),
        (
            "/auth/register",
            serde_json::json!({"email": "a@example.com", "password": PASSWORD, "full_name": {}}),
        ),
        (
            "/auth/login",
            serde_json::json!({"email": [], "password": PASSWORD}),
        ),
        ("/auth/refresh", serde_json::json!({"refresh_token": 1})),
        ("/auth/logout", serde_json::json!({"refresh_token": null})),
    ];
    for (path, body) in cases {
        let response = app.post(path, &body, None).await;
        let problem = assert_problem(response, 422, "ValidationError").await;
        assert!(!problem.to_string().contains(PASSWORD), "{path}: {problem}");
    }
    app.stop().await;
}
