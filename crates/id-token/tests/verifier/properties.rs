//! The whole verifier on tokens properly signed with the published key whose payload is
//! anything: random bytes, truncated JSON, a real claim set with fields removed, retyped,
//! oversized or nested deep. Nothing panics; a token verifies only when its claims pass
//! every check.

use crate::bench::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use social_login_ports::ProviderError;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};
use social_login_simulator::TEST_KEY_A;

const KEYS: &[&str] = &["iss", "sub", "aud", "azp", "exp", "iat", "nbf", "nonce"];

/// Signs `payload` as it is, RS256 under key A's `kid`.
fn signed_payload(payload: &[u8]) -> String {
    let header = json!({"alg": "RS256", "kid": TEST_KEY_A.kid, "typ": "JWT"});
    TEST_KEY_A.sign_payload(&header, payload)
}

#[test]
fn any_signed_payload_verifies_only_when_every_check_holds() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let bench = runtime.block_on(bench());
    let now = bench.now();
    let payloads = prop_oneof![
        4 => body_bytes(bench.claims()),
        1 => object_with_keys(KEYS).prop_map(|value| serde_json::to_vec(&value).unwrap()),
    ];

    let mut runner = TestRunner::new(Config::with_cases(128));
    let outcome = runner.run(&payloads, |payload| {
        let token = signed_payload(&payload);
        match runtime.block_on(bench.verify(&token)) {
            Ok(claims) => {
                let raw: Value = serde_json::from_slice(&payload).unwrap();
                prop_assert!(
                    [ISSUER, BARE_ISSUER]
                        .map(Some)
                        .contains(&raw["iss"].as_str())
                );
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
    assert_eq!(bench.jwks_fetches(), 1, "one key set served every case");
}
