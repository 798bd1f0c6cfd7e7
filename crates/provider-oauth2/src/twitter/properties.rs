//! Property tests: any `/2/users/me` answer (random bytes, truncated text, a real answer or
//! an `errors` answer with fields removed, retyped or oversized) maps to an identity the
//! answer supports, or to `UserInfo`; nothing panics.

use super::api::UsersMe;
use super::identity::to_identity;
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_ports::ProviderError;
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};

const KEYS: &[&str] = &[
    "data",
    "id",
    "name",
    "username",
    "profile_image_url",
    "confirmed_email",
    "errors",
];

fn answer() -> Value {
    json!({"data": {"id": "2244994945", "name": "Ada Lovelace", "username": "ada",
                    "profile_image_url": "https://pbs.twimg.com/profile_images/1/a_normal.jpg",
                    "confirmed_email": "ada@example.com"}})
}

fn errors() -> Value {
    json!({"errors": [{"message": "Not authorized", "title": "Unauthorized", "type": "about:blank"}]})
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => body_bytes(answer()),
        1 => body_bytes(errors()),
        1 => object_with_keys(KEYS).prop_map(|value| serde_json::to_vec(&value).unwrap()),
    ]
}

fn identity(body: &[u8]) -> Result<ProviderIdentity, ProviderError> {
    to_identity(decode_json::<UsersMe>("X user endpoint", body)?)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn any_answer_maps_to_a_supported_identity_or_a_user_info_failure(body in body()) {
        match identity(&body) {
            Ok(identity) => {
                let answer: Value = serde_json::from_slice(&body).unwrap();
                let user = &answer["data"];
                prop_assert_eq!(identity.provider, ProviderKey::TWITTER);
                prop_assert_eq!(Some(identity.subject.as_str()), user["id"].as_str());
                // Only a confirmed email is taken, and it is verified by definition.
                prop_assert_eq!(identity.email_verified, identity.email.is_some());
                if let Some(email) = &identity.email {
                    prop_assert_eq!(user["confirmed_email"].as_str().map(str::trim), Some(email.as_str()));
                }
                let name = user["name"].as_str().map(str::trim).filter(|n| !n.is_empty());
                prop_assert_eq!(identity.full_name.as_deref(), name);
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains("@"), "{}", message);
            }
            Err(other) => prop_assert!(false, "not a UserInfo failure: {:?}", other),
        }
    }
}
