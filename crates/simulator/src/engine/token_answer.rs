//! A successful token answer in the dialect's shape: the access token, its type, lifetime
//! and scope, the provider's extra members, a refresh token and an id_token when due.

use crate::claims::Subject;
use crate::dialect::IdTokenWhen;
use crate::flow::has_scope;
use crate::hooks::Cx;
use crate::id_token;
use crate::template::Fill;
use crate::tokens::IssuedToken;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Issues the tokens `issued` grants; `with_refresh` is false on a refresh grant that does
/// not rotate.
pub fn issue(
    cx: Cx<'_>,
    issued: &IssuedToken,
    nonce: Option<&str>,
    with_refresh: bool,
) -> Map<String, Value> {
    let answer = &cx.dialect.token.answer;
    let access_token = cx.sim.tokens.issue(&answer.access_prefix, issued.clone());
    let mut body = Map::new();
    if answer.ok {
        body.insert("ok".into(), json!(true));
    }
    body.insert("access_token".into(), json!(access_token));
    if let Some(token_type) = &answer.token_type {
        body.insert("token_type".into(), json!(token_type));
    }
    if let Some(seconds) = answer.expires_in {
        body.insert("expires_in".into(), json!(seconds));
    }
    if answer.scope_as_array {
        body.insert("scope".into(), json!(issued.scopes));
    } else if let Some(separator) = &answer.scope_separator {
        body.insert("scope".into(), json!(issued.scopes.join(separator)));
    }
    body.extend(answer.extra.clone());
    if let Some(template) = &answer.user {
        body.extend(template.members(&Fill::user(&issued.user)));
    }
    if let Some(rule) = answer.refresh.as_ref().filter(|_| with_refresh)
        && rule
            .scope
            .as_ref()
            .is_none_or(|scope| has_scope(&issued.scopes, scope))
    {
        let refresh = cx
            .sim
            .refresh_tokens
            .issue_sized(&rule.prefix, rule.length, issued.clone());
        body.insert("refresh_token".into(), json!(refresh));
    }
    let signs = match answer.id_token {
        IdTokenWhen::Never => false,
        IdTokenWhen::WithOpenid => has_scope(&issued.scopes, "openid"),
        IdTokenWhen::Always => true,
    };
    if signs {
        let subject = Subject {
            client_id: &issued.client_id,
            user: &issued.user,
            scopes: &issued.scopes,
            nonce,
        };
        let at_hash = answer.at_hash.then_some(access_token.as_str());
        body.insert(
            "id_token".into(),
            json!(id_token::issue(&cx, &subject, at_hash)),
        );
    }
    renamed(body, &answer.names)
}

/// `body` with its members under the provider's names (DingTalk's `accessToken`).
fn renamed(body: Map<String, Value>, names: &BTreeMap<String, String>) -> Map<String, Value> {
    if names.is_empty() {
        return body;
    }
    body.into_iter()
        .map(|(name, value)| (names.get(&name).cloned().unwrap_or(name), value))
        .collect()
}
