//! The whole verifier, over real HTTP against the simulator's key set, on tokens properly
//! signed with the published key whose payload is anything: random bytes, truncated JSON, a
//! real claim set with fields removed, retyped, oversized or nested deep. Nothing panics;
//! a token verifies only when its claims pass every check.

use crate::support::*;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError};
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};
use social_login_provider_oidc::{IdTokenVerifier, IssuerPolicy, KeySetCache};
use social_login_simulator::TEST_KEY_A;
use std::sync::Arc;

const ISSUER: &str = "https://accounts.google.com";
const KEYS: &[&str] = &["iss", "sub", "aud", "azp", "exp", "iat", "nbf", "nonce"];

/// Signs `payload` as it is, RS256 under key A's `kid`.
fn signed(payload: &[u8]) -> String {
    let header = json!({"alg": "RS256", "kid": TEST_KEY_A.kid, "typ": "JWT"});
    let message = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(payload)
    );
    let key = EncodingKey::from_rsa_pem(TEST_KEY_A.private_pem.as_bytes()).unwrap();
    let signature = jsonwebtoken::crypto::sign(message.as_bytes(), &key, Algorithm::RS256).unwrap();
    format!("{message}.{signature}")
}

#[test]
fn any_signed_payload_verifies_only_when_every_check_holds() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let sim = runtime.block_on(simulator(ada()));
    let clock = ManualClock::starting_now();
    let now = clock.now().unix_timestamp();
    let keys = KeySetCache::new(
        url::Url::parse(&sim.google().jwks).unwrap(),
        reqwest::Client::new(),
    );
    let verifier = IdTokenVerifier::new(
        Arc::new(keys),
        IssuerPolicy::one_of([ISSUER]),
        CLIENT_ID,
        clock,
    );
    let claims = json!({"iss": ISSUER, "aud": CLIENT_ID, "azp": CLIENT_ID, "sub": "1",
                        "iat": now, "exp": now + 3600, "nonce": NONCE});
    let payloads = prop_oneof![
        4 => body_bytes(claims),
        1 => object_with_keys(KEYS).prop_map(|value| serde_json::to_vec(&value).unwrap()),
    ];

    let mut runner = TestRunner::new(Config::with_cases(128));
    let outcome = runner.run(&payloads, |payload| {
        let token = signed(&payload);
        let verified = runtime
            .block_on(verifier.verify(&SecretText::new(token.clone()), &SecretText::new(NONCE)));
        match verified {
            Ok(claims) => {
                let raw: Value = serde_json::from_slice(&payload).unwrap();
                prop_assert_eq!(raw["iss"].as_str(), Some(ISSUER));
                let audience = &raw["aud"];
                prop_assert!(
                    audience == CLIENT_ID
                        || audience
                            .as_array()
                            .is_some_and(|a| a.contains(&json!(CLIENT_ID)))
                );
                prop_assert!(
                    raw["exp"]
                        .as_f64()
                        .is_some_and(|exp| exp + 60.0 > now as f64)
                );
                prop_assert_eq!(raw["nonce"].as_str(), Some(NONCE));
                prop_assert!(claims.sub.as_deref().is_some_and(|sub| !sub.is_empty()));
                prop_assert_eq!(claims.sub.as_deref(), raw["sub"].as_str());
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(message.starts_with("id_token "), "{}", message);
                prop_assert!(!message.contains(&token[..20]), "{}", message);
            }
            Err(other) => return Err(TestCaseError::fail(format!("not UserInfo: {other:?}"))),
        }
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    assert_eq!(jwks_fetches(&sim), 1, "one key set served every case");
}
