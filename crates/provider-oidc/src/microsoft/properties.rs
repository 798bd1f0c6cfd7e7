//! Property tests: any claim set the verifier hands over (random bytes, truncated text, a
//! real token's claims with fields removed, retyped or oversized) maps to an identity with
//! a tenant-scoped subject and an email verified only as Microsoft vouches, or to
//! `UserInfo`; nothing panics.

use super::identity::to_identity;
use super::tenant::PERSONAL_ACCOUNT_TENANT;
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_id_token::claims::IdTokenClaims;
use social_login_ports::ProviderError;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};

const KEYS: &[&str] = &[
    "sub",
    "tid",
    "oid",
    "email",
    "xms_edov",
    "preferred_username",
    "name",
];

fn claims() -> Value {
    json!({"iss": "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
           "tid": "72f988bf-86f1-41af-91ab-2d7cd011db47",
           "sub": "AAAAAAAAAAAAAAAAAAAAAFq7mZk3Vd0pQw9sYx2LeRc",
           "oid": "00000000-0000-0000-66f3-3332eca7ea81", "email": "ada@contoso.com",
           "xms_edov": true, "preferred_username": "ada@contoso.onmicrosoft.com",
           "name": "Ada Lovelace"})
}

fn document() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => body_bytes(claims()),
        1 => body_bytes(json!({"tid": PERSONAL_ACCOUNT_TENANT, "sub": "x", "email": "ada@outlook.com"})),
        1 => object_with_keys(KEYS).prop_map(|value| serde_json::to_vec(&value).unwrap()),
    ]
}

/// The claims as the verifier hands them over: decoded, and with a subject.
fn identity(claims: &[u8]) -> Option<Result<ProviderIdentity, ProviderError>> {
    let claims: IdTokenClaims = serde_json::from_slice(claims).ok()?;
    claims
        .sub
        .as_deref()
        .is_some_and(|sub| !sub.is_empty())
        .then(|| to_identity(claims))
}

fn is_guid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn vouched(tid: &str, edov: &Value) -> bool {
    tid == PERSONAL_ACCOUNT_TENANT
        || *edov == json!(true)
        || edov
            .as_str()
            .is_some_and(|text| text == "1" || text.eq_ignore_ascii_case("true"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn claims_map_to_a_tenant_scoped_identity_vouched_for_only_by_microsoft(body in document()) {
        let Some(outcome) = identity(&body) else {
            return Ok(());
        };
        match outcome {
            Ok(identity) => {
                let claims: Value = serde_json::from_slice(&body).unwrap();
                let tid = claims["tid"].as_str().unwrap_or_default();
                prop_assert!(is_guid(tid), "tid {}", claims["tid"]);
                prop_assert_eq!(identity.provider, ProviderKey::MICROSOFT);
                prop_assert_eq!(identity.subject.as_str(), format!("{tid}:{}", claims["sub"].as_str().unwrap()));
                if let Some(email) = &identity.email {
                    let from = [&claims["email"], &claims["preferred_username"]];
                    prop_assert!(from.iter().any(|raw| raw.as_str().map(str::trim) == Some(email.as_str())));
                }
                if identity.email_verified {
                    // Only the `email` claim, and only with Microsoft's word for it.
                    let email = identity.email.as_ref().unwrap();
                    prop_assert_eq!(claims["email"].as_str().map(str::trim), Some(email.as_str()));
                    prop_assert!(vouched(tid, &claims["xms_edov"]));
                }
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains("@"), "{}", message);
            }
            Err(other) => prop_assert!(false, "not UserInfo: {:?}", other),
        }
    }
}
