//! The simulated GitHub, served under `/github`: `login/oauth/*` imitates `github.com`,
//! `api/*` imitates `api.github.com`. Its manners are its dialect's; its hooks write the
//! user, and serve what has no common shape: `/user/emails` and the `DELETE` revocation of
//! a token or a whole grant. Its redirect URI rule (`redirect`) is the engine's
//! `below_registered`.

pub(crate) mod redirect;

use crate::client_auth::{presented, secret_matches};
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::flow::Refusal;
use crate::hooks::{Cx, Document, SimHooks};
use crate::log::RequestRecord;
use crate::paths::EndpointSet;
use crate::paths::PathParams;
use crate::revocation::Reach;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::sync::Arc;

/// The endpoint URLs of the simulated GitHub, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubEndpoints {
    pub authorization: String,
    pub token: String,
    pub user: String,
    pub emails: String,
    /// `DELETE /applications/{client_id}/grant`: revokes the whole authorization.
    pub revocation: String,
}

impl From<EndpointSet> for GithubEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            authorization: e.authorization,
            token: e.token,
            user: e.userinfo.unwrap_or_default(),
            emails: e.emails.unwrap_or_default(),
            revocation: e.revocation.unwrap_or_default(),
        }
    }
}

const P: Provider = Provider::Github;
const DOCS: &str = "https://docs.github.com/rest";

pub struct Github;

impl SimHooks for Github {
    fn userinfo(&self, _: &Cx<'_>, issued: &IssuedToken, _: Option<&str>) -> Document {
        let user = &issued.user;
        let id: u64 = user.id.parse().map_err(|_| {
            let message = (
                StatusCode::INTERNAL_SERVER_ERROR,
                "seeded GitHub user id is not numeric",
            );
            Refusal::new("bad_seed", message)
        })?;
        Ok(json!({
            "login": user.login,
            "id": id,
            "node_id": format!("U_sim{id}"),
            "avatar_url": user.avatar_url,
            "html_url": format!("https://github.com/{}", user.login),
            "type": "User",
            "name": user.name,
            "email": user.public_email,
            "created_at": "2011-01-25T18:44:36Z",
        }))
    }

    /// `/user/emails`, and `DELETE /applications/{client_id}/grant` beside its `/token`.
    fn routes(&self, paths: &EndpointSet) -> Router<Arc<SimState>> {
        let mut router = Router::new();
        if let Some(emails) = &paths.emails {
            router = router.route(emails, get(emails_of));
        }
        if let Some(grant) = &paths.revocation {
            let token = grant.replace("/grant", "/token");
            router = router
                .route(&token, delete(revoke::<false>))
                .route(grant, delete(revoke::<true>));
        }
        router
    }
}

/// Listing emails needs `user:email` or `user`; GitHub hides the resource otherwise.
async fn emails_of(State(sim): State<Arc<SimState>>, headers: HeaderMap) -> Response {
    let params = PathParams::new();
    let cx = Cx::new(&sim, (P, &Github), &params);
    let record = RequestRecord::new(P, Endpoint::Emails, &headers);
    crate::engine::serve(cx, record, |_| {
        let rules = cx
            .dialect
            .userinfo
            .as_ref()
            .ok_or_else(|| not_found("no_api"))?;
        let token = crate::engine::gate(&cx, rules, &headers)?;
        if !token.has_any_scope(&["user:email", "user"]) {
            return Err(not_found("missing_scope"));
        }
        Ok(Json(token.user.github_emails()))
    })
    .await
}

/// `DELETE /applications/{client_id}/token` (the token) or `/grant` (every token of the
/// authorization): Basic client credentials, JSON `{"access_token"}`, 204.
async fn revoke<const GRANT: bool>(
    State(sim): State<Arc<SimState>>,
    Path(client_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let reach = if GRANT { Reach::Grant } else { Reach::Token };
    let params = PathParams::new();
    let record = RequestRecord::new(P, Endpoint::Revoke, &headers);
    crate::engine::serve(Cx::new(&sim, (P, &Github), &params), record, |_| {
        let client = presented(&headers, None, None)
            .filter(|c| c.client_id == client_id)
            .filter(|c| {
                sim.client(P, &client_id)
                    .is_some_and(|r| secret_matches(r, c.client_secret.as_deref()))
            });
        if client.is_none() {
            return Err(not_found("bad_client"));
        }
        let body: Value = serde_json::from_slice(&body).unwrap_or_default();
        let Some(token) = body.get("access_token").and_then(Value::as_str) else {
            return Err(message(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Invalid request.",
                "invalid_body",
            ));
        };
        if sim.held((P, &client_id), token).is_none() {
            return Err(not_found("unknown_token"));
        }
        sim.revoke((P, &client_id), token, None, reach);
        Ok(StatusCode::NO_CONTENT)
    })
    .await
}

fn not_found(outcome: &str) -> Refusal {
    message(StatusCode::NOT_FOUND, "Not Found", outcome)
}

fn message(status: StatusCode, text: &str, outcome: &str) -> Refusal {
    let body = json!({"message": text, "documentation_url": DOCS, "status": status.as_str()});
    Refusal::new(outcome, (status, Json(body)))
}
