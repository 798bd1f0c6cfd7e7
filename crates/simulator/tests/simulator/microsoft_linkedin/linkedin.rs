//! The simulated LinkedIn's authorize endpoint, metadata and userinfo: the two shapes of
//! `email_verified`/`locale`, and its API error shape.

use super::support::*;
use serde_json::json;
use social_login_simulator::{Endpoint, Provider, SimulatorHandle};

pub fn authorize_params(scope: &str) -> Vec<(&str, &str)> {
    vec![
        ("client_id", LI_CLIENT),
        ("redirect_uri", LI_CALLBACK),
        ("response_type", "code"),
        ("scope", scope),
        ("state", "st"),
        ("nonce", NONCE),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
    ]
}

pub async fn linkedin_code(sim: &SimulatorHandle, scope: &str) -> String {
    let response = get(&sim.linkedin().authorization, &authorize_params(scope)).await;
    redirect_query(&response)["code"].clone()
}

pub fn token_form(code: &str) -> Vec<(&str, &str)> {
    vec![
        ("grant_type", "authorization_code"),
        ("client_id", LI_CLIENT),
        ("client_secret", LI_SECRET),
        ("code", code),
        ("redirect_uri", LI_CALLBACK),
        ("code_verifier", VERIFIER),
    ]
}

/// Tokens for ada with the given scope.
pub async fn tokens(sim: &SimulatorHandle, scope: &str) -> serde_json::Value {
    let code = linkedin_code(sim, scope).await;
    let request = http().post(&sim.linkedin().token).form(&token_form(&code));
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn the_id_token_has_string_booleans_and_locale_and_never_the_nonce() {
    let sim = start().await;
    let body = tokens(&sim, "openid profile email").await;
    let claims = claims_of(body["id_token"].as_str().unwrap());
    assert_eq!(claims["iss"], sim.linkedin().issuer);
    assert_eq!(claims["aud"], LI_CLIENT);
    assert_eq!(claims["sub"], "Qx81mZ_a2");
    assert_eq!(claims["email_verified"], "true");
    assert_eq!(claims["locale"], "en_US");
    assert_eq!(claims["given_name"], "Ada");
    assert!(
        claims.get("nonce").is_none(),
        "LinkedIn does not echo the nonce"
    );
    let authorize = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Authorize))
        .unwrap();
    assert!(authorize.nonce_present);
    assert_eq!(authorize.code_challenge.as_deref(), Some(CHALLENGE));
}

#[tokio::test]
async fn userinfo_has_a_boolean_and_a_locale_object() {
    let sim = start().await;
    let token = tokens(&sim, "openid profile email").await["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let request = http().get(sim.linkedin().userinfo).bearer_auth(&token);
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 200);
    assert_eq!(body["sub"], "Qx81mZ_a2");
    assert_eq!(body["email_verified"], true);
    assert_eq!(body["locale"], json!({"country": "US", "language": "en"}));
    assert_eq!(body["name"], "Ada Lovelace");
}

#[tokio::test]
async fn userinfo_refuses_a_missing_token_and_a_token_without_openid() {
    let sim = start().await;
    let (status, body) = status_and_json(http().get(sim.linkedin().userinfo)).await;
    assert_eq!(status, 401);
    assert_eq!(body["serviceErrorCode"], 65600);
    let token = tokens(&sim, "profile").await;
    assert!(token.get("id_token").is_none(), "no openid, no id_token");
    let request = http()
        .get(sim.linkedin().userinfo)
        .bearer_auth(token["access_token"].as_str().unwrap());
    let (status, body) = status_and_json(request).await;
    assert_eq!(status, 403);
    assert_eq!(body["status"], 403);
}

#[tokio::test]
async fn discovery_and_keys_describe_the_linkedin_issuer() {
    let sim = start().await;
    let (status, body) = status_and_json(http().get(sim.linkedin().discovery)).await;
    assert_eq!(status, 200);
    assert_eq!(body["issuer"], sim.linkedin().issuer);
    assert!(sim.linkedin().issuer.ends_with("/linkedin/oauth"));
    assert_eq!(body["jwks_uri"], sim.linkedin().jwks);
    assert_eq!(body["userinfo_endpoint"], sim.linkedin().userinfo);
    let (_, keys) = status_and_json(http().get(sim.linkedin().jwks)).await;
    assert_eq!(keys["keys"][0]["alg"], "RS256");
}

#[tokio::test]
async fn an_unknown_scope_is_refused_with_linkedins_error() {
    let sim = start().await;
    let params = authorize_params("openid r_liteprofile");
    let query = redirect_query(&get(&sim.linkedin().authorization, &params).await);
    assert_eq!(query["error"], "unauthorized_scope_error");
    assert_eq!(query["state"], "st");
}

#[tokio::test]
async fn a_redirect_uri_that_is_not_registered_gets_an_error_page() {
    let sim = start().await;
    let mut params = authorize_params("openid");
    params[1] = ("redirect_uri", "http://evil.example/cb");
    let response = get(&sim.linkedin().authorization, &params).await;
    assert_eq!(response.status(), 400);
    let record = sim.requests().pop().unwrap();
    assert_eq!(record.provider, Some(Provider::Linkedin));
    assert_eq!(record.outcome, "redirect_uri_mismatch");
}
