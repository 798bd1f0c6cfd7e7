//! The knobs that describe how a provider bends OAuth (docs/providers.md, "The knobs"): how
//! its token request and userinfo call are shaped, where a second call finds the emails.
//! The same keys in a declaration and in an operator's `[oauth_providers.<key>]` table.

use serde::{Deserialize, Deserializer, de};
use std::collections::BTreeMap;

/// The token request's body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyFormat {
    /// `application/x-www-form-urlencoded` (RFC 6749).
    #[default]
    Form,
    /// A JSON object of the same parameters (DingTalk, Notion).
    Json,
}

/// `[token_request]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TokenRequest {
    pub format: BodyFormat,
    /// Sent with every token request (Notion's `Notion-Version`).
    pub headers: BTreeMap<String, String>,
}

/// How the userinfo call is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum Method {
    #[default]
    #[serde(rename = "GET")]
    Get,
    /// Dropbox's `get_current_account`, Linear's GraphQL.
    #[serde(rename = "POST")]
    Post,
}

/// Where the userinfo call carries the access token.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TokenIn {
    /// `Authorization: Bearer <token>`.
    #[default]
    Header,
    /// A header of this name holding the token alone (Amazon's `x-amz-access-token`).
    NamedHeader(String),
    /// A query parameter of this name (Yandex's `oauth_token`, VK's `access_token`).
    Query(String),
    /// In the URL's path, where it says `{access_token}` (HubSpot).
    Path,
}

impl TokenIn {
    /// Reads `header`, `header:<name>`, `query:<name>` or `path`.
    pub fn parse(raw: &str) -> Option<Self> {
        let named = |name: &str| {
            let name = name.trim();
            let token = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
            token.then(|| name.to_owned())
        };
        match raw.split_once(':') {
            None if raw == "header" => Some(Self::Header),
            None if raw == "path" => Some(Self::Path),
            Some(("header", name)) => named(name).map(Self::NamedHeader),
            Some(("query", name)) => named(name).map(Self::Query),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for TokenIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Self::parse(&raw).ok_or_else(|| {
            de::Error::custom(
                "token_in: \"header\", \"header:<name>\", \"query:<name>\" or \"path\"",
            )
        })
    }
}

/// `[userinfo]`: how the userinfo call is made.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Userinfo {
    pub method: Method,
    /// Sent as-is with `POST` (as JSON when it parses as JSON).
    pub body: Option<String>,
    pub token_in: TokenIn,
    pub headers: BTreeMap<String, String>,
    /// Extra query parameters (TikTok's `fields`).
    pub query: BTreeMap<String, String>,
}

/// `[emails]`: a second call that lists the account's addresses (`endpoints.emails`), as
/// GitHub's does. Pointers into the answer and into each of its entries.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailsList {
    /// Where the list is, as `endpoints.emails` says it (an operator's table may name it
    /// in either place).
    #[serde(default)]
    pub url: Option<String>,
    /// The array of entries; empty: the answer is the array.
    #[serde(default)]
    pub list: String,
    pub address: String,
    /// The entry that is the account's main address; without it, the first verified one.
    pub primary: Option<String>,
    /// Whether that entry is verified; without it, no entry is.
    pub verified: Option<String>,
}

impl EmailsList {
    /// Every pointer with its field (`emails.address`).
    pub fn pointers(&self) -> Vec<(String, &str)> {
        let mut pointers = vec![("emails.address".to_owned(), self.address.as_str())];
        if !self.list.is_empty() {
            pointers.push(("emails.list".to_owned(), self.list.as_str()));
        }
        for (field, pointer) in [("primary", &self.primary), ("verified", &self.verified)] {
            if let Some(pointer) = pointer {
                pointers.push((format!("emails.{field}"), pointer));
            }
        }
        pointers
    }
}

