//! Access tokens other services verify (docs/api.md#sessions-and-access-tokens): discovery, JWKS, a token checked by
//! an Ed25519 implementation independent of the service's (ed25519-dalek, not aws-lc) with
//! the published keys alone, rotation, and forgeries the service refuses.

use crate::helpers::*;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signature, VerifyingKey};
use serde_json::Value;
use social_login::settings::Settings;
use social_login::wiring::session_tokens;
use social_login_ports::SessionTokens as _;

const AUDIENCE: &str = "e2e-api";
/// A former `secret_key`, still configured while rotating.
const OLD_SECRET: &str = "e2e-old-secret-key-that-is-long-enough-9876543210";

/// Where the test's service says clients reach it (`server.public_url`): a name, not where
/// the test connects, so a document built from the request would show.
const PUBLIC_URL: &str = "https://auth.example.test";

fn with_audience_and_public_url(settings: &mut Settings) {
    settings.tokens.audience = Some(AUDIENCE.into());
    settings.server.public_url = Some(PUBLIC_URL.into());
}

fn b64_json(part: &str) -> Value {
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

/// Checks `token` as a backend would, from the JWKS alone: the `kid`'s key, an EdDSA
/// signature by a library the service does not use, then the claims it reads.
fn verify_independently(token: &str, jwks: &Value) -> Value {
    let parts: Vec<&str> = token.split('.').collect();
    let [header, payload, signature] = parts[..] else {
        panic!("not a JWS: {token}")
    };
    let header_json = b64_json(header);
    assert_eq!(header_json["alg"], "EdDSA");
    let kid = header_json["kid"].as_str().expect("a kid");
    let key = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|key| key["kid"] == kid)
        .expect("the kid is published");
    assert_eq!(
        (key["kty"].as_str(), key["crv"].as_str()),
        (Some("OKP"), Some("Ed25519"))
    );
    let x: [u8; 32] = URL_SAFE_NO_PAD
        .decode(key["x"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
    VerifyingKey::from_bytes(&x)
        .unwrap()
        .verify_strict(format!("{header}.{payload}").as_bytes(), &signature)
        .expect("the signature verifies against the published key");
    b64_json(payload)
}

/// An access token for `user` as a service with `secret_key` (and this suite's issuer)
/// issues it now.
fn issued_with(secret_key: &str, user: social_login_domain::UserId) -> String {
    let mut settings = Settings::with_secret_key(secret_key);
    settings.tokens.issuer = Some("https://auth.example.test".into());
    let now = time::OffsetDateTime::now_utc();
    let issue = social_login_ports::AccessIssue {
        user,
        session: social_login_domain::FamilyId::new(),
        auth_time: now,
    };
    let issued = session_tokens(&settings).issue_access(issue, now);
    issued.unwrap().value.expose().to_owned()
}

async fn fetch_json(http: &reqwest::Client, url: &str) -> (reqwest::header::HeaderMap, Value) {
    let response = http.get(url).send().await.unwrap();
    assert_eq!(response.status(), 200, "{url}");
    let headers = response.headers().clone();
    (headers, response.json().await.unwrap())
}

#[tokio::test]
async fn a_login_token_verifies_with_the_discovered_jwks_alone() {
    let app = spawn_app_tuned(with_audience_and_public_url).await;
    let (login, access) = app.signed_in("583231").await;

    let (_, discovery) = fetch_json(&app.http, &app.url("/.well-known/openid-configuration")).await;
    // Without `[tokens] issuer`, the public URL is the issuer.
    assert_eq!(discovery["issuer"], PUBLIC_URL);
    let jwks_uri = discovery["jwks_uri"].as_str().unwrap();
    assert_eq!(jwks_uri, format!("{PUBLIC_URL}/.well-known/jwks.json"));
    // The test reaches the service at its bound address, not at its public name.
    let jwks_path = jwks_uri.strip_prefix(PUBLIC_URL).unwrap();
    let (headers, jwks) = fetch_json(&app.http, &app.url(jwks_path)).await;
    assert!(
        headers[reqwest::header::CACHE_CONTROL]
            .to_str()
            .unwrap()
            .contains("max-age="),
        "{headers:?}"
    );
    for key in jwks["keys"].as_array().unwrap() {
        assert_eq!(key["use"], "sig");
        assert!(key.get("d").is_none(), "a private part is published: {key}");
    }

    let claims = verify_independently(&access, &jwks);
    assert_eq!(claims["sub"], login["user"]["id"]);
    assert_eq!(claims["iss"], PUBLIC_URL);
    assert_eq!(claims["aud"], AUDIENCE);
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let (iat, exp) = (
        claims["iat"].as_i64().unwrap(),
        claims["exp"].as_i64().unwrap(),
    );
    assert!(iat <= now && now < exp, "iat {iat} now {now} exp {exp}");
    assert_eq!(app.get("/users/me", Some(&access)).await.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn tampered_and_hmac_forged_tokens_are_refused() {
    let app = spawn_app().await;
    let victim = app.register("victim@example.com").await;
    let (_, access) = app.signed_up("attacker@example.com").await;
    let (_, jwks) = fetch_json(&app.http, &app.url("/.well-known/jwks.json")).await;
    let parts: Vec<&str> = access.split('.').collect();

    // Someone else's id under the attacker's signature.
    let mut claims = b64_json(parts[1]);
    claims["sub"] = victim["user"]["id"].clone();
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let swapped = format!("{}.{payload}.{}", parts[0], parts[2]);

    // HS256 with what an attacker can read (the public key, raw and as `x`): the classic
    // algorithm confusion.
    let kid = b64_json(parts[0])["kid"].as_str().unwrap().to_owned();
    let x = jwks["keys"][0]["x"].as_str().unwrap().to_owned();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some(kid.clone());
    let hmac = |key: &[u8]| {
        jsonwebtoken::encode(
            &header,
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(key),
        )
        .unwrap()
    };
    let forged_raw = hmac(&URL_SAFE_NO_PAD.decode(&x).unwrap());
    let forged_x = hmac(x.as_bytes());
    let unsigned = format!(
        "{}.{payload}.",
        URL_SAFE_NO_PAD.encode(format!(r#"{{"alg":"none","kid":"{kid}"}}"#))
    );
    for forged in [swapped, forged_raw, forged_x, unsigned] {
        app.assert_unauthorized(&forged).await;
    }
    assert_eq!(app.get("/users/me", Some(&access)).await.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn a_previous_secret_keys_tokens_stay_valid_and_its_key_published() {
    let app = spawn_app_tuned(|settings| {
        settings.previous_secret_keys = vec![OLD_SECRET.into()];
        settings.tokens.issuer = Some("https://auth.example.test".into());
        settings.server.public_url = Some("https://auth.example.test".into());
    })
    .await;
    let login = app.register("pat@example.com").await;
    let user = login["user"]["id"].as_str().unwrap().parse().unwrap();

    // What the service issued before the rotation, when OLD_SECRET was `secret_key`.
    let old_token = issued_with(OLD_SECRET, user);
    let old_kid = session_tokens(&Settings::with_secret_key(OLD_SECRET)).public_keys()[0]
        .kid()
        .to_owned();

    let (_, jwks) = fetch_json(&app.http, &app.url("/.well-known/jwks.json")).await;
    let kids = strings(&jwks["keys"], "kid");
    assert_eq!(kids.len(), 2, "{jwks}");
    assert_eq!(kids[1], old_kid);
    let new_claims = verify_independently(&token(&login), &jwks);
    assert_eq!(new_claims["iss"], "https://auth.example.test");
    verify_independently(&old_token, &jwks);
    let me = app.get("/users/me", Some(&old_token)).await;
    assert_eq!(me.status(), 200);

    // The public URL is the base of `jwks_uri`, whatever host the request named.
    let discovery = app
        .http
        .get(app.url("/.well-known/openid-configuration"))
        .header("host", "evil.example");
    let discovery = ok_json(discovery.send().await.unwrap()).await;
    assert_eq!(discovery["issuer"], "https://auth.example.test");
    assert_eq!(
        discovery["jwks_uri"],
        "https://auth.example.test/.well-known/jwks.json"
    );

    // A key that is not configured signs nothing the service accepts.
    let foreign = issued_with("e2e-unknown-secret-key-long-enough-000000000", user);
    app.assert_unauthorized(&foreign).await;
    app.stop().await;
}

#[tokio::test]
async fn without_a_public_url_there_is_no_discovery_document_but_the_key_set_is_served() {
    // Facebook needs a public URL; without it, it is off.
    let app = spawn_app_tuned(|settings| {
        settings.server.public_url = None;
        settings
            .oauth_providers
            .remove(social_login_domain::ProviderKey::FACEBOOK);
    })
    .await;
    for host in [None, Some("auth.example.test"), Some("evil.example")] {
        let mut request = app.http.get(app.url("/.well-known/openid-configuration"));
        if let Some(host) = host {
            request = request.header("host", host);
        }
        assert_problem(request.send().await.unwrap(), 404, "NotFound").await;
    }
    let (_, jwks) = fetch_json(&app.http, &app.url("/.well-known/jwks.json")).await;
    assert_eq!(jwks["keys"].as_array().unwrap().len(), 1);
    app.stop().await;
}
