//! Property tests: any claim set (a real token's claims with fields removed, retyped or
//! oversized, or random claims) maps to an identity with a tenant-scoped subject and an
//! email verified only as Microsoft vouches, or to `UserInfo`; nothing panics.

use super::*;
use proptest::prelude::*;
use serde_json::json;
use social_login_domain::ProviderKey;
use social_login_provider_core::claims;
use social_login_provider_core::json_strategies::{mutated, object_with_keys};
use social_login_provider_core::spec::built_in_spec;

const KEYS: &[&str] = &[
    "sub",
    "tid",
    "email",
    "xms_edov",
    "preferred_username",
    "name",
];

fn document() -> impl Strategy<Value = Value> {
    let work = json!({"tid": "72f988bf-86f1-41af-91ab-2d7cd011db47",
        "sub": "AAAAAAAAAAAAAAAAAAAAAFq7mZk3Vd0pQw9sYx2LeRc", "email": "ada@contoso.com",
        "xms_edov": true, "preferred_username": "ada@contoso.onmicrosoft.com",
        "name": "Ada Lovelace"});
    let personal = json!({"tid": PERSONAL_ACCOUNT_TENANT, "sub": "x", "email": "ada@outlook.com"});
    prop_oneof![4 => mutated(work), 1 => mutated(personal), 1 => object_with_keys(KEYS)]
}

/// What the engine does with the claims: map them, then the quirk (without the network).
fn identity(claims: &Map<String, Value>) -> Result<ProviderIdentity, ProviderError> {
    let spec = built_in_spec(ProviderKey::MICROSOFT).unwrap();
    let mut identity = claims::map(&[claims], &spec.claims, ProviderKey::MICROSOFT)?;
    tenant_scoped(claims, &mut identity)?;
    Ok(identity)
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
    fn claims_map_to_a_tenant_scoped_identity_vouched_for_only_by_microsoft(claims in document()) {
        let Some(claims) = claims.as_object() else {
            return Ok(());
        };
        match identity(claims) {
            Ok(identity) => {
                let tid = tenant::tenant_id(claims).unwrap();
                let (scope, _) = identity.subject.as_str().split_once(':').unwrap();
                prop_assert_eq!(scope, tid);
                if identity.email_verified {
                    let email = identity.email.as_ref().unwrap();
                    let given = claims.get("email").and_then(Value::as_str).map(str::trim);
                    prop_assert_eq!(given, Some(email.as_str()), "only `email` is ever verified");
                    prop_assert!(vouched(tid, claims.get("xms_edov").unwrap_or(&Value::Null)));
                }
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains('@'), "{}", message);
            }
            Err(other) => prop_assert!(false, "not UserInfo: {:?}", other),
        }
    }
}
