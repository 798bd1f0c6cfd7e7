//! Property tests: any verified claim set and any userinfo answer (random bytes, truncated
//! text, real documents with fields removed, retyped or oversized) map to an identity the
//! two support, or to `UserInfo`; nothing panics.

use super::identity::{UserInfo, to_identity};
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_id_token::claims::IdTokenClaims;
use social_login_ports::ProviderError;
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{document, says_true, trimmed};

const KEYS: &[&str] = &["sub", "email", "email_verified", "name", "picture", "hd"];
const SUB: &str = "110248495921238986420";

fn claims() -> Value {
    json!({"iss": "https://accounts.google.com", "sub": SUB, "email": "ada@example.com",
           "email_verified": true, "name": "Ada Lovelace",
           "picture": "https://lh3.googleusercontent.com/a/ada=s96-c"})
}

fn userinfo() -> Value {
    json!({"sub": SUB, "email": "ada@example.com", "email_verified": "true",
           "name": "Ada Lovelace", "picture": "https://lh3.googleusercontent.com/a/ada=s96-c"})
}

/// The adapter's path after the verifier: claims as serde decodes the payload, userinfo as
/// `fetch_json` decodes the answer.
fn identity(claims: &[u8], userinfo: &[u8]) -> Result<ProviderIdentity, ProviderError> {
    let claims: IdTokenClaims = serde_json::from_slice(claims)
        .map_err(|_| ProviderError::UserInfo("id_token claims are not readable JSON".into()))?;
    let userinfo: UserInfo = decode_json("Google userinfo endpoint", userinfo)?;
    to_identity(claims, userinfo)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn claims_and_userinfo_map_to_an_identity_they_support(
        claims in document(claims(), KEYS),
        userinfo in document(userinfo(), KEYS),
    ) {
        match identity(&claims, &userinfo) {
            Ok(identity) => {
                let claims: Value = serde_json::from_slice(&claims).unwrap();
                let userinfo: Value = serde_json::from_slice(&userinfo).unwrap();
                prop_assert_eq!(identity.provider, ProviderKey::GOOGLE);
                prop_assert_eq!(Some(identity.subject.as_str()), claims["sub"].as_str());
                prop_assert_eq!(Some(identity.subject.as_str()), userinfo["sub"].as_str());
                // The signed claims are the source when they carry an email.
                let source = if claims["email"].is_string() { &claims } else { &userinfo };
                if let Some(email) = &identity.email {
                    prop_assert_eq!(source["email"].as_str().map(str::trim), Some(email.as_str()));
                }
                prop_assert!(!identity.email_verified
                    || (identity.email.is_some() && says_true(&source["email_verified"])));
                let name = trimmed(&claims["name"]).or_else(|| trimmed(&userinfo["name"]));
                prop_assert_eq!(identity.full_name.as_deref(), name);
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains("@"), "{}", message);
            }
            Err(other) => prop_assert!(false, "not UserInfo: {:?}", other),
        }
    }
}
