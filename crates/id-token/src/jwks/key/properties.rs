//! Property tests of the key-set document and of keys built from `n`/`e` and `x`/`y`:
//! random bytes, truncated text and a real set mutated never panic and yield only keys the
//! document lists for signatures; components that are not base64url, cut, padded, empty,
//! oversized or simply another key's build a key that verifies nothing, without panicking.

use super::{JwkSetDocument, MAX_KEYS};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE, URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Value, json};
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};
use social_login_simulator::{APPLE_TEST_KEY_PEM, APPLE_TEST_PUBLIC_KEY_PEM, TEST_KEY_A};
use std::sync::LazyLock;

const JWK_KEYS: &[&str] = &["kty", "kid", "alg", "use", "n", "e", "x", "y", "crv"];

/// The P-256 point of the simulator's Apple team key: the last 64 bytes of its SPKI.
static EC_POINT: LazyLock<(String, String)> = LazyLock::new(|| {
    let base64: String = APPLE_TEST_PUBLIC_KEY_PEM
        .lines()
        .filter(|line| !line.starts_with("-----"))
        .collect();
    let der = STANDARD.decode(base64).unwrap();
    let (x, y) = der[der.len() - 64..].split_at(32);
    (URL_SAFE_NO_PAD.encode(x), URL_SAFE_NO_PAD.encode(y))
});

fn key_set() -> Value {
    let (x, y) = &*EC_POINT;
    json!({"keys": [
        {"kty": "RSA", "kid": TEST_KEY_A.kid, "alg": "RS256", "use": "sig",
         "n": TEST_KEY_A.n, "e": TEST_KEY_A.e},
        {"kty": "EC", "kid": "ec-1", "alg": "ES256", "use": "sig", "crv": "P-256", "x": x, "y": y},
        {"kty": "RSA", "kid": "enc-1", "use": "enc", "n": TEST_KEY_A.n, "e": TEST_KEY_A.e},
    ]})
}

fn document() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => body_bytes(key_set()),
        1 => prop::collection::vec(object_with_keys(JWK_KEYS), 0..4)
            .prop_map(|keys| serde_json::to_vec(&json!({"keys": keys})).unwrap()),
    ]
}

/// A component near `real`: itself, cut, padded, in the standard alphabet, random bytes
/// (empty and 4 KiB included), or text that is not base64 at all.
fn component(real: &'static str) -> impl Strategy<Value = String> {
    let bytes = URL_SAFE_NO_PAD.decode(real).unwrap();
    prop_oneof![
        2 => Just(real.to_owned()),
        2 => any::<Index>().prop_map(move |cut| real[..cut.index(real.len() + 1)].to_owned()),
        1 => Just(URL_SAFE.encode(&bytes)),
        1 => Just(STANDARD.encode(&bytes)),
        2 => prop::collection::vec(any::<u8>(), 0..600).prop_map(|b| URL_SAFE_NO_PAD.encode(b)),
        1 => prop::collection::vec(any::<u8>(), 4096..4097).prop_map(|b| URL_SAFE_NO_PAD.encode(b)),
        1 => "[ -~]{0,40}",
    ]
}

/// The decoded value without leading zero bytes: what a key component means.
fn magnitude(encoded: &str) -> Option<Vec<u8>> {
    let bytes = URL_SAFE_NO_PAD.decode(encoded).ok()?;
    let first = bytes.iter().position(|b| *b != 0).unwrap_or(bytes.len());
    Some(bytes[first..].to_vec())
}

fn only_key(jwk: Value) -> Option<DecodingKey> {
    let document: JwkSetDocument = serde_json::from_value(json!({"keys": [jwk]})).unwrap();
    document.signature_keys().pop().map(|key| key.key)
}

fn verifies(token: &str, key: &DecodingKey, algorithm: Algorithm) -> bool {
    let mut validation = Validation::new(algorithm);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_aud = false;
    jsonwebtoken::decode::<Value>(token, key, &validation).is_ok()
}

static RSA_TOKEN: LazyLock<String> =
    LazyLock::new(|| TEST_KEY_A.sign(TEST_KEY_A.kid, &json!({"sub": "1"})));

static EC_TOKEN: LazyLock<String> = LazyLock::new(|| {
    let key = EncodingKey::from_ec_pem(APPLE_TEST_KEY_PEM.as_bytes()).unwrap();
    jsonwebtoken::encode(&Header::new(Algorithm::ES256), &json!({"sub": "1"}), &key).unwrap()
});

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn a_document_yields_only_the_signature_keys_it_lists(body in document()) {
        let Ok(document) = decode_json::<JwkSetDocument>("JWKS endpoint", &body) else {
            return Ok(());
        };
        let raw: Value = serde_json::from_slice(&body).unwrap();
        let keys = document.signature_keys();
        prop_assert!(keys.len() <= MAX_KEYS);
        for key in keys {
            let listed = raw["keys"].as_array().unwrap().iter().any(|entry| {
                entry.get("kid").and_then(Value::as_str) == key.kid.as_deref()
                    && matches!(entry["kty"].as_str(), Some("RSA" | "EC"))
                    && entry.get("use").is_none_or(|usage| usage.is_null() || usage == "sig")
            });
            prop_assert!(listed, "key {:?} is not a listed signature key", key.kid);
        }
    }

    #[test]
    fn an_rsa_key_verifies_only_with_the_real_modulus_and_exponent(
        n in component(TEST_KEY_A.n),
        e in component(TEST_KEY_A.e),
    ) {
        let key = only_key(json!({"kty": "RSA", "kid": "k", "n": n, "e": e}));
        if key.is_some_and(|key| verifies(&RSA_TOKEN, &key, Algorithm::RS256)) {
            prop_assert_eq!(magnitude(&n), magnitude(TEST_KEY_A.n));
            prop_assert_eq!(magnitude(&e), magnitude(TEST_KEY_A.e));
        }
    }

    #[test]
    fn an_ec_key_verifies_only_with_the_real_point(
        x in component(&EC_POINT.0),
        y in component(&EC_POINT.1),
    ) {
        let key = only_key(json!({"kty": "EC", "kid": "k", "crv": "P-256", "x": x, "y": y}));
        if key.is_some_and(|key| verifies(&EC_TOKEN, &key, Algorithm::ES256)) {
            prop_assert_eq!(URL_SAFE_NO_PAD.decode(&x).ok(), URL_SAFE_NO_PAD.decode(&EC_POINT.0).ok());
            prop_assert_eq!(URL_SAFE_NO_PAD.decode(&y).ok(), URL_SAFE_NO_PAD.decode(&EC_POINT.1).ok());
        }
    }
}

#[test]
fn the_real_components_verify_their_tokens() {
    let rsa = only_key(json!({"kty": "RSA", "n": TEST_KEY_A.n, "e": TEST_KEY_A.e})).unwrap();
    assert!(verifies(&RSA_TOKEN, &rsa, Algorithm::RS256));
    let (x, y) = &*EC_POINT;
    let ec = only_key(json!({"kty": "EC", "crv": "P-256", "x": x, "y": y})).unwrap();
    assert!(verifies(&EC_TOKEN, &ec, Algorithm::ES256));
}
