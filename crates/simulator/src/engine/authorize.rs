//! The authorize endpoint, once for every provider: the client and its callback, then the
//! dialect's checks of state, response type, scopes and PKCE in that order, the user's
//! choice, and the code sent back (redirect or form post).

use super::{pkce, redirect};
use crate::authorize::{AuthorizeQuery, Back};
use crate::claims::Subject;
use crate::dialect::{AuthorizeRules, Described, ResponseTypeRule};
use crate::flow::Refusal;
use crate::hooks::Cx;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;

/// `GET` of the authorize endpoint. With the interactive simulator, a request that names no
/// user shows the sign-in page first (not logged: the person has not answered yet).
pub async fn answer(cx: Cx<'_>, uri: &Uri, headers: &HeaderMap, q: &AuthorizeQuery) -> Response {
    if cx.sim.interactive && q.sim_user.is_none() && q.login_hint.is_none() {
        return crate::sign_in_page::render(cx.sim, cx.provider, uri);
    }
    super::serve(cx, q.record(cx.provider, headers), |_| approve(cx, q)).await
}

fn approve(cx: Cx<'_>, q: &AuthorizeQuery) -> Result<Response, Refusal> {
    let rules = &cx.dialect.authorize;
    let hooks = cx.hooks();
    let client = q
        .client(cx.sim, cx.provider)
        .ok_or_else(|| rules.unknown_client.refusal())?;
    let mut back = redirect::back(rules, client, q)?;
    hooks.answer_mode(&cx, q, &mut back)?;
    if let Some(state) = &rules.state
        && back
            .state
            .is_none_or(|s| s.is_empty() || s.len() > state.max_length)
    {
        return Err(state.page.refusal());
    }
    let words = &rules.descriptions;
    let response_type = q.response_type.as_deref();
    let response_type_ok = match rules.response_type {
        ResponseTypeRule::Code => response_type == Some("code"),
        ResponseTypeRule::CodeIfPresent => response_type.is_none_or(|t| t == "code"),
        ResponseTypeRule::Unchecked => true,
    };
    if !response_type_ok {
        let error = "unsupported_response_type";
        return Err(refuse(
            rules,
            &back,
            error,
            words.get(&Described::ResponseType),
            &[],
        ));
    }
    let mut granted = rules.scopes.split(q.scope.as_deref());
    if !rules.scopes.allows(&granted) {
        return Err(refuse(
            rules,
            &back,
            &rules.scopes.error,
            words.get(&Described::Scope),
            &[],
        ));
    }
    if let Some(problem) = rules
        .pkce
        .as_ref()
        .and_then(|rule| pkce::at_authorize(rule, q))
    {
        let description = problem.description(words);
        return Err(refuse(rules, &back, "invalid_request", description, &[]));
    }
    hooks.authorize_checks(&cx, q, &back)?;
    if q.sim_deny.is_some() {
        return Err(refuse(
            rules,
            &back,
            &rules.deny,
            words.get(&Described::Deny),
            &rules.deny_extra,
        ));
    }
    let hint = q.login.as_deref().filter(|_| rules.login_param);
    let user = q.user(cx.sim, hint)?;
    hooks.admit(&cx, &user)?;
    for scope in &rules.always_granted {
        if !granted.contains(scope) {
            granted.push(scope.clone());
        }
    }
    let subject = Subject {
        client_id: &client.client_id,
        user: &user,
        scopes: &granted,
        nonce: q.nonce.as_deref(),
    };
    let extra = hooks.approval(&cx, q, &subject);
    let extra: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let approved = (client.client_id.as_str(), granted.clone(), user.clone());
    Ok(back.approve(cx.sim, cx.provider, q, approved, &extra))
}

/// An OAuth error sent back to the client, with the description the dialect gives it (its
/// own, else the dialect's common one) and `extra` fields.
fn refuse(
    rules: &AuthorizeRules,
    back: &Back<'_>,
    error: &str,
    own: Option<&String>,
    extra: &[(String, String)],
) -> Refusal {
    let description = own.or(rules.description.as_ref());
    let extra: Vec<(&str, &str)> = extra
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    back.refuse(error, description.map(String::as_str), &extra)
}
