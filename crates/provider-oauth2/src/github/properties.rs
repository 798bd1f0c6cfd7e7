//! Property tests: any `/user` and `/user/emails` answer (random bytes, truncated text, a
//! real answer with fields removed, retyped or oversized) maps to an identity the answers
//! support, or to `UserInfo`; nothing panics.

use super::api::{EmailEntry, User};
use super::identity::to_identity;
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_domain::{Email, ProviderIdentity, ProviderKey};
use social_login_ports::ProviderError;
use social_login_provider_core::decode_json;
use social_login_provider_core::json_strategies::{body_bytes, object_with_keys};

const USER_KEYS: &[&str] = &["id", "login", "name", "email", "avatar_url"];
const EMAIL_KEYS: &[&str] = &["email", "primary", "verified", "visibility"];

fn user() -> Value {
    json!({"login": "adalovelace", "id": 583231, "name": "Ada Lovelace",
           "email": "ada@example.com", "avatar_url": "https://avatars.githubusercontent.com/u/583231?v=4"})
}

fn emails() -> Value {
    json!([
        {"email": "ada@example.com", "primary": true, "verified": true, "visibility": "public"},
        {"email": "583231+ada@users.noreply.github.com", "primary": false, "verified": true,
         "visibility": null},
    ])
}

fn bytes(value: Value) -> Vec<u8> {
    serde_json::to_vec(&value).unwrap()
}

fn user_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => body_bytes(user()),
        1 => object_with_keys(USER_KEYS).prop_map(bytes),
    ]
}

fn emails_body() -> impl Strategy<Value = Option<Vec<u8>>> {
    prop::option::weighted(
        0.9,
        prop_oneof![
            3 => body_bytes(emails()),
            1 => prop::collection::vec(object_with_keys(EMAIL_KEYS), 0..4)
                .prop_map(|entries| bytes(Value::Array(entries))),
        ],
    )
}

/// What the adapter does with the two bodies: decode as `fetch_json` does, then map.
/// `None` is a list that could not be read.
fn identity(user: &[u8], emails: Option<&[u8]>) -> Result<ProviderIdentity, ProviderError> {
    let user: User = decode_json("GitHub profile endpoint", user)?;
    let emails: Option<Vec<EmailEntry>> = emails
        .map(|body| decode_json("GitHub emails endpoint", body))
        .transpose()?;
    to_identity(user, emails.as_deref())
}

fn text_at<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn any_answer_maps_to_a_supported_identity_or_a_user_info_failure(
        user_body in user_body(),
        emails_body in emails_body(),
    ) {
        match identity(&user_body, emails_body.as_deref()) {
            Ok(identity) => {
                let user: Value = serde_json::from_slice(&user_body).unwrap();
                let entries: Vec<Value> = emails_body
                    .map(|body| serde_json::from_slice(&body).unwrap())
                    .unwrap_or_default();
                prop_assert_eq!(identity.provider, ProviderKey::GITHUB);
                prop_assert_eq!(identity.subject.as_str(), user["id"].as_u64().unwrap().to_string());
                if let Some(email) = &identity.email {
                    let offered = std::iter::once(text_at(&user, "email"))
                        .chain(entries.iter().map(|entry| text_at(entry, "email")));
                    prop_assert!(offered.flatten().any(|raw| raw.trim() == email.as_str()));
                }
                if identity.email_verified {
                    let email = identity.email.as_ref().unwrap();
                    let vouched = entries.iter().any(|entry| {
                        entry["verified"] == json!(true)
                            && text_at(entry, "email")
                                .and_then(|raw| Email::parse(raw).ok())
                                .is_some_and(|listed| listed.matches(email))
                    });
                    prop_assert!(vouched, "verified without a verified entry");
                }
                prop_assert_eq!(identity.full_name.as_deref(), text_at(&user, "name").map(str::trim).filter(|n| !n.is_empty()));
                prop_assert_eq!(identity.avatar_url.as_deref(), text_at(&user, "avatar_url").map(str::trim).filter(|a| !a.is_empty()));
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(!message.contains("@"), "{}", message);
            }
            Err(other) => prop_assert!(false, "not a UserInfo failure: {:?}", other),
        }
    }
}
