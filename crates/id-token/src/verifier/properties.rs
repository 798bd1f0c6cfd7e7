//! Property tests of what an id_token carries around its signature: the header (random
//! text, truncated or re-encoded base64, a real header mutated) and the claims (random
//! bytes, a real claim set mutated) through every check. Nothing panics; a header is read
//! only with an allowed `alg`, and claims pass a check only when they satisfy it.

use super::checks::{CLOCK_LEEWAY_SECS, check_audience, check_issuer, check_nonce, check_times};
use super::header::read_header;
use super::issuer::IssuerPolicy;
use crate::claims::IdTokenClaims;
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE, URL_SAFE_NO_PAD};
use jsonwebtoken::Algorithm;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Value, json};
use social_login_domain::SecretText;
use social_login_ports::ProviderError;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};

const ALLOWED: [Algorithm; 1] = [Algorithm::RS256];
const KID: &str = "sim-key-a";
const ISSUER: &str = "https://accounts.google.com";
const CLIENT: &str = "1234567890-sim.apps.googleusercontent.com";
const NONCE: &str = "n-0S6_WzA2Mj";
const NOW: i64 = 1_767_225_600;

const HEADER_KEYS: &[&str] = &["alg", "kid", "typ"];
const CLAIM_KEYS: &[&str] = &[
    "iss",
    "sub",
    "aud",
    "azp",
    "exp",
    "iat",
    "nbf",
    "nonce",
    "email",
    "email_verified",
    "name",
    "picture",
];

fn header() -> Value {
    json!({"alg": "RS256", "kid": KID, "typ": "JWT"})
}

fn claims() -> Value {
    json!({"iss": ISSUER, "aud": CLIENT, "azp": CLIENT, "sub": "110248495921238986420",
           "iat": NOW - 10, "exp": NOW + 3590, "nonce": NONCE,
           "email": "ada@example.com", "email_verified": true})
}

fn bytes(value: Value) -> Vec<u8> {
    serde_json::to_vec(&value).unwrap()
}

/// A header segment: base64url of any header body, padded, in the standard alphabet, or
/// cut anywhere.
fn header_segment() -> impl Strategy<Value = String> {
    let body = prop_oneof![
        3 => body_bytes(header()),
        1 => object_with_keys(HEADER_KEYS).prop_map(bytes),
    ];
    (body, 0..5u8, any::<Index>()).prop_map(|(body, encoding, cut)| match encoding {
        0 => STANDARD.encode(&body),
        1 => URL_SAFE.encode(&body),
        2 => {
            let full = URL_SAFE_NO_PAD.encode(&body);
            full[..cut.index(full.len() + 1)].to_owned()
        }
        _ => URL_SAFE_NO_PAD.encode(&body),
    })
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (header_segment(), "[A-Za-z0-9_-]{0,12}", "[A-Za-z0-9_-]{0,12}")
            .prop_map(|(header, claims, signature)| format!("{header}.{claims}.{signature}")),
        1 => (header_segment(), 0usize..6)
            .prop_map(|(header, parts)| format!("{header}{}", ".e30".repeat(parts))),
        1 => any::<String>(),
        1 => "[A-Za-z0-9_.-]{0,80}",
    ]
}

fn claims_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => body_bytes(claims()),
        1 => object_with_keys(CLAIM_KEYS).prop_map(bytes),
    ]
}

/// A check's verdict; its failure must be `UserInfo`.
fn passed(outcome: Result<(), ProviderError>) -> Result<bool, TestCaseError> {
    match outcome {
        Ok(()) => Ok(true),
        Err(ProviderError::UserInfo(message)) => {
            prop_assert!(message.starts_with("id_token "), "{}", message);
            Ok(false)
        }
        Err(other) => Err(TestCaseError::fail(format!("not UserInfo: {other:?}"))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_header_is_read_only_when_it_names_an_allowed_algorithm(token in token()) {
        match read_header(&token, &ALLOWED) {
            Ok(header) => {
                prop_assert_eq!(token.split('.').count(), 3);
                let segment = token.split('.').next().unwrap();
                let raw: Value =
                    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(segment).unwrap()).unwrap();
                prop_assert!(ALLOWED.contains(&header.alg));
                prop_assert_eq!(raw["alg"].as_str(), Some("RS256"));
                prop_assert_eq!(header.kid.as_deref(), raw.get("kid").and_then(Value::as_str));
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(message.starts_with("id_token "), "{}", message);
                // Only an algorithm name that looks like one is repeated, never the token.
                prop_assert!(!message.contains(KID) && message.len() < 140, "{}", message);
            }
            Err(other) => prop_assert!(false, "not UserInfo: {:?}", other),
        }
    }

    #[test]
    fn claims_pass_a_check_only_when_they_satisfy_it(body in claims_body()) {
        // As jsonwebtoken hands the payload to serde; a payload that does not decode is
        // refused by the verifier as "claims are not readable JSON".
        let Ok(claims) = serde_json::from_slice::<IdTokenClaims>(&body) else {
            return Ok(());
        };
        let raw: Value = serde_json::from_slice(&body).unwrap();
        let leeway = CLOCK_LEEWAY_SECS as f64;
        let now = NOW as f64;

        if passed(check_issuer(&IssuerPolicy::one_of([ISSUER]), &claims))? {
            prop_assert_eq!(raw["iss"].as_str(), Some(ISSUER));
        }
        if passed(check_audience(CLIENT, &claims))? {
            let listed = match &raw["aud"] {
                Value::String(aud) => aud == CLIENT,
                Value::Array(auds) => auds.contains(&json!(CLIENT)),
                _ => false,
            };
            prop_assert!(listed, "audience {}", raw["aud"]);
            if let Some(azp) = raw["azp"].as_str() {
                prop_assert_eq!(azp, CLIENT);
            }
        }
        if passed(check_times(&claims, NOW))? {
            let exp = raw["exp"].as_f64();
            let iat = raw["iat"].as_f64();
            prop_assert!(exp.is_some_and(|exp| exp + leeway > now), "exp {}", raw["exp"]);
            // A fraction of a second is truncated: up to one second of slack.
            prop_assert!(iat.is_some_and(|iat| iat < now + leeway + 1.0), "iat {}", raw["iat"]);
            if let Some(nbf) = raw["nbf"].as_f64() {
                prop_assert!(nbf < now + leeway + 1.0, "nbf {}", nbf);
            }
        }
        if passed(check_nonce(&SecretText::new(NONCE), &claims))? {
            prop_assert_eq!(raw["nonce"].as_str(), Some(NONCE));
        }
    }
}
