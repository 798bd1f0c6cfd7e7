//! Property tests: any claim set the verifier hands over (random bytes, truncated text,
//! Apple's claims with string booleans, with fields removed, retyped or oversized) and any
//! posted name map to an identity the token supports, or to `UserInfo`; nothing panics.

use super::to_identity;
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{PersonName, ProviderIdentity, ProviderKey};
use social_login_id_token::IdTokenClaims;
use social_login_ports::ProviderError;
use social_login_provider_core::json_strategies::{self, says_true, text};

const KEYS: &[&str] = &[
    "sub",
    "email",
    "email_verified",
    "is_private_email",
    "real_user_status",
];

fn claims() -> Value {
    json!({"iss": "https://appleid.apple.com", "aud": "com.example.app",
           "sub": "001234.9f8e7d6c5b4a39281706f5e4d3c2b1a0.1234",
           "email": "X7k2P9q4m1@privaterelay.appleid.com", "email_verified": "true",
           "is_private_email": "true", "real_user_status": 2, "nonce_supported": true})
}

fn document() -> impl Strategy<Value = Vec<u8>> {
    json_strategies::document(claims(), KEYS)
}

/// A name part: anything the client might post, an oversized one included.
fn part() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        4 => text(),
        1 => Just("Ada ".repeat(20_000)),
    ])
}

fn posted_name() -> impl Strategy<Value = Option<PersonName>> {
    prop::option::of(
        (part(), part()).prop_map(|(first_name, last_name)| PersonName {
            first_name,
            last_name,
        }),
    )
}

/// The claims as the verifier hands them over: decoded, and with a subject.
fn identity(
    claims: &[u8],
    name: Option<&PersonName>,
) -> Option<Result<ProviderIdentity, ProviderError>> {
    let claims: IdTokenClaims = serde_json::from_slice(claims).ok()?;
    claims
        .sub
        .as_deref()
        .is_some_and(|sub| !sub.is_empty())
        .then(|| to_identity(claims, name))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn claims_and_a_posted_name_map_to_an_identity_the_token_supports(
        body in document(),
        name in posted_name(),
    ) {
        let Some(outcome) = identity(&body, name.as_ref()) else {
            return Ok(());
        };
        match outcome {
            Ok(identity) => {
                let claims: Value = serde_json::from_slice(&body).unwrap();
                prop_assert_eq!(identity.provider, ProviderKey::APPLE);
                prop_assert_eq!(Some(identity.subject.as_str()), claims["sub"].as_str());
                if let Some(email) = &identity.email {
                    prop_assert_eq!(claims["email"].as_str().map(str::trim), Some(email.as_str()));
                }
                prop_assert!(!identity.email_verified
                    || (identity.email.is_some() && says_true(&claims["email_verified"])));
                // The name is only ever the posted one; Apple's token carries none.
                prop_assert_eq!(identity.full_name, name.as_ref().and_then(PersonName::full_name));
                prop_assert_eq!(identity.avatar_url, None);
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains("@"), "{}", message);
            }
            Err(other) => prop_assert!(false, "not UserInfo: {:?}", other),
        }
    }
}
