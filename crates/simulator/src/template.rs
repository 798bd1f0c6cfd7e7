//! The documents a dialect writes down as JSON templates (a preset's user document, its
//! id_token claims, its emails list, the members of its token answer that name the user),
//! filled from one simulated user.
//!
//! A string that is exactly one placeholder becomes a typed value (`"{email_verified}"` is
//! `true`, `"{id:number}"` is `583231`); inside a longer string a placeholder is replaced as
//! text. A placeholder whose value the user lacks becomes `null` (or nothing, inside text).

use crate::users::{SimEmail, SimUser};
use serde::Deserialize;
use serde::de::{self, Deserializer};
use serde_json::{Value, json};

/// A JSON template, parsed when the dialects are.
#[derive(Debug, Clone, PartialEq)]
pub struct Template(Value);

impl<'de> Deserialize<'de> for Template {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let value: Value = serde_json::from_str(&text).map_err(de::Error::custom)?;
        Ok(Self(value))
    }
}

/// What the placeholders of one rendering stand for.
#[derive(Debug, Clone, Copy)]
pub struct Fill<'a> {
    pub user: &'a SimUser,
    /// An entry of an emails list (`{primary}`, `{verified}`; `{email}` is its address).
    pub email: Option<&'a SimEmail>,
    /// The rendered entries (`{entries}`).
    pub entries: Option<&'a [Value]>,
}

impl<'a> Fill<'a> {
    pub fn user(user: &'a SimUser) -> Self {
        Self {
            user,
            email: None,
            entries: None,
        }
    }

    /// The typed value of `name`, `None` for a placeholder this template language lacks.
    fn value(&self, name: &str) -> Option<Value> {
        let user = self.user;
        let verified = self.email.map_or(user.email_verified, |e| e.verified);
        let email = self.email.map_or(user.email.as_deref(), |e| Some(&e.email));
        Some(match name {
            "id" => json!(user.id),
            "id:number" => user.id.parse::<u64>().map_or(json!(user.id), |n| json!(n)),
            "login" => json!(user.login),
            "name" => json!(user.name),
            "email" => json!(email),
            "email_verified" => email.map_or(Value::Null, |_| json!(verified)),
            "email_verified:int" => email.map_or(Value::Null, |_| json!(u8::from(verified))),
            "email_verified:text" => email.map_or(Value::Null, |_| json!(verified.to_string())),
            "avatar_url" => json!(user.avatar_url),
            "primary" => json!(self.email.is_some_and(|e| e.primary)),
            "verified" => json!(verified),
            "entries" => json!(self.entries.unwrap_or_default()),
            _ => return None,
        })
    }
}

impl Template {
    pub fn render(&self, fill: &Fill<'_>) -> Value {
        self.render_by(&|name| fill.value(name))
    }

    /// Renders with `lookup` answering each placeholder (`None`: left as written).
    pub fn render_by(&self, lookup: &dyn Fn(&str) -> Option<Value>) -> Value {
        render(&self.0, lookup)
    }

    /// The rendered template's members; empty for a template that is no object.
    pub fn members(&self, fill: &Fill<'_>) -> serde_json::Map<String, Value> {
        match self.render(fill) {
            Value::Object(members) => members,
            _ => serde_json::Map::new(),
        }
    }
}

type Lookup<'a> = &'a dyn Fn(&str) -> Option<Value>;

fn render(template: &Value, lookup: Lookup<'_>) -> Value {
    match template {
        Value::String(text) => render_text(text, lookup),
        Value::Array(items) => items.iter().map(|item| render(item, lookup)).collect(),
        Value::Object(members) => members
            .iter()
            .map(|(name, value)| (name.clone(), render(value, lookup)))
            .collect(),
        other => other.clone(),
    }
}

fn render_text(text: &str, lookup: Lookup<'_>) -> Value {
    let whole = text
        .strip_prefix('{')
        .and_then(|rest| rest.strip_suffix('}'))
        .filter(|name| !name.contains(['{', '}']));
    if let Some(value) = whole.and_then(lookup) {
        return value;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let Some(length) = rest[start..].find('}') else {
            break;
        };
        let name = &rest[start + 1..start + length];
        out.push_str(&rest[..start]);
        match lookup(name) {
            Some(Value::String(value)) => out.push_str(&value),
            Some(Value::Null) => {}
            Some(value) => out.push_str(&value.to_string()),
            None => out.push_str(&rest[start..=start + length]),
        }
        rest = &rest[start + length + 1..];
    }
    out.push_str(rest);
    Value::String(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(text: &str) -> Template {
        serde_json::from_value(json!(text)).unwrap()
    }

    fn ada() -> SimUser {
        SimUser::new("583231", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true)
    }

    #[test]
    fn a_whole_placeholder_is_typed_and_one_inside_text_is_text() {
        let rendered = template(
            r#"{"id": "{id:number}", "sub": "{id}", "ok": "{email_verified}", "n": "{email_verified:int}",
                "t": "{email_verified:text}", "url": "https://x.test/{login}/{id}", "keep": "{unknown}", "fixed": 7}"#,
        )
        .render(&Fill::user(&ada()));
        assert_eq!(
            rendered,
            json!({"id": 583231, "sub": "583231", "ok": true, "n": 1, "t": "true",
                   "url": "https://x.test/ada/583231", "keep": "{unknown}", "fixed": 7})
        );
    }

    #[test]
    fn what_the_user_lacks_is_null_and_a_flag_without_an_address_too() {
        let user = SimUser::new("abc", "bob");
        let rendered = template(r#"{"email": "{email}", "v": "{email_verified}", "id": "{id:number}", "a": "x{avatar_url}y", "name": "{name}"}"#)
            .render(&Fill::user(&user));
        assert_eq!(
            rendered,
            json!({"email": null, "v": null, "id": "abc", "a": "xy", "name": null})
        );
    }

    #[test]
    fn an_emails_list_renders_each_entry_then_the_document() {
        let user = ada();
        let entry = template(r#"{"email": "{email}", "primary": "{primary}", "ok": "{verified}"}"#);
        let emails = [
            SimEmail {
                email: "a@x.test".into(),
                primary: true,
                verified: false,
                visibility: None,
            },
            SimEmail {
                email: "b@x.test".into(),
                primary: false,
                verified: true,
                visibility: None,
            },
        ];
        let entries: Vec<Value> = emails
            .iter()
            .map(|email| {
                entry.render(&Fill {
                    email: Some(email),
                    ..Fill::user(&user)
                })
            })
            .collect();
        let document = template(r#"{"values": "{entries}", "page": 1}"#).render(&Fill {
            entries: Some(&entries),
            ..Fill::user(&user)
        });
        assert_eq!(
            document,
            json!({"values": [{"email": "a@x.test", "primary": true, "ok": false},
                              {"email": "b@x.test", "primary": false, "ok": true}], "page": 1})
        );
    }
}
