//! The token endpoint, once for every provider: the body, the client, the grant type, the
//! code (single use, bound to its client, callback and challenge) or a refresh token, and
//! the answer, each failure in the dialect's envelope.

use super::{client, pkce, token_answer};
use crate::codes::RedeemError;
use crate::dialect::{BodyRule, ErrorSpec};
use crate::faults::Endpoint;
use crate::flow::{TokenParams, form_pairs, is_form, under_oauth_names};
use crate::hooks::Cx;
use crate::log::RequestRecord;
use crate::tokens::IssuedToken;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use std::collections::BTreeMap;

/// `POST` (Facebook: also `GET`) of the token endpoint.
pub async fn answer(cx: Cx<'_>, query: Option<&str>, headers: &HeaderMap, body: &[u8]) -> Response {
    let refreshing = is_refresh_grant(&cx, query, headers, body);
    if refreshing {
        // Before any check, as a slow provider would be: concurrent refreshes overlap.
        tokio::time::sleep(cx.sim.refresh_knobs.get().delay()).await;
    }
    let record = RequestRecord::new(cx.provider, Endpoint::Token, headers);
    let json = accepts_json(headers);
    let fail = |error: &ErrorSpec| cx.dialect.envelope.refusal(error, json);
    let answer = super::serve(cx, record, |record| {
        let rules = &cx.dialect.token;
        let errors = &rules.errors;
        let params = parse(rules.body, &rules.params, headers, body, query)
            .ok_or_else(|| fail(&errors.not_form))?;
        let presented = client::note(&rules.client_auth, &params, headers, record);
        let grant_type = params.grant_type.as_deref();
        match grant_type {
            None => {
                if let Some(error) = &errors.missing_grant_type {
                    return Err(fail(error));
                }
            }
            Some(given) if !rules.accepts_grant(given) => {
                return Err(fail(&errors.unsupported_grant_type));
            }
            Some(_) => {}
        }
        let client = client::authenticate(&cx, headers, presented, record).map_err(fail)?;
        cx.hooks().token_checks(&cx, &params)?;
        if let Some(error) = pkce::malformed(&errors.verifier, params.code_verifier.as_deref()) {
            return Err(fail(error));
        }
        if grant_type == Some("refresh_token") {
            return refresh(cx, &params, &client.client_id)
                .map_err(fail)
                .map(|body| labelled(&cx, cx.dialect.envelope.answer(body, json)));
        }
        if let Some(error) = &errors.missing_redirect
            && params.redirect_uri.is_none()
        {
            return Err(fail(error));
        }
        let code = params
            .code
            .as_deref()
            .ok_or_else(|| fail(&errors.missing_code))?;
        let grant = cx
            .sim
            .redeem(cx.provider, code, &client.client_id)
            .map_err(|error| match error {
                RedeemError::Expired => {
                    fail(errors.expired_code.as_ref().unwrap_or(&errors.bad_code))
                }
                RedeemError::Unknown => fail(&errors.bad_code),
            })?;
        // A code an app received on the device (Sign in with Apple) was sent nowhere: it is
        // exchanged without a redirect URI.
        let redirect_ok = match params.redirect_uri.as_deref() {
            None => rules.redirect_uri_optional || grant.redirect_uri.is_empty(),
            Some(named) => named == grant.redirect_uri,
        };
        if !redirect_ok {
            return Err(fail(&errors.redirect_mismatch));
        }
        cx.hooks().grant_checks(&cx, &params, &grant)?;
        if rules.pkce_checked {
            pkce::at_token(&errors.verifier, &grant, params.code_verifier.as_deref())
                .map_err(fail)?;
        }
        let body = token_answer::issue(cx, &grant.token(), grant.nonce.as_deref(), true);
        Ok(labelled(&cx, cx.dialect.envelope.answer(body, json)))
    })
    .await;
    if refreshing && answer.status().is_success() {
        // Issued already: the tokens are live at the provider before the client has them.
        tokio::time::sleep(cx.sim.refresh_knobs.get().late_answer()).await;
    }
    answer
}

/// `answer` with the dialect's own `Content-Type`, where it has one.
pub(crate) fn labelled(cx: &Cx<'_>, mut answer: Response) -> Response {
    let label = cx.dialect.token.answer.content_type.as_deref();
    if let Some(label) = label.and_then(|label| HeaderValue::from_str(label).ok()) {
        answer.headers_mut().insert(header::CONTENT_TYPE, label);
    }
    answer
}

/// The refresh grant: a new access token (and id_token) for a live refresh token of this
/// client and provider. No new refresh token (as at Apple) unless the refresh knobs turn
/// rotation on: then a new one, and the one presented is spent.
pub(crate) fn refresh(
    cx: Cx<'_>,
    params: &TokenParams,
    client_id: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, &'static ErrorSpec> {
    let errors = &cx.dialect.token.errors;
    let token = params
        .refresh_token
        .as_deref()
        .ok_or(&errors.missing_code)?;
    let ours =
        |issued: &IssuedToken| issued.provider == cx.provider && issued.client_id == client_id;
    let store = &cx.sim.refresh_tokens;
    let rotation = cx.sim.refresh_knobs.get().rotation;
    let issued = if rotation {
        store.take_if(token, ours)
    } else {
        store.get(token).filter(ours)
    };
    let issued = issued.ok_or(&errors.bad_code)?;
    cx.sim.refresh_counts.count(cx.provider);
    Ok(token_answer::issue(cx, &issued, None, rotation))
}

/// Whether the request asks for the refresh grant (read once more, ahead of the checks, to
/// know whether to wait first).
fn is_refresh_grant(cx: &Cx<'_>, query: Option<&str>, headers: &HeaderMap, body: &[u8]) -> bool {
    let rules = &cx.dialect.token;
    parse(rules.body, &rules.params, headers, body, query)
        .is_some_and(|params| params.grant_type.as_deref() == Some("refresh_token"))
}

/// The request's parameters as the dialect reads them, under OAuth's names; `None` when
/// it cannot read the body.
pub fn parse(
    rule: BodyRule,
    renames: &BTreeMap<String, String>,
    headers: &HeaderMap,
    body: &[u8],
    query: Option<&str>,
) -> Option<TokenParams> {
    let json = content_type(headers).starts_with("application/json");
    let pairs = match rule {
        BodyRule::Form => is_form(headers).then(|| form_pairs(body))?,
        BodyRule::Json | BodyRule::FormOrJson if json => json_pairs(body)?,
        BodyRule::Json => return None,
        BodyRule::FormOrJson => form_pairs(body),
        BodyRule::QueryAndForm => {
            let mut pairs = form_pairs(query.unwrap_or_default().as_bytes());
            if is_form(headers) {
                // The body wins: its pairs come last.
                pairs.extend(form_pairs(body));
            }
            pairs
        }
    };
    serde_json::from_value(under_oauth_names(pairs, renames)).ok()
}

/// A JSON object's members, numbers and booleans as text.
fn json_pairs(body: &[u8]) -> Option<Vec<(String, String)>> {
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(body).ok()?;
    let text = |value: serde_json::Value| match value {
        serde_json::Value::String(text) => Some(text),
        serde_json::Value::Number(_) | serde_json::Value::Bool(_) => Some(value.to_string()),
        _ => None,
    };
    Some(
        object
            .into_iter()
            .filter_map(|(name, value)| Some((name, text(value)?)))
            .collect(),
    )
}

fn content_type(headers: &HeaderMap) -> &str {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// Whether the client asked for JSON (GitHub answers a form otherwise).
fn accepts_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("application/json"))
}
