//! WeChat's refresh, which no dialect row can say: a GET of `/sns/oauth2/refresh_token` with
//! `appid`, `grant_type=refresh_token` and `refresh_token` in the query and no secret; the
//! token endpoint (`/sns/oauth2/access_token`) exchanges codes only
//! (developers.weixin.qq.com/doc/service/api/webdev/access/api_snsrefreshtoken).

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::{TokenParams, form_pairs, under_oauth_names};
use crate::hooks::{Checked, Cx, SimHooks};
use crate::log::RequestRecord;
use crate::paths::{EndpointSet, PathParams};
use crate::state::SimState;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use std::sync::Arc;

/// The simulated WeChat.
pub const WECHAT: Provider = Provider::simulated("wechat");

/// WeChat's hooks.
pub struct Wechat;

impl SimHooks for Wechat {
    /// The code exchange's endpoint takes no refresh grant.
    fn token_checks(&self, cx: &Cx<'_>, params: &TokenParams) -> Checked {
        if params.grant_type.as_deref() == Some("refresh_token") {
            let errors = &cx.dialect.token.errors;
            return Err(cx
                .dialect
                .envelope
                .refusal(&errors.unsupported_grant_type, true));
        }
        Ok(())
    }

    fn routes(&self, paths: &EndpointSet) -> Router<Arc<SimState>> {
        match &paths.refresh {
            Some(path) => Router::new().route(path, get(refresh)),
            None => Router::new(),
        }
    }
}

/// `GET /sns/oauth2/refresh_token`: a registered `appid` and a live refresh token it was
/// issued; answered as the code exchange is.
async fn refresh(
    State(sim): State<Arc<SimState>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let params = PathParams::new();
    let cx = Cx::new(&sim, (WECHAT, &Wechat), &params);
    let record = RequestRecord::new(WECHAT, Endpoint::Token, &headers);
    crate::engine::serve(cx, record, |record| {
        let errors = &cx.dialect.token.errors;
        let fail = |error| cx.dialect.envelope.refusal(error, true);
        let pairs = form_pairs(query.unwrap_or_default().as_bytes());
        let named = under_oauth_names(pairs, &cx.dialect.token.params);
        let params: TokenParams =
            serde_json::from_value(named).map_err(|_| fail(&errors.not_form))?;
        if params.grant_type.as_deref() != Some("refresh_token") {
            return Err(fail(&errors.unsupported_grant_type));
        }
        let client_id = params.client_id.clone().unwrap_or_default();
        if cx.sim.client(WECHAT, &client_id).is_none() {
            return Err(fail(&errors.bad_client));
        }
        record.client_id = Some(client_id.clone());
        let body = crate::engine::refresh_grant(cx, &params, &client_id).map_err(fail)?;
        Ok(crate::engine::token_answer_of(&cx, body))
    })
    .await
}
