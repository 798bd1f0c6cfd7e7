//! Property tests of the `post_body` parser on any callback body: Apple's `user` member as
//! an object or as the JSON string Apple posts, mutated, cut, garbled or nested deep, and
//! bodies of any shape. Nothing panics; a name comes only from `user.name`, trimmed (also
//! after the cut), non-empty and at most [`MAX_PART_CHARS`] characters a part.

use super::{MAX_PART_CHARS, posted_name};
use proptest::prelude::*;
use serde_json::{Value, json};
use social_login_provider_core::json_strategies::{
    body_bytes, json_value, json_value_with_keys, mutated,
};

const KEYS: &[&str] = &["user", "name", "firstName", "lastName", "email"];

/// A first login's `user`; the stray space is kept, as a client may send it.
fn user() -> Value {
    json!({"name": {"firstName": "Ada ", "lastName": "Lovelace"}, "email": "ada@example.com"})
}

/// `user` as an object, as the JSON string Apple posts (cut or garbled too), or anything.
fn user_member() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => mutated(user()),
        2 => body_bytes(user())
            .prop_map(|bytes| Value::String(String::from_utf8_lossy(&bytes).into_owned())),
        1 => json_value_with_keys(KEYS),
    ]
}

fn post_body() -> impl Strategy<Value = Option<Value>> {
    prop::option::weighted(
        0.95,
        prop_oneof![
            4 => user_member().prop_map(|user| json!({"state": "s", "code": "c", "user": user})),
            1 => mutated(json!({"user": user()})),
            1 => json_value(),
        ],
    )
}

/// What the parser should read for `key`: the trimmed part, cut to the limit.
fn expected_part(body: &Value, key: &str) -> Option<String> {
    let user = match &body["user"] {
        Value::String(text) => serde_json::from_str(text).ok()?,
        other => other.clone(),
    };
    let part: String = user
        .get("name")?
        .get(key)?
        .as_str()?
        .trim()
        .chars()
        .take(MAX_PART_CHARS)
        .collect();
    let part = part.trim_end();
    (!part.is_empty()).then(|| part.to_owned())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_name_comes_only_from_user_name_trimmed_and_bounded(body in post_body()) {
        let Some(name) = posted_name(body.as_ref()) else {
            return Ok(());
        };
        let body = body.unwrap();
        prop_assert!(name.full_name().is_some());
        for (part, key) in [(&name.first_name, "firstName"), (&name.last_name, "lastName")] {
            prop_assert_eq!(part, &expected_part(&body, key));
            if let Some(part) = part {
                prop_assert!(part.chars().count() <= MAX_PART_CHARS);
                prop_assert_eq!(part.trim(), part.as_str());
            }
        }
    }
}

#[test]
fn an_oversized_part_is_cut_to_the_limit_with_no_space_left_at_the_cut() {
    let body = json!({"user": {"name": {"firstName": "Ada".repeat(1000)}}});
    let name = posted_name(Some(&body)).unwrap();
    assert_eq!(name.first_name.unwrap().chars().count(), MAX_PART_CHARS);

    // 25 words of four characters: the cut falls right after a space.
    let body = json!({"user": {"name": {"firstName": "Ada ".repeat(1000)}}});
    let first = posted_name(Some(&body)).unwrap().first_name.unwrap();
    assert_eq!(first, "Ada ".repeat(25).trim_end());
}
