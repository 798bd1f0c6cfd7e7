//! The Graph API side: `GET /me` (versioned and not) for an access token (Bearer header or
//! `access_token` parameter) with a correct `appsecret_proof`, only the requested `fields`
//! (default `id,name`), `email` only with that permission; and the de-authorization.

use crate::config::Provider;
use crate::dialect::graph_refusal;
use crate::faults::Endpoint;
use crate::flow::{Refusal, bearer};
use crate::hooks::Cx;
use crate::log::RequestRecord;
use crate::paths::PathParams;
use crate::revocation::Reach;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use crate::users::SimUser;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use sha2::Sha256;
use std::sync::Arc;

const P: Provider = Provider::Facebook;

/// What Facebook serves for a user without a profile picture.
pub const SILHOUETTE_URL: &str = "https://static.xx.fbcdn.net/rsrc.php/v1/yi/r/odA9sNLrE86.jpg";

/// One Graph error of this API: type, code, message.
type GraphError = (&'static str, u32, &'static str);

const NO_TOKEN: GraphError = (
    "OAuthException",
    2500,
    "An active access token must be used to query information about the current user.",
);
const BAD_TOKEN: GraphError = (
    "OAuthException",
    190,
    "Invalid OAuth access token - Cannot parse access token",
);
const NO_PROOF: GraphError = (
    "GraphMethodException",
    100,
    "API calls from the server require an appsecret_proof argument",
);
const BAD_PROOF: GraphError = (
    "GraphMethodException",
    100,
    "Invalid appsecret_proof provided in the API argument",
);
const UNKNOWN_FIELD: GraphError = (
    "OAuthException",
    100,
    "(#100) Tried accessing nonexisting field on node type (User)",
);

fn refusal((kind, code, message): GraphError) -> Refusal {
    graph_refusal(kind, code, None, message)
}

#[derive(Debug, Default, Deserialize)]
pub struct MeQuery {
    fields: Option<String>,
    access_token: Option<String>,
    appsecret_proof: Option<String>,
}

/// `GET /me`, with or without a version segment.
pub async fn me(
    State(sim): State<Arc<SimState>>,
    path: Option<Path<PathParams>>,
    headers: HeaderMap,
    Query(query): Query<MeQuery>,
) -> Response {
    let params = path.map(|Path(params)| params).unwrap_or_default();
    let fields = query.fields.as_deref().unwrap_or("id,name");
    serve_holder(
        &sim,
        Endpoint::Userinfo,
        &params,
        &headers,
        &query,
        |_, issued| user_node(&issued, fields),
    )
    .await
}

/// `DELETE /{version}/me/permissions` with the user's token (and the proof, as every
/// server call of this app): de-authorizes the app, every token of the user with it.
pub async fn revoke(
    State(sim): State<Arc<SimState>>,
    Path(params): Path<PathParams>,
    headers: HeaderMap,
    Query(query): Query<MeQuery>,
) -> Response {
    serve_holder(
        &sim,
        Endpoint::Revoke,
        &params,
        &headers,
        &query,
        |token, issued| {
            sim.revoke((P, &issued.client_id), &token, None, Reach::Grant);
            Ok(json!({"success": true}))
        },
    )
    .await
}

/// One Graph call at `endpoint`: `answer` gets the request's live token and what it grants
/// once its proof checks out ([`holder`]).
async fn serve_holder(
    sim: &SimState,
    endpoint: Endpoint,
    params: &PathParams,
    headers: &HeaderMap,
    query: &MeQuery,
    answer: impl FnOnce(String, IssuedToken) -> Result<Value, GraphError>,
) -> Response {
    let record = RequestRecord::new(P, endpoint, headers);
    crate::engine::serve(Cx::new(sim, (P, &super::Facebook), params), record, |_| {
        let (token, issued) = holder(sim, headers, query).map_err(refusal)?;
        Ok(Json(answer(token, issued).map_err(refusal)?))
    })
    .await
}

/// The live token of the request (Bearer, `OAuth` or `access_token`) and what it grants,
/// once its `appsecret_proof` checks out.
fn holder(
    sim: &SimState,
    headers: &HeaderMap,
    query: &MeQuery,
) -> Result<(String, IssuedToken), GraphError> {
    let token = bearer(headers, &["bearer", "oauth"])
        .map(str::to_owned)
        .or(query.access_token.clone())
        .ok_or(NO_TOKEN)?;
    let issued = sim
        .tokens
        .get(&token)
        .filter(|issued| issued.provider == P)
        .ok_or(BAD_TOKEN)?;
    let secret = sim
        .client(P, &issued.client_id)
        .map(|c| c.client_secret.clone())
        .ok_or(BAD_TOKEN)?;
    let proof = query.appsecret_proof.as_deref().ok_or(NO_PROOF)?;
    if !proof_matches(&secret, &token, proof) {
        return Err(BAD_PROOF);
    }
    Ok((token, issued))
}

/// Whether `proof` is the hex HMAC-SHA256(`app_secret`, `access_token`), compared in
/// constant time (`verify_slice`).
fn proof_matches(app_secret: &str, access_token: &str, proof: &str) -> bool {
    let Ok(presented) = hex::decode(proof) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(app_secret.as_bytes()) else {
        return false;
    };
    mac.update(access_token.as_bytes());
    mac.verify_slice(&presented).is_ok()
}

/// The requested fields of the user; modifiers such as `picture.type(large)` are ignored.
fn user_node(issued: &IssuedToken, fields: &str) -> Result<Value, GraphError> {
    let user = &issued.user;
    let mut node = Map::new();
    for field in fields.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let name = field.split(['.', '{']).next().unwrap_or(field);
        let value = match name {
            "id" => json!(user.id),
            "name" => json!(user.name),
            "first_name" => json!(name_part(user, 0)),
            "last_name" => json!(name_part(user, 1)),
            "email" if issued.has_any_scope(&["email"]) => match &user.email {
                Some(email) => json!(email),
                // Facebook omits a field it has no value for.
                None => continue,
            },
            "email" => continue,
            "picture" => picture(user),
            _ => return Err(UNKNOWN_FIELD),
        };
        if !value.is_null() {
            node.insert(name.to_owned(), value);
        }
    }
    Ok(Value::Object(node))
}

fn name_part(user: &SimUser, index: usize) -> Option<String> {
    let name = user.name.as_deref()?;
    let (first, last) = name.split_once(' ').unwrap_or((name, ""));
    Some([first, last][index].to_owned()).filter(|part| !part.is_empty())
}

fn picture(user: &SimUser) -> Value {
    let (url, silhouette) = match &user.avatar_url {
        Some(url) => (url.as_str(), false),
        None => (SILHOUETTE_URL, true),
    };
    json!({"data": {"height": 50, "width": 50, "is_silhouette": silhouette, "url": url}})
}
