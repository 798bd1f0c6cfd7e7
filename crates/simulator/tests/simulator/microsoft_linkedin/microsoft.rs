//! The simulated Microsoft's metadata and authorize endpoint: `common`'s literal issuer
//! template, keys without `alg`, and tenant paths that admit only their own accounts.

use super::support::*;
use social_login_simulator::{MICROSOFT_CONSUMER_TENANT, SimulatorHandle};

async fn authorize(sim: &SimulatorHandle, tenant: &str, user: &str) -> reqwest::Response {
    let params = [
        ("client_id", MS_CLIENT),
        ("redirect_uri", MS_CALLBACK),
        ("response_type", "code"),
        ("scope", "openid profile email"),
        ("state", "st"),
        ("nonce", NONCE),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
        ("sim_user", user),
    ];
    get(&sim.microsoft_tenant(tenant).authorization, &params).await
}

#[tokio::test]
async fn common_discovery_names_the_literal_tenant_template_as_issuer() {
    let sim = start().await;
    let (status, body) = status_and_json(http().get(sim.microsoft().discovery)).await;
    assert_eq!(status, 200);
    assert_eq!(body["issuer"], sim.microsoft().issuer);
    assert!(body["issuer"].as_str().unwrap().contains("{tenantid}"));
    assert_eq!(body["jwks_uri"], sim.microsoft().jwks);
    assert_eq!(body["token_endpoint"], sim.microsoft().token);
    assert_eq!(
        body["id_token_signing_alg_values_supported"],
        serde_json::json!(["RS256"])
    );
}

#[tokio::test]
async fn tenant_specific_discovery_names_that_tenants_issuer() {
    let sim = start().await;
    for (tenant, expected) in [
        (CONTOSO, sim.microsoft().issuer_of(CONTOSO)),
        (
            "consumers",
            sim.microsoft().issuer_of(MICROSOFT_CONSUMER_TENANT),
        ),
        ("organizations", sim.microsoft().issuer),
    ] {
        let url = sim.microsoft_tenant(tenant).discovery;
        let (status, body) = status_and_json(http().get(url)).await;
        assert_eq!(status, 200);
        assert_eq!(body["issuer"], expected, "{tenant}");
    }
    let (status, body) =
        status_and_json(http().get(sim.microsoft_tenant("contoso").discovery)).await;
    assert_eq!(status, 400);
    assert_eq!(body["error_codes"], serde_json::json!([90002]));
}

#[tokio::test]
async fn the_key_set_lists_keys_without_alg_but_with_the_issuer_template() {
    let sim = start().await;
    let (status, body) = status_and_json(http().get(sim.microsoft().jwks)).await;
    assert_eq!(status, 200);
    let key = &body["keys"][0];
    assert_eq!(key["kty"], "RSA");
    assert_eq!(key["use"], "sig");
    assert!(key["kid"].is_string() && key["n"].is_string());
    assert!(key.get("alg").is_none());
    assert_eq!(key["issuer"], sim.microsoft().issuer);
}

#[tokio::test]
async fn each_tenant_path_admits_only_its_own_accounts() {
    let sim = start().await;
    for (tenant, user, admitted) in [
        ("common", "ada", true),
        ("common", "grace", true),
        ("consumers", "ada", true),
        ("consumers", "grace", false),
        ("organizations", "ada", false),
        ("organizations", "grace", true),
        (CONTOSO, "grace", true),
        (CONTOSO, "ada", false),
    ] {
        let response = authorize(&sim, tenant, user).await;
        let expected = if admitted { 302 } else { 400 };
        assert_eq!(response.status(), expected, "{tenant} {user}");
    }
}

#[tokio::test]
async fn an_unknown_app_or_reply_url_gets_an_error_page_not_a_redirect() {
    let sim = start().await;
    let url = &sim.microsoft().authorization;
    let unknown = get(url, &[("client_id", "nobody"), ("response_type", "code")]).await;
    assert_eq!(unknown.status(), 400);
    assert!(unknown.text().await.unwrap().starts_with("AADSTS700016"));
    let elsewhere = [
        ("client_id", MS_CLIENT),
        ("redirect_uri", "http://evil.example/cb"),
        ("response_type", "code"),
    ];
    let response = get(url, &elsewhere).await;
    assert_eq!(response.status(), 400);
    assert!(response.text().await.unwrap().starts_with("AADSTS50011"));
}

#[tokio::test]
async fn a_refusal_after_the_reply_url_check_redirects_with_the_error() {
    let sim = start().await;
    let url = &sim.microsoft().authorization;
    let base = [
        ("client_id", MS_CLIENT),
        ("redirect_uri", MS_CALLBACK),
        ("scope", "openid"),
        ("state", "st"),
    ];
    let token = [base.as_slice(), &[("response_type", "token")]].concat();
    let query = redirect_query(&get(url, &token).await);
    assert_eq!(query["error"], "unsupported_response_type");
    assert_eq!(query["state"], "st");
    let bad_pkce = [
        base.as_slice(),
        &[
            ("response_type", "code"),
            ("code_challenge", "short"),
            ("code_challenge_method", "S256"),
        ],
    ]
    .concat();
    assert_eq!(
        redirect_query(&get(url, &bad_pkce).await)["error"],
        "invalid_request"
    );
    let denied = [
        base.as_slice(),
        &[("response_type", "code"), ("sim_deny", "1")],
    ]
    .concat();
    assert_eq!(
        redirect_query(&get(url, &denied).await)["error"],
        "access_denied"
    );
}
