//! Apple's first-authorization `post_body` (docs/providers.md#apple, docs/api.md#callback): the only place a
//! name ever arrives from Apple. The HTTP layer hands the body over untouched
//! (`CallbackInput::post_body`); reading it is this adapter's job.

use serde_json::Value;
use social_login_domain::PersonName;
use social_login_ports::PostBody;

/// Longest name part we keep; Apple's own limit is far lower.
const MAX_PART_CHARS: usize = 100;

/// The name in the callback's `post_body`, if it is JSON carrying one (see [`posted_name`]).
pub fn name_in(post_body: Option<&PostBody>) -> Option<PersonName> {
    let body: Value = serde_json::from_str(post_body?.as_json()).ok()?;
    posted_name(Some(&body))
}

/// Reads `user.name.firstName` / `user.name.lastName`, where `user` is the JSON object or the
/// JSON string Apple really posts. Anything else is ignored: a missing or odd `user` is a
/// returning login, not an error.
pub fn posted_name(post_body: Option<&Value>) -> Option<PersonName> {
    let user = post_body?.get("user")?;
    let parsed;
    let user = match user {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text).ok()?;
            &parsed
        }
        other => other,
    };
    let name = user.get("name")?;
    let part = |key: &str| {
        name.get(key)
            .and_then(Value::as_str)
            // Trimmed again after the cut, which may fall right after a space.
            .map(|part| {
                let cut: String = part.trim().chars().take(MAX_PART_CHARS).collect();
                cut.trim_end().to_owned()
            })
            .filter(|part| !part.is_empty())
    };
    let name = PersonName {
        first_name: part("firstName"),
        last_name: part("lastName"),
    };
    name.full_name().map(|_| name)
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_name_from_a_user_object() {
        let body = json!({"user": {"name": {"firstName": "Ada", "lastName": "Lovelace"}}});
        let name = posted_name(Some(&body)).unwrap();
        assert_eq!(name.full_name().as_deref(), Some("Ada Lovelace"));
    }

    #[test]
    fn reads_the_name_from_the_json_string_apple_posts() {
        let body = json!({
            "state": "s", "code": "c",
            "user": "{\"name\":{\"firstName\":\"Ada\",\"lastName\":\"Lovelace\"},\"email\":\"a@b.c\"}"
        });
        let name = posted_name(Some(&body)).unwrap();
        assert_eq!(name.first_name.as_deref(), Some("Ada"));
        assert_eq!(name.last_name.as_deref(), Some("Lovelace"));
    }

    #[test]
    fn anything_else_means_no_name() {
        for body in [
            json!({}),
            json!({"user": 5}),
            json!({"user": "not json"}),
            json!({"user": {"name": {"firstName": " "}}}),
        ] {
            assert_eq!(posted_name(Some(&body)), None, "{body}");
        }
        assert_eq!(posted_name(None), None);
    }

    #[test]
    fn the_post_body_is_read_from_its_json_text() {
        let body = PostBody::new(r#"{"user": "{\"name\":{\"firstName\":\"Ada\"}}"}"#);
        let name = name_in(Some(&body)).unwrap();
        assert_eq!(name.first_name.as_deref(), Some("Ada"));
        assert_eq!(name_in(Some(&PostBody::new("not json"))), None);
        assert_eq!(name_in(None), None);
    }
}
