//! `api/me` at every provider with a token of a real code flow, and the token check every
//! API path shares: a Bearer header in any case or the query, of this provider only.

use super::{BUILT_IN, YANDEX, call, get};
use crate::support::fixtures::{ALL, start};
use crate::support::status_and_json;
use reqwest::Method;
use serde_json::json;
use social_login_simulator::Provider;

#[tokio::test]
async fn each_built_in_provider_answers_me_for_a_token_of_its_code_flow() {
    let sim = start(&ALL).await;
    for fixture in &ALL[BUILT_IN] {
        let token = fixture.client(&sim).access_token(fixture.scope).await;
        let answer = get(&sim, fixture.provider, "me", Some(&token)).await;
        let ada = json!({"provider": fixture.provider.prefix(), "id": "583231",
                         "name": "Ada Lovelace", "email": "ada@example.com"});
        assert_eq!(answer, (200, ada), "{fixture}");
    }
}

#[tokio::test]
async fn me_refuses_no_token_an_unknown_one_and_another_providers() {
    let sim = start(&ALL).await;
    let built_in = &ALL[BUILT_IN];
    let mut tokens = Vec::new();
    for fixture in built_in {
        tokens.push(fixture.client(&sim).access_token(fixture.scope).await);
    }
    for (i, fixture) in built_in.iter().enumerate() {
        let someone_elses = &tokens[(i + 1) % tokens.len()];
        for token in [None, Some("never-issued"), Some(someone_elses.as_str())] {
            let request = call(&sim, fixture.provider, Method::GET, "me", token);
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), 401, "{fixture} {token:?}");
            let challenge = &response.headers()["www-authenticate"];
            assert_eq!(challenge, r#"Bearer error="invalid_token""#);
            let body: serde_json::Value = response.json().await.unwrap();
            assert_eq!(body["error"], "invalid_token", "{fixture}");
        }
    }
}

#[tokio::test]
async fn the_token_may_come_in_the_query_or_under_a_lowercase_scheme() {
    let sim = start(&[YANDEX]).await;
    let token = YANDEX.client(&sim).access_token(YANDEX.scope).await;
    let base = sim.api_base(YANDEX.provider);
    let http = crate::support::http();
    for name in ["access_token", "oauth_token"] {
        let url = format!("{base}me?{name}={token}");
        let (status, body) = status_and_json(http.get(url)).await;
        assert_eq!(
            (status, &body["provider"]),
            (200, &json!("yandex")),
            "{name}"
        );
    }
    let lowercase = http
        .get(format!("{base}me"))
        .header("authorization", format!("bearer {token}"));
    assert_eq!(status_and_json(lowercase).await.0, 200);
    let basic = http
        .get(format!("{base}me"))
        .basic_auth(&token, None::<&str>);
    assert_eq!(status_and_json(basic).await.0, 401, "not a Bearer token");
}

#[tokio::test]
async fn every_provider_presets_included_serves_the_api() {
    let sim = start(&[]).await;
    for provider in Provider::every() {
        let (status, body) = get(&sim, provider, "me", None).await;
        assert_eq!(
            (status, &body["error"]),
            (401, &json!("invalid_token")),
            "{provider:?}"
        );
    }
    assert_eq!(
        sim.api_base(Provider::Github),
        format!("{}/github/api/", sim.base_url())
    );
}

#[tokio::test]
async fn a_token_revoked_at_the_revocation_endpoint_is_refused() {
    let fixture = crate::support::fixtures::OAUTH2;
    let sim = start(&[fixture]).await;
    let client = fixture.client(&sim);
    let token = client.access_token(fixture.scope).await;
    assert_eq!(get(&sim, fixture.provider, "me", Some(&token)).await.0, 200);
    assert_eq!(client.revoke(&token, "access_token").await.0, 200);
    assert_eq!(get(&sim, fixture.provider, "me", Some(&token)).await.0, 401);
}
