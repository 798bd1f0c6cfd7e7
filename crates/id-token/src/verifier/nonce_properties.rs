//! Property tests of the nonce rule of tokens apps present: for any claims and any raw nonce
//! (or none), nothing panics, and a token that carries a `nonce` passes only with the raw
//! value whose hex SHA-256 it is. The comparison is the constant-time one (`subtle`); here
//! it is held to plain equality on every input.

use super::checks::{check_presented_nonce, same_secret};
use crate::claims::IdTokenClaims;
use proptest::prelude::*;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use social_login_domain::SecretText;
use social_login_ports::ProviderError;

fn hashed(raw: &str) -> String {
    hex::encode(Sha256::digest(raw.as_bytes()))
}

/// The `nonce` claim: none, a random string, a non-string, or the hash of a raw value (in
/// hex, upper-cased, or cut short), so matches and near misses both come up.
fn nonce_claim(raw: String) -> impl Strategy<Value = Option<Value>> {
    let hash = hashed(&raw);
    prop_oneof![
        2 => Just(None),
        3 => Just(Some(json!(hash.clone()))),
        1 => Just(Some(json!(hash.to_uppercase()))),
        1 => (0..64usize).prop_map(move |cut| Some(json!(hash[..cut].to_owned()))),
        1 => Just(Some(json!(raw))),
        1 => any::<String>().prop_map(|text| Some(json!(text))),
        1 => any::<i64>().prop_map(|number| Some(json!(number))),
    ]
}

/// A raw nonce as apps send them, or any text at all.
fn raw_nonce() -> impl Strategy<Value = String> {
    prop_oneof!["[A-Za-z0-9_-]{1,64}", any::<String>()]
}

/// (the raw nonce the request carries, if any; the token's claims)
fn case() -> impl Strategy<Value = (Option<String>, Value)> {
    raw_nonce().prop_flat_map(|raw| {
        (
            prop_oneof![
                Just(Some(raw.clone())),
                Just(None),
                raw_nonce().prop_map(Some)
            ],
            nonce_claim(raw),
        )
            .prop_map(|(sent, claim)| {
                let mut claims = json!({"sub": "1", "exp": 1_900_000_000, "iat": 1_800_000_000});
                if let Some(claim) = claim {
                    claims["nonce"] = claim;
                }
                (sent, claims)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_presented_token_with_a_nonce_passes_only_with_the_raw_value_of_its_hash(
        (sent, raw_claims) in case()
    ) {
        let Ok(claims) = serde_json::from_value::<IdTokenClaims>(raw_claims.clone()) else {
            // A nonce claim that is not a string makes the claims unreadable: refused.
            prop_assert!(raw_claims.get("nonce").is_some_and(|claim| !claim.is_string()));
            return Ok(());
        };
        let raw = sent.as_deref().map(SecretText::new);
        let outcome = check_presented_nonce(raw.as_ref(), &claims);
        if let Err(ProviderError::UserInfo(message)) = &outcome {
            prop_assert!(message.starts_with("id_token "), "{}", message);
            // The message names the check, never a value.
            prop_assert!(sent.as_deref().is_none_or(|sent| sent.len() < 3 || !message.contains(sent)));
        }
        prop_assert!(matches!(outcome, Ok(()) | Err(ProviderError::UserInfo(_))));
        let expected = match (&sent, raw_claims.get("nonce")) {
            (None, claim) => claim.is_none(),
            (Some(sent), Some(Value::String(claim))) => *claim == hashed(sent),
            (Some(_), _) => false,
        };
        prop_assert_eq!(outcome.is_ok(), expected);
    }

    #[test]
    fn the_constant_time_comparison_is_plain_equality(
        presented in proptest::collection::vec(any::<u8>(), 0..80),
        expected in proptest::collection::vec(any::<u8>(), 0..80),
        same in any::<bool>(),
    ) {
        let expected = if same { presented.clone() } else { expected };
        prop_assert_eq!(same_secret(&presented, &expected), presented == expected);
    }
}
