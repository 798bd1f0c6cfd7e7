//! The simulated LinkedIn: what its dialect and hooks add to what every provider does (see
//! `dialects`): the two shapes of `email_verified` and `locale`, no nonce in its id_token,
//! its scopes, and PKCE as its knobs say (set on the handle or through the control API).

use crate::support::fixtures::{LINKEDIN, start};
use crate::support::{OTHER_VERIFIER, claims_of, refusal};
use serde_json::json;
use social_login_simulator::{LinkedinKnobs, LinkedinPkce};

#[tokio::test]
async fn the_id_token_has_string_booleans_and_locale_and_never_the_nonce() {
    let sim = start(&[LINKEDIN]).await;
    let body = LINKEDIN.client(&sim).tokens("openid profile email").await;
    assert!(
        body.get("refresh_token").is_none(),
        "refresh tokens are for partners"
    );
    let claims = claims_of(body["id_token"].as_str().unwrap());
    assert_eq!(
        (claims["iss"].as_str(), claims["aud"].as_str()),
        (Some(sim.linkedin().issuer.as_str()), Some(LINKEDIN.id))
    );
    assert_eq!(
        (claims["email_verified"].as_str(), claims["locale"].as_str()),
        (Some("true"), Some("en_US"))
    );
    assert_eq!(claims["given_name"], "Ada");
    assert!(
        claims.get("nonce").is_none(),
        "LinkedIn does not echo the nonce"
    );
}

#[tokio::test]
async fn userinfo_has_a_boolean_and_a_locale_object_and_needs_openid() {
    let client = LINKEDIN.started().await;
    let body = client.profile("openid profile email").await;
    assert_eq!(body["email_verified"], true);
    assert_eq!(body["locale"], json!({"country": "US", "language": "en"}));
    assert_eq!(body["name"], "Ada Lovelace");
    let (status, body) = client.userinfo(None).await;
    assert_eq!(
        (status, body["serviceErrorCode"].as_u64()),
        (401, Some(65600))
    );
    let tokens = client.tokens("profile").await;
    assert!(tokens.get("id_token").is_none(), "no openid, no id_token");
    let (status, body) = client.userinfo(tokens["access_token"].as_str()).await;
    assert_eq!((status, body["status"].as_u64()), (403, Some(403)));
}

#[tokio::test]
async fn an_unknown_scope_is_sent_back_as_linkedins_own_error() {
    let client = LINKEDIN.started().await;
    let answer = client.answer(&client.valid("openid r_liteprofile")).await;
    assert_eq!(answer.get("error"), Some("unauthorized_scope_error"));
    assert_eq!(answer.get("state"), Some("st"));
}

#[tokio::test]
async fn an_enforcing_app_requires_an_s256_challenge_and_its_verifier() {
    let sim = start(&[LINKEDIN]).await;
    sim.set_linkedin_knobs(LinkedinKnobs {
        pkce: LinkedinPkce::Enforce,
    });
    let client = LINKEDIN.client(&sim);
    assert_eq!(client.tokens("openid").await["token_type"], "Bearer");
    let code = client.code("openid").await;
    let (status, _) = client
        .exchange(&code, |f| f.set("code_verifier", OTHER_VERIFIER))
        .await;
    assert_eq!(status, 400);
    let no_challenge = client
        .valid("openid")
        .unset("code_challenge")
        .unset("code_challenge_method");
    assert_eq!(
        client.answer(&no_challenge).await.get("error"),
        Some("invalid_request")
    );
}

#[tokio::test]
async fn a_rejecting_app_set_through_the_control_api_refuses_any_verifier_without_burning_the_code()
{
    let client = LINKEDIN.started().await;
    let reject = json!({"pkce": "reject"});
    assert_eq!(client.control("linkedin_knobs", Some(reject)).await, 204);
    let code = client.code("openid").await;
    let answer = client.redeem(&code).await;
    assert_eq!(refusal(&answer), (400, "invalid_request"));
    assert!(
        answer.1["error_description"]
            .as_str()
            .unwrap()
            .contains("code_verifier")
    );
    let (status, _) = client.exchange(&code, |f| f.unset("code_verifier")).await;
    assert_eq!(status, 200, "the code was not burned");
}
