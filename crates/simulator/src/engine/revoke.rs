//! An RFC 7009 revocation endpoint, once for every provider that has one in that shape:
//! a form with `token` (and maybe `token_type_hint`), the client as at the token endpoint,
//! the revocation recorded, and the dialect's answer.

use super::client;
use crate::dialect::{BodyRule, RevokeRules};
use crate::faults::Endpoint;
use crate::hooks::Cx;
use crate::log::RequestRecord;
use axum::Json;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

pub async fn answer(cx: Cx<'_>, rules: &RevokeRules, headers: &HeaderMap, body: &[u8]) -> Response {
    let record = RequestRecord::new(cx.provider, Endpoint::Revoke, headers);
    let fail = |error| cx.dialect.envelope.refusal(error, false);
    super::serve(cx, record, |record| {
        let renames = &cx.dialect.token.params;
        let params = super::token::parse(BodyRule::Form, renames, headers, body, None)
            .ok_or_else(|| fail(&rules.missing_token))?;
        let client_id = if rules.client_auth {
            let presented = client::note(&cx.dialect.token.client_auth, &params, headers, record);
            let client = client::authenticate(&cx, headers, presented, record).map_err(fail)?;
            Some(client.client_id.clone())
        } else {
            None
        };
        let token = params
            .token
            .as_deref()
            .ok_or_else(|| fail(&rules.missing_token))?;
        // Without client authentication the token's own client is the one; a dialect
        // without it refuses unknown tokens (checked by the dialect tests).
        let unknown = rules.unknown_token.as_ref().unwrap_or(&rules.missing_token);
        let client_id = match client_id {
            Some(id) => id,
            None => {
                cx.sim
                    .holder(cx.provider, token)
                    .ok_or_else(|| fail(unknown))?
                    .client_id
            }
        };
        if let Some(error) = &rules.unknown_token
            && cx.sim.held((cx.provider, &client_id), token).is_none()
        {
            return Err(fail(error));
        }
        let hint = params.token_type_hint.as_deref();
        if let Some((kind, issued)) =
            cx.sim
                .revoke((cx.provider, &client_id), token, hint, rules.reach)
        {
            cx.hooks().revoked(&cx, kind, &issued);
        }
        Ok(match &rules.answer {
            Some(answer) => Json(answer.clone()).into_response(),
            None => StatusCode::OK.into_response(),
        })
    })
    .await
}
