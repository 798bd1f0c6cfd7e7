//! Property tests: whatever documents a provider sends (a real answer mutated: fields
//! removed, retyped, oversized, nested deep; or random objects), the mapping never panics,
//! and what it returns is in the documents at the declared pointers.

use super::*;
use crate::json_strategies::{mutated, object_with_keys};
use proptest::prelude::*;
use serde_json::json;
use social_login_provider_spec::Claims;

const KEYS: &[&str] = &[
    "sub",
    "id",
    "data",
    "email",
    "email_verified",
    "verified",
    "name",
    "username",
    "picture",
    "url",
];

fn claims() -> impl Strategy<Value = Claims> {
    let verified = prop_oneof![
        Just(EmailVerified::Never),
        Just(EmailVerified::WhenPresent),
        Just(EmailVerified::AllOf(vec!["/email_verified".into()])),
        Just(EmailVerified::AllOf(vec!["/data/verified".into()])),
    ];
    (any::<bool>(), verified).prop_map(|(nested, email_verified)| {
        let at = |name: &str| match nested {
            true => format!("/data/{name}"),
            false => format!("/{name}"),
        };
        Claims {
            subject: if nested { at("id") } else { at("sub") },
            email: Some(at("email")),
            email_verified,
            name: vec![at("name"), at("username")],
            avatar_url: Some("/picture/url".into()),
            hosted_domain: None,
        }
    })
}

fn real() -> Value {
    json!({"sub": "110169484474386276334", "email": "ada@example.com", "email_verified": "true",
           "name": "Ada Lovelace", "picture": {"url": "https://p.example/a"},
           "data": {"id": 2244994945u64, "email": "ada@example.com", "verified": true,
                    "username": "ada"}})
}

fn document() -> impl Strategy<Value = Map<String, Value>> {
    prop_oneof![
        3 => mutated(real()),
        1 => object_with_keys(KEYS),
    ]
    .prop_filter_map("an object", |value| match value {
        Value::Object(members) => Some(members),
        _ => None,
    })
}

fn offered<'d>(sources: &[&'d Map<String, Value>], pointer: &str) -> Vec<&'d str> {
    sources
        .iter()
        .filter_map(|source| text_at(source, pointer))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn what_the_mapping_returns_is_in_the_documents(
        first in document(),
        second in prop::option::of(document()),
        claims in claims(),
    ) {
        let sources: Vec<&Map<String, Value>> = std::iter::once(&first).chain(second.as_ref()).collect();
        match map(&sources, &claims, ProviderKey::GITHUB) {
            Ok(mapped) => {
                let subject = mapped.subject.as_str();
                let at_subject: Vec<String> = sources
                    .iter()
                    .filter_map(|source| value_at(source, &claims.subject))
                    .filter_map(|value| match value {
                        Value::String(text) => Some(text.clone()),
                        Value::Number(number) => Some(number.to_string()),
                        _ => None,
                    })
                    .collect();
                prop_assert!(at_subject.iter().any(|at| at == subject), "{}", subject);
                if let Some(email) = &mapped.email {
                    let pointer = claims.email.as_deref().unwrap();
                    prop_assert_eq!(offered(&sources, pointer).first().copied(), Some(email.as_str()));
                }
                if mapped.email_verified {
                    let email = mapped.email.as_ref().map(Email::as_str);
                    prop_assert!(email.is_some(), "verified without an email");
                    if let EmailVerified::AllOf(flags) = &claims.email_verified {
                        let pointer = claims.email.as_deref().unwrap();
                        let email = mapped.email.as_ref().unwrap();
                        let vouched = sources.iter().any(|source| {
                            text_at(source, pointer)
                                .and_then(|raw| Email::parse(raw).ok())
                                .is_some_and(|found| found.matches(email))
                                && flags.iter().all(|flag| says_true(source, flag))
                        });
                        prop_assert!(vouched, "verified by a document without that address");
                    }
                    prop_assert!(claims.email_verified != EmailVerified::Never);
                }
                if let Some(name) = &mapped.full_name {
                    let names: Vec<&str> = claims.name.iter().flat_map(|p| offered(&sources, p)).collect();
                    prop_assert!(names.contains(&name.as_str()), "{}", name);
                }
            }
            Err(ProviderError::UserInfo(message)) => {
                prop_assert!(message.contains(&claims.subject), "{}", message);
                prop_assert!(!message.contains('@'), "{}", message);
            }
            Err(other) => prop_assert!(false, "not a UserInfo failure: {:?}", other),
        }
    }
}
