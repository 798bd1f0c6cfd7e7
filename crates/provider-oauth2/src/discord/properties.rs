//! Property tests: any `/users/@me` answer (random bytes, truncated text, a real answer with
//! fields removed, retyped or oversized) maps to an identity the answer supports, with an
//! avatar URL that stays on Discord's CDN, or to `UserInfo`; nothing panics.

use super::api::User;
use super::identity::to_identity;
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_ports::ProviderError;
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys, trimmed};
use url::Url;

const KEYS: &[&str] = &[
    "id",
    "username",
    "discriminator",
    "global_name",
    "avatar",
    "email",
    "verified",
];

fn user() -> Value {
    json!({"id": "1047859021147058176", "username": "ada.lovelace", "discriminator": "0",
           "global_name": "Ada", "avatar": "a_1269e74af4df7417b13759eae50c83dc",
           "email": "ada@example.com", "verified": true, "mfa_enabled": false})
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => body_bytes(user()),
        1 => object_with_keys(KEYS).prop_map(|value| serde_json::to_vec(&value).unwrap()),
    ]
}

fn identity(body: &[u8]) -> Result<ProviderIdentity, ProviderError> {
    to_identity(decode_json::<User>("Discord user endpoint", body)?)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn any_answer_maps_to_a_supported_identity_or_a_user_info_failure(body in body()) {
        match identity(&body) {
            Ok(identity) => {
                let user: Value = serde_json::from_slice(&body).unwrap();
                prop_assert_eq!(identity.provider, ProviderKey::DISCORD);
                prop_assert_eq!(Some(identity.subject.as_str()), user["id"].as_str());
                prop_assert_eq!(identity.email.as_ref().map(|e| e.as_str()), trimmed(&user["email"]).filter(|_| identity.email.is_some()));
                prop_assert!(!identity.email_verified || (identity.email.is_some() && user["verified"] == json!(true)));
                let names = [trimmed(&user["global_name"]), trimmed(&user["username"])];
                prop_assert_eq!(identity.full_name.as_deref(), names.into_iter().flatten().next());
                if let Some(avatar) = identity.avatar_url {
                    // The id and hash go into the URL: nothing they hold may move it.
                    let url = Url::parse(&avatar).unwrap();
                    prop_assert_eq!(url.scheme(), "https");
                    prop_assert_eq!(url.host_str(), Some("cdn.discordapp.com"));
                    prop_assert_eq!(url.query(), None);
                    prop_assert_eq!(url.fragment(), None);
                    prop_assert_eq!(url.path_segments().unwrap().count(), 3);
                }
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains("@"), "{}", message);
            }
            Err(other) => prop_assert!(false, "not a UserInfo failure: {:?}", other),
        }
    }
}
