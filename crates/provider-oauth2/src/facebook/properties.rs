//! Property tests: any Graph `/me` answer (random bytes, truncated text, a real node or a
//! Graph error with fields removed, retyped or oversized) maps to an identity the node
//! supports, never with a verified email, or to `UserInfo` quoting nothing of it.

use super::api::Me;
use super::identity::to_identity;
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_ports::ProviderError;
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};

const KEYS: &[&str] = &[
    "id",
    "name",
    "email",
    "picture",
    "data",
    "url",
    "is_silhouette",
    "error",
    "type",
    "code",
    "message",
];

fn node() -> Value {
    json!({"id": "10229876543210987", "name": "Ada Lovelace", "email": "ada@example.com",
           "picture": {"data": {"height": 50, "is_silhouette": false,
                                "url": "https://platform-lookaside.fbsbx.com/p/1", "width": 50}}})
}

fn graph_error() -> Value {
    json!({"error": {"message": "Error validating access token: ada@example.com EAAB-token",
                     "type": "OAuthException", "code": 190, "error_subcode": 463,
                     "fbtrace_id": "AbCdEf"}})
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => body_bytes(node()),
        2 => body_bytes(graph_error()),
        1 => object_with_keys(KEYS).prop_map(|value| serde_json::to_vec(&value).unwrap()),
    ]
}

fn identity(body: &[u8]) -> Result<ProviderIdentity, ProviderError> {
    to_identity(decode_json::<Me>("Facebook profile endpoint", body)?)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn any_answer_maps_to_a_supported_identity_or_a_user_info_failure(body in body()) {
        match identity(&body) {
            Ok(identity) => {
                let me: Value = serde_json::from_slice(&body).unwrap();
                prop_assert_eq!(identity.provider, ProviderKey::FACEBOOK);
                prop_assert!(me.get("error").is_none_or(Value::is_null), "a Graph error is no identity");
                prop_assert_eq!(Some(identity.subject.as_str()), me["id"].as_str());
                prop_assert!(!identity.email_verified, "Facebook vouches for no email");
                if let Some(email) = &identity.email {
                    prop_assert_eq!(me["email"].as_str().map(str::trim), Some(email.as_str()));
                }
                if identity.avatar_url.is_some() {
                    prop_assert_ne!(&me["picture"]["data"]["is_silhouette"], &json!(true));
                }
            }
            Err(ProviderError::UserInfo(message)) => {
                // The Graph message is free text (it can quote the token); only type and code
                // are repeated, and only when they look like a type and a code.
                for quoted in ["@", "EAAB", "Error validating"] {
                    prop_assert!(!message.contains(quoted), "{}", message);
                }
            }
            Err(other) => prop_assert!(false, "not a UserInfo failure: {:?}", other),
        }
    }
}
