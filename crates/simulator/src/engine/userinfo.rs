//! The user endpoint, once for every provider that has one: the token gate and the scope
//! check in the dialect's API errors, then the document the provider's hooks write.

use crate::dialect::UserinfoRules;
use crate::faults::Endpoint;
use crate::flow::{Refusal, has_scope};
use crate::hooks::Cx;
use crate::log::RequestRecord;
use crate::tokens::IssuedToken;
use axum::Json;
use axum::http::{HeaderMap, header};
use axum::response::Response;

pub async fn answer(
    cx: Cx<'_>,
    rules: &UserinfoRules,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Response {
    let record = RequestRecord::new(cx.provider, Endpoint::Userinfo, headers);
    super::serve(cx, record, |_| {
        let issued = gate(&cx, rules, headers)?;
        let missing = rules.missing_scope.as_ref().unwrap_or(&rules.bad_token);
        for group in &rules.scopes {
            if !group.iter().any(|scope| has_scope(&issued.scopes, scope)) {
                return Err(missing.refusal());
            }
        }
        Ok(Json(cx.hooks().userinfo(&cx, &issued, query)?))
    })
    .await
}

/// The live token of this provider a request carries, in one of the dialect's schemes;
/// a `User-Agent` first where the provider wants one. Its other API routes share it.
pub fn gate(
    cx: &Cx<'_>,
    rules: &UserinfoRules,
    headers: &HeaderMap,
) -> Result<IssuedToken, Refusal> {
    if let Some(error) = &rules.user_agent
        && !headers.contains_key(header::USER_AGENT)
    {
        return Err(error.refusal());
    }
    let credentials = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '));
    let Some((scheme, token)) = credentials else {
        return Err(rules
            .no_credentials
            .as_ref()
            .unwrap_or(&rules.bad_token)
            .refusal());
    };
    let scheme_ok = rules.schemes.iter().any(|s| scheme.eq_ignore_ascii_case(s));
    cx.sim
        .tokens
        .get(token.trim())
        .filter(|issued| scheme_ok && issued.provider == cx.provider)
        .ok_or_else(|| rules.bad_token.refusal())
}
