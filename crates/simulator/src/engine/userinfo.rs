//! The user endpoints, once for every provider that has them: the token gate and the scope
//! check in the dialect's API errors, then the document the provider's hooks write (its
//! dialect's template by default), and a second call for the addresses where the dialect
//! has one.

use crate::dialect::{EmailsRules, TokenIn, UserinfoRules};
use crate::faults::Endpoint;
use crate::flow::{Refusal, has_scope};
use crate::hooks::Cx;
use crate::log::RequestRecord;
use crate::template::Fill;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde_json::Value;

/// What a request to a user endpoint carries: headers, query, body.
#[derive(Debug, Clone, Copy)]
pub struct Carried<'r> {
    pub headers: &'r HeaderMap,
    pub query: Option<&'r str>,
    pub body: &'r [u8],
}

pub async fn answer(cx: Cx<'_>, rules: &UserinfoRules, carried: Carried<'_>) -> Response {
    let record = RequestRecord::new(cx.provider, Endpoint::Userinfo, carried.headers);
    super::serve(cx, record, |_| {
        let issued = gate_carried(&cx, rules, carried)?;
        needs_scopes(rules, &rules.scopes, &issued)?;
        Ok(Json(cx.hooks().userinfo(&cx, &issued, carried.query)?))
    })
    .await
}

/// The addresses of the token's user: each an entry of the dialect's template.
pub async fn emails(
    cx: Cx<'_>,
    (gate, rules): (&UserinfoRules, &EmailsRules),
    carried: Carried<'_>,
) -> Response {
    let record = RequestRecord::new(cx.provider, Endpoint::Emails, carried.headers);
    super::serve(cx, record, |_| {
        let issued = gate_carried(&cx, gate, carried)?;
        needs_scopes(gate, &rules.scopes, &issued)?;
        let user = &issued.user;
        let entries: Vec<Value> = user
            .addresses()
            .iter()
            .map(|email| {
                rules.entry.render(&Fill {
                    email: Some(email),
                    ..Fill::user(user)
                })
            })
            .collect();
        let fill = Fill {
            entries: Some(&entries),
            ..Fill::user(user)
        };
        Ok(Json(rules.document.render(&fill)))
    })
    .await
}

/// Every group of `scopes` has one granted, else the dialect's refusal.
fn needs_scopes(
    rules: &UserinfoRules,
    scopes: &[Vec<String>],
    issued: &IssuedToken,
) -> Result<(), Refusal> {
    let missing = rules.missing_scope.as_ref().unwrap_or(&rules.bad_token);
    for group in scopes {
        if !group.iter().any(|scope| has_scope(&issued.scopes, scope)) {
            return Err(missing.refusal());
        }
    }
    Ok(())
}

/// The live token of this provider a request carries in its `Authorization` header, in one
/// of the dialect's schemes; a `User-Agent` first where the provider wants one. Its other
/// API routes share it.
pub fn gate(
    cx: &Cx<'_>,
    rules: &UserinfoRules,
    headers: &HeaderMap,
) -> Result<IssuedToken, Refusal> {
    let carried = Carried {
        headers,
        query: None,
        body: &[],
    };
    gate_carried(cx, rules, carried)
}

/// The live token of this provider where the dialect takes it.
fn gate_carried(
    cx: &Cx<'_>,
    rules: &UserinfoRules,
    carried: Carried<'_>,
) -> Result<IssuedToken, Refusal> {
    if let Some(error) = &rules.user_agent
        && !carried.headers.contains_key(header::USER_AGENT)
    {
        return Err(error.refusal());
    }
    let Some(token) = presented(cx, rules, carried) else {
        return Err(rules
            .no_credentials
            .as_ref()
            .unwrap_or(&rules.bad_token)
            .refusal());
    };
    token
        .and_then(|token| cx.sim.tokens.get(token.trim()))
        .filter(|issued| issued.provider == cx.provider)
        .ok_or_else(|| rules.bad_token.refusal())
}

/// The token where the dialect takes it: `None` when there is none, `Some(None)` when it
/// comes in a scheme the provider does not take.
fn presented(cx: &Cx<'_>, rules: &UserinfoRules, carried: Carried<'_>) -> Option<Option<String>> {
    let pair = |source: &[u8], name: &str| {
        url::form_urlencoded::parse(source)
            .find(|(key, _)| key == name)
            .map(|(_, value)| Some(value.into_owned()))
    };
    let header_text = |name: &str| {
        carried
            .headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
    };
    match &rules.token_in {
        TokenIn::Header => {
            let value = header_text(header::AUTHORIZATION.as_str())?;
            let (scheme, token) = value.split_once(' ')?;
            let known = rules.schemes.iter().any(|s| scheme.eq_ignore_ascii_case(s));
            Some(known.then(|| token.to_owned()))
        }
        TokenIn::NamedHeader(name) => header_text(name).map(Some),
        TokenIn::Query(name) => pair(carried.query.unwrap_or_default().as_bytes(), name),
        TokenIn::Form(name) => pair(carried.body, name),
        TokenIn::Path => cx.params.get("access_token").cloned().map(Some),
    }
}
