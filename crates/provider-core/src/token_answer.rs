//! The token endpoint's answer as real providers send it, through oauth2's own extension
//! point (a [`TokenResponse`] of ours rather than `StandardTokenResponse`, which refuses
//! them): `scope` as a string or an array of strings (Twitch), `token_type` missing or in any
//! case (WeChat), `expires_in` as a number or a numeric string. Every other member is kept
//! for the `token:` claim pointers (VK's email, Notion's user); the tokens never are.

use oauth2::basic::BasicTokenType;
use oauth2::{AccessToken, RefreshToken, Scope, TokenResponse};
use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::Duration;

/// One token answer. `Debug` shows no token.
#[derive(derive_more::Debug, Clone, Deserialize, Serialize)]
pub struct TokenAnswer {
    #[debug(skip)]
    access_token: AccessToken,
    /// `bearer` when the provider names none.
    #[serde(default = "bearer", deserialize_with = "token_type")]
    token_type: BasicTokenType,
    #[serde(default, deserialize_with = "seconds")]
    expires_in: Option<u64>,
    #[debug("{}", refresh_token.is_some())]
    refresh_token: Option<RefreshToken>,
    #[serde(default, deserialize_with = "scopes")]
    scope: Option<Vec<Scope>>,
    #[debug(skip)]
    id_token: Option<String>,
    /// Every other member of the answer.
    #[serde(flatten)]
    #[debug(skip)]
    rest: Map<String, Value>,
}

impl TokenAnswer {
    pub fn id_token(&self) -> Option<&str> {
        self.id_token.as_deref()
    }

    /// The answer's members but its tokens: what a `token:` pointer may read.
    pub fn members(&self) -> &Map<String, Value> {
        &self.rest
    }
}

impl TokenResponse for TokenAnswer {
    type TokenType = BasicTokenType;

    fn access_token(&self) -> &AccessToken {
        &self.access_token
    }

    fn token_type(&self) -> &BasicTokenType {
        &self.token_type
    }

    fn expires_in(&self) -> Option<Duration> {
        self.expires_in.map(Duration::from_secs)
    }

    fn refresh_token(&self) -> Option<&RefreshToken> {
        self.refresh_token.as_ref()
    }

    fn scopes(&self) -> Option<&Vec<Scope>> {
        self.scope.as_ref()
    }
}

fn bearer() -> BasicTokenType {
    BasicTokenType::Bearer
}

fn token_type<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BasicTokenType, D::Error> {
    let named = Option::<String>::deserialize(deserializer)?;
    Ok(
        match named.map(|name| name.to_ascii_lowercase()).as_deref() {
            None | Some("bearer") => BasicTokenType::Bearer,
            Some("mac") => BasicTokenType::Mac,
            Some(other) => BasicTokenType::Extension(other.to_owned()),
        },
    )
}

fn seconds<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    Ok(match Option::<Value>::deserialize(deserializer)? {
        Some(Value::Number(number)) => number.as_u64(),
        Some(Value::String(text)) => text.trim().parse().ok(),
        _ => None,
    })
}

/// A space- (or comma-) delimited string, or an array of strings.
fn scopes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Vec<Scope>>, D::Error> {
    let words: Vec<String> = match Option::<Value>::deserialize(deserializer)? {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) => text
            .split([' ', ','])
            .filter(|word| !word.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|item| match item {
                Value::String(word) => Ok(word),
                _ => Err(D::Error::custom("a scope that is not a string")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(D::Error::custom("scope is neither a string nor an array")),
    };
    Ok(Some(words.into_iter().map(Scope::new).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> TokenAnswer {
        serde_json::from_str(body).unwrap()
    }

    fn scope_words(answer: &TokenAnswer) -> Vec<String> {
        let scopes = answer.scopes().unwrap();
        scopes.iter().map(|scope| scope.to_string()).collect()
    }

    #[test]
    fn scope_is_read_as_a_string_or_an_array() {
        let string = read(r#"{"access_token":"a","token_type":"bearer","scope":"openid email"}"#);
        assert_eq!(scope_words(&string), ["openid", "email"]);
        let commas = read(r#"{"access_token":"a","token_type":"bearer","scope":"repo,user"}"#);
        assert_eq!(scope_words(&commas), ["repo", "user"]);
        let twitch = read(
            r#"{"access_token":"a","token_type":"bearer","scope":["openid","user:read:email"]}"#,
        );
        assert_eq!(scope_words(&twitch), ["openid", "user:read:email"]);
        assert!(
            serde_json::from_str::<TokenAnswer>(r#"{"access_token":"a","scope":[1]}"#).is_err()
        );
    }

    #[test]
    fn a_missing_or_oddly_cased_token_type_is_read() {
        assert_eq!(
            read(r#"{"access_token":"a"}"#).token_type(),
            &BasicTokenType::Bearer
        );
        assert_eq!(
            read(r#"{"access_token":"a","token_type":"Bearer"}"#).token_type(),
            &BasicTokenType::Bearer
        );
    }

    #[test]
    fn the_other_members_are_kept_and_the_tokens_are_not_among_them() {
        let answer = read(
            r#"{"access_token":"at-secret","refresh_token":"rt-secret","id_token":"it-secret","expires_in":"3600","email":"a@b.c","user_id":7}"#,
        );
        assert_eq!(answer.expires_in(), Some(Duration::from_secs(3600)));
        assert_eq!(answer.id_token(), Some("it-secret"));
        let members: Vec<&str> = answer.members().keys().map(String::as_str).collect();
        assert_eq!(members, ["email", "user_id"]);
        let printed = format!("{answer:?}");
        assert!(!printed.contains("-secret"), "{printed}");
    }
}