/// How an `oidc` provider signs its id_tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdTokenSigning {
    /// With a key of its published key set (asymmetric; `id_token.algorithms`).
    #[default]
    KeySet,
    /// HS256 with the client secret as the key (LINE). Opt-in per provider: no other
    /// provider ever accepts HS256.
    ClientSecret,
}

/// The knobs an operator's table sets, each over the declaration's own (a preset's, or a
/// provider from configuration's defaults); `None` leaves the declaration's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Knobs {
    pub authorization_params: Option<BTreeMap<String, String>>,
    pub client_id_param: Option<String>,
    pub client_secret_param: Option<String>,
    pub scope_separator: Option<String>,
    pub user_agent: Option<String>,
    pub token_request: Option<TokenRequest>,
    pub userinfo: Option<Userinfo>,
    pub emails: Option<EmailsList>,
    pub id_token_signing: Option<IdTokenSigning>,
    pub relay_base_urls: Option<Vec<String>>,
}

impl Knobs {
    /// `spec` with every knob set here in place.
    pub fn apply(&self, spec: &mut crate::ProviderSpec) {
        fn set<T: Clone>(into: &mut T, from: &Option<T>) {
            if let Some(value) = from {
                into.clone_from(value);
            }
        }
        set(&mut spec.authorization_params, &self.authorization_params);
        set(&mut spec.client_id_param, &self.client_id_param);
        set(&mut spec.client_secret_param, &self.client_secret_param);
        set(&mut spec.scope_separator, &self.scope_separator);
        if self.user_agent.is_some() {
            spec.user_agent.clone_from(&self.user_agent);
        }
        set(&mut spec.token_request, &self.token_request);
        set(&mut spec.userinfo, &self.userinfo);
        if self.emails.is_some() {
            spec.emails.clone_from(&self.emails);
        }
        set(&mut spec.id_token_signing, &self.id_token_signing);
        set(&mut spec.relay_base_urls, &self.relay_base_urls);
    }

    /// The knobs set here that [`apply`](Self::apply) would put in place of something
    /// `declared` sets, dropping part of it: a knob replaces a table, a map or a list whole,
    /// not member by member, so Reddit's `authorization_params = { scope_x = … }` loses its
    /// `duration = "permanent"` and with it every refresh token.
    pub fn dropping_part_of(&self, declared: &crate::ProviderSpec) -> Vec<&'static str> {
        let drops_a_key = self.authorization_params.as_ref().is_some_and(|params| {
            (declared.authorization_params.keys()).any(|key| !params.contains_key(key))
        });
        let drops_a_base = self
            .relay_base_urls
            .as_ref()
            .is_some_and(|urls| (declared.relay_base_urls.iter()).any(|base| !urls.contains(base)));
        let tables = [
            (
                "token_request",
                self.token_request.is_some() && declared.token_request != TokenRequest::default(),
            ),
            (
                "userinfo",
                self.userinfo.is_some() && declared.userinfo != Userinfo::default(),
            ),
            ("emails", self.emails.is_some() && declared.emails.is_some()),
            ("authorization_params", drops_a_key),
            ("relay_base_urls", drops_a_base),
        ];
        (tables.into_iter())
            .filter_map(|(knob, dropping)| dropping.then_some(knob))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_in_is_one_of_four_forms() {
        assert_eq!(TokenIn::parse("header"), Some(TokenIn::Header));
        assert_eq!(TokenIn::parse("path"), Some(TokenIn::Path));
        assert_eq!(
            TokenIn::parse("query:oauth_token"),
            Some(TokenIn::Query("oauth_token".into()))
        );
        assert_eq!(
            TokenIn::parse("header:x-amz-access-token"),
            Some(TokenIn::NamedHeader("x-amz-access-token".into()))
        );
        for bad in [
            "",
            "Header",
            "query",
            "query:",
            "cookie:x",
            "header:a b",
            "query:a&b",
        ] {
            assert_eq!(TokenIn::parse(bad), None, "{bad}");
        }
    }
}
