//! `/oidc`: discovery, the RS256 id_token checked against the published key set, userinfo
//! (RFC 6750), refresh and RFC 7009 revocation, and the knobs and faults tests use.

use crate::support::fixtures::{OIDC, start};
use crate::support::{NONCE, http, refusal};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login_simulator::{Endpoint, Fault, Provider, StandardKnobs, TokenKind};

#[tokio::test]
async fn discovery_names_every_endpoint_under_its_own_issuer() {
    let sim = start(&[OIDC]).await;
    let client = OIDC.client(&sim);
    let urls = client.urls();
    let discovery = urls.discovery.clone().unwrap();
    assert_eq!(
        discovery,
        format!("{}/oidc/.well-known/openid-configuration", sim.base_url())
    );
    let (_, document) = client.get(&discovery, None).await;
    assert_eq!(document["issuer"], format!("{}/oidc", sim.base_url()));
    assert_eq!(
        document["userinfo_endpoint"].as_str(),
        urls.userinfo.as_deref()
    );
    assert_eq!(
        document["revocation_endpoint"].as_str(),
        urls.revocation.as_deref()
    );
    assert_eq!(
        document["code_challenge_methods_supported"],
        json!(["S256"])
    );
    let methods = json!(["client_secret_basic", "client_secret_post"]);
    assert_eq!(document["token_endpoint_auth_methods_supported"], methods);
}

#[tokio::test]
async fn the_id_token_is_rs256_with_the_oidc_claims_and_verifies_with_the_published_keys() {
    let client = OIDC.started().await;
    let (_, document) = client.get(&client.urls().discovery.unwrap(), None).await;
    let (_, keys) = client
        .get(document["jwks_uri"].as_str().unwrap(), None)
        .await;
    let body = client.tokens("openid email profile").await;
    let id_token = body["id_token"].as_str().unwrap();
    let header = jsonwebtoken::decode_header(id_token).unwrap();
    let key = keys["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kid"].as_str() == header.kid.as_deref());
    let key = key.expect("the key set lists the token's kid");
    let decoding =
        DecodingKey::from_rsa_components(key["n"].as_str().unwrap(), key["e"].as_str().unwrap());
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[OIDC.id]);
    validation.set_issuer(&[document["issuer"].as_str().unwrap()]);
    let claims = jsonwebtoken::decode::<Value>(id_token, &decoding.unwrap(), &validation)
        .unwrap()
        .claims;
    assert_eq!(
        (claims["sub"].as_str(), claims["azp"].as_str()),
        (Some("583231"), Some(OIDC.id))
    );
    assert_eq!(claims["nonce"], NONCE);
    assert_eq!(
        claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
        3600
    );
    assert_eq!(
        (claims["email"].as_str(), claims["email_verified"].as_bool()),
        (Some("ada@example.com"), Some(true))
    );
    assert_eq!(claims["name"], "Ada Lovelace");
    // OIDC Core 3.1.3.6: the left half of SHA-256 of the access token, base64url.
    let digest = Sha256::digest(body["access_token"].as_str().unwrap().as_bytes());
    assert_eq!(claims["at_hash"], URL_SAFE_NO_PAD.encode(&digest[..16]));
}

#[tokio::test]
async fn userinfo_answers_the_scopes_claims_and_challenges_a_client_without_a_token() {
    let client = OIDC.started().await;
    let body = client.profile("openid email").await;
    assert_eq!(
        body,
        json!({"sub": "583231", "email": "ada@example.com", "email_verified": true})
    );
    let response = http()
        .get(client.urls().userinfo.unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    assert_eq!(
        response.headers()["www-authenticate"],
        "Bearer error=\"invalid_token\""
    );
    let token = client.access_token("email").await;
    let answer = client.userinfo(Some(&token)).await;
    assert_eq!(refusal(&answer), (403, "insufficient_scope"));
}

#[tokio::test]
async fn the_knobs_announce_another_issuer_and_answer_another_subject_than_the_id_tokens() {
    let sim = start(&[OIDC]).await;
    let client = OIDC.client(&sim);
    sim.set_standard_knobs(StandardKnobs {
        announced_issuer: Some("https://sso.elsewhere.example".to_owned()),
        ..StandardKnobs::default()
    });
    let (_, document) = client.get(&client.urls().discovery.unwrap(), None).await;
    assert_eq!(document["issuer"], "https://sso.elsewhere.example");
    let body = client.tokens("openid").await;
    let claims = crate::support::claims_of(body["id_token"].as_str().unwrap());
    assert_eq!(
        claims["iss"],
        format!("{}/oidc", sim.base_url()),
        "tokens keep the real issuer"
    );
    let knobs = json!({"userinfo_sub": "someone-else"});
    assert_eq!(client.control("standard_knobs", Some(knobs)).await, 204);
    let (_, userinfo) = client.userinfo(body["access_token"].as_str()).await;
    assert_eq!(
        (userinfo["sub"].as_str(), claims["sub"].as_str()),
        (Some("someone-else"), Some("583231"))
    );
    let (_, document) = client.get(&client.urls().discovery.unwrap(), None).await;
    assert_eq!(
        document["issuer"],
        format!("{}/oidc", sim.base_url()),
        "posted knobs replace all"
    );
}

#[tokio::test]
async fn discovery_is_taken_down_and_brought_back_with_a_fault() {
    let sim = start(&[OIDC]).await;
    let client = OIDC.client(&sim);
    let discovery = client.urls().discovery.unwrap();
    sim.set_fault(Fault::new(Provider::StandardOidc, Endpoint::Discovery).status(503));
    assert_eq!(client.get(&discovery, None).await.0, 503);
    sim.clear_faults();
    assert_eq!(client.get(&discovery, None).await.0, 200);
}

#[tokio::test]
async fn offline_access_brings_a_refresh_token_that_revocation_ends() {
    let sim = start(&[OIDC]).await;
    let client = OIDC.client(&sim);
    assert!(client.tokens("openid").await.get("refresh_token").is_none());
    let body = client.tokens("openid offline_access").await;
    let refresh = body["refresh_token"].as_str().unwrap();
    assert_eq!(
        client.revoke(refresh, "refresh_token").await,
        (200, Value::Null)
    );
    let revoked = sim.revocations().pop().unwrap();
    assert_eq!(
        (revoked.provider, revoked.kind),
        (Provider::StandardOidc, Some(TokenKind::Refresh))
    );
    assert_eq!(
        client.userinfo(body["access_token"].as_str()).await.0,
        200,
        "the token alone"
    );
}
