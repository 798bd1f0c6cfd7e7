//! The checks of the verifier: the algorithm allow-list (checked before any key lookup),
//! the signature, issuer list, audience, time leeway and nonce (required, or checked only
//! when present).

use crate::bench::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use social_login_domain::SecretText;
use social_login_id_token::NoncePolicy;
use social_login_ports::ProviderError;
use social_login_simulator::{TEST_KEY_A, TEST_KEY_B};

#[tokio::test]
async fn a_token_signed_with_a_published_key_verifies() {
    let bench = bench().await;
    let claims = bench.verify(&signed(&bench.claims())).await.unwrap();
    assert_eq!(claims.sub.as_deref(), Some("1"));
    assert_eq!(bench.jwks_fetches(), 1);
}

#[tokio::test]
async fn alg_none_is_refused_before_any_key_lookup() {
    let bench = bench().await;
    let header = json!({"alg": "none", "kid": TEST_KEY_A.kid});
    let token = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(bench.claims().to_string())
    );
    assert_eq!(
        bench.refusal(&token).await,
        "id_token algorithm `none` is not allowed"
    );
    assert_eq!(bench.jwks_fetches(), 0, "no key was looked up");
}

#[tokio::test]
async fn hs256_with_the_rsa_public_key_as_secret_is_refused_even_if_allowed() {
    let bench = bench().await;
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some(TEST_KEY_A.kid.to_owned());
    // The classic confusion attack: the public key (which anyone can fetch) as HMAC secret.
    for secret in [TEST_KEY_A.public_pem.as_bytes(), TEST_KEY_A.n.as_bytes()] {
        let token =
            jsonwebtoken::encode(&header, &bench.claims(), &EncodingKey::from_secret(secret))
                .unwrap();
        assert_eq!(
            bench.refusal(&token).await,
            "id_token algorithm `HS256` is not allowed"
        );
        let permissive = bench
            .verifier
            .clone()
            .with_algorithms(&[Algorithm::RS256, Algorithm::HS256]);
        assert_eq!(permissive.algorithms(), [Algorithm::RS256]);
    }
    assert_eq!(bench.jwks_fetches(), 0);
}

#[tokio::test]
async fn a_signature_by_another_key_under_a_published_kid_is_refused() {
    let bench = bench().await;
    let forged = TEST_KEY_B.sign(TEST_KEY_A.kid, &bench.claims());
    assert_eq!(
        bench.refusal(&forged).await,
        "id_token signature is invalid"
    );

    // Changing one claim after signing breaks the signature too.
    let token = signed(&bench.claims());
    let parts: Vec<&str> = token.split('.').collect();
    let tampered_claims = with_changes(bench.claims(), json!({"sub": "2"}));
    let tampered = format!(
        "{}.{}.{}",
        parts[0],
        URL_SAFE_NO_PAD.encode(tampered_claims.to_string()),
        parts[2]
    );
    assert_eq!(
        bench.refusal(&tampered).await,
        "id_token signature is invalid"
    );
}

#[tokio::test]
async fn only_listed_issuers_are_accepted() {
    let bench = bench().await;
    for accepted in [ISSUER, BARE_ISSUER] {
        let claims = with_changes(bench.claims(), json!({"iss": accepted}));
        assert!(bench.verify(&signed(&claims)).await.is_ok(), "{accepted}");
    }
    for refused in [
        json!("https://accounts.google.com.evil.example"),
        Value::Null,
    ] {
        let claims = with_changes(bench.claims(), json!({"iss": refused}));
        assert!(
            bench.refusal(&signed(&claims)).await.contains("issuer"),
            "{refused}"
        );
    }
}

#[tokio::test]
async fn the_audience_must_be_this_client() {
    let bench = bench().await;
    let other = with_changes(bench.claims(), json!({"aud": "other-client", "azp": null}));
    assert_eq!(
        bench.refusal(&signed(&other)).await,
        "id_token audience is not this client"
    );
    let listed = with_changes(bench.claims(), json!({"aud": ["other-client", CLIENT_ID]}));
    assert!(bench.verify(&signed(&listed)).await.is_ok());
}

#[tokio::test]
async fn expiry_and_issue_time_allow_a_minute_of_clock_skew() {
    let bench = bench().await;
    let now = bench.now();
    let cases = [
        (json!({"exp": now - 30}), None),
        (json!({"exp": now - 61}), Some("id_token has expired (exp)")),
        (json!({"iat": now + 59}), None),
        (
            json!({"iat": now + 120}),
            Some("id_token is issued in the future (iat)"),
        ),
        (json!({"exp": null}), Some("id_token has no expiry (exp)")),
    ];
    for (changes, expected) in cases {
        let token = signed(&with_changes(bench.claims(), changes.clone()));
        match expected {
            None => assert!(bench.verify(&token).await.is_ok(), "{changes}"),
            Some(message) => assert_eq!(bench.refusal(&token).await, message, "{changes}"),
        }
    }
}

#[tokio::test]
async fn time_is_read_from_the_injected_clock() {
    let bench = bench().await;
    let token = signed(&bench.claims());
    assert!(bench.verify(&token).await.is_ok());
    bench.clock.advance(time::Duration::hours(2));
    assert_eq!(bench.refusal(&token).await, "id_token has expired (exp)");
}

#[tokio::test]
async fn the_nonce_must_be_the_one_of_this_sign_in() {
    let bench = bench().await;
    let wrong = with_changes(bench.claims(), json!({"nonce": "another-nonce"}));
    assert_eq!(
        bench.refusal(&signed(&wrong)).await,
        "id_token nonce does not match"
    );
    let missing = with_changes(bench.claims(), json!({"nonce": null}));
    assert_eq!(
        bench.refusal(&signed(&missing)).await,
        "id_token has no nonce"
    );
}

#[tokio::test]
async fn a_provider_that_does_not_echo_the_nonce_may_omit_it_but_not_change_it() {
    let bench = bench().await;
    let lenient = bench
        .verifier
        .clone()
        .with_nonce_policy(NoncePolicy::CheckedIfPresent);
    let verify = |token: String| {
        let lenient = lenient.clone();
        async move {
            lenient
                .verify(&SecretText::new(token), &SecretText::new(NONCE))
                .await
        }
    };
    let missing = with_changes(bench.claims(), json!({"nonce": null}));
    assert!(verify(signed(&missing)).await.is_ok());
    assert!(verify(signed(&bench.claims())).await.is_ok());
    let wrong = with_changes(bench.claims(), json!({"nonce": "another-nonce"}));
    assert_eq!(
        verify(signed(&wrong)).await.unwrap_err(),
        ProviderError::UserInfo("id_token nonce does not match".into())
    );
}
