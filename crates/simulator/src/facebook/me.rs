//! `GET /facebook/graph/{version}/me` (and unversioned `/graph/me`): the user node for an
//! access token (Bearer header or `access_token` parameter). Needs a correct
//! `appsecret_proof`; returns only the requested `fields` (default `id,name`), `email`
//! only with the `email` permission.

use super::graph_error::GraphError;
use super::is_version;
use super::proof::proof_matches;
use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use crate::users::SimUser;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// What Facebook serves for a user without a profile picture.
pub const SILHOUETTE_URL: &str = "https://static.xx.fbcdn.net/rsrc.php/v1/yi/r/odA9sNLrE86.jpg";

#[derive(Debug, Default, Deserialize)]
pub struct MeQuery {
    fields: Option<String>,
    access_token: Option<String>,
    appsecret_proof: Option<String>,
}

const NO_TOKEN: GraphError = GraphError::oauth(
    2500,
    "An active access token must be used to query information about the current user.",
);
const BAD_TOKEN: GraphError = GraphError::oauth(
    190,
    "Invalid OAuth access token - Cannot parse access token",
);
const NO_PROOF: GraphError = GraphError {
    message: "API calls from the server require an appsecret_proof argument",
    kind: "GraphMethodException",
    code: 100,
    subcode: None,
};
const BAD_PROOF: GraphError = GraphError {
    message: "Invalid appsecret_proof provided in the API argument",
    kind: "GraphMethodException",
    code: 100,
    subcode: None,
};

pub async fn me_versioned(
    State(sim): State<Arc<SimState>>,
    Path(version): Path<String>,
    headers: HeaderMap,
    Query(query): Query<MeQuery>,
) -> Response {
    me(sim, Some(version), headers, query).await
}

pub async fn me_unversioned(
    State(sim): State<Arc<SimState>>,
    headers: HeaderMap,
    Query(query): Query<MeQuery>,
) -> Response {
    me(sim, None, headers, query).await
}

async fn me(
    sim: Arc<SimState>,
    version: Option<String>,
    headers: HeaderMap,
    query: MeQuery,
) -> Response {
    let mut record = RequestRecord::new(Provider::Facebook, Endpoint::Userinfo, &headers);
    record.api_version = version.clone();
    let record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    if version.as_deref().is_some_and(|v| !is_version(v)) {
        let error = GraphError::oauth(2500, "Unknown path components");
        return sim.finish(record, &error.outcome(), error.response());
    }
    match answer(&sim, &headers, &query) {
        Ok(body) => sim.finish(record, "ok", Json(body).into_response()),
        Err(error) => sim.finish(record, &error.outcome(), error.response()),
    }
}

fn answer(sim: &SimState, headers: &HeaderMap, query: &MeQuery) -> Result<Value, GraphError> {
    let token = bearer(headers)
        .or(query.access_token.clone())
        .ok_or(NO_TOKEN)?;
    let issued = sim
        .tokens
        .get(&token)
        .filter(|issued| issued.provider == Provider::Facebook)
        .ok_or(BAD_TOKEN)?;
    let secret = sim
        .client(Provider::Facebook, &issued.client_id)
        .map(|client| client.client_secret.clone())
        .ok_or(BAD_TOKEN)?;
    let proof = query.appsecret_proof.as_deref().ok_or(NO_PROOF)?;
    if !proof_matches(&secret, &token, proof) {
        return Err(BAD_PROOF);
    }
    user_node(&issued, query.fields.as_deref().unwrap_or("id,name"))
}

/// `Authorization: Bearer <token>` (Graph also takes the `OAuth` scheme).
fn bearer(headers: &HeaderMap) -> Option<String> {
    let (scheme, token) = headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("oauth"))
        .then(|| token.trim().to_owned())
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
            _ => {
                return Err(GraphError::oauth(
                    100,
                    "(#100) Tried accessing nonexisting field on node type (User)",
                ));
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn issued(scopes: &[&str], user: SimUser) -> IssuedToken {
        IssuedToken {
            provider: Provider::Facebook,
            client_id: "app".into(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            user,
        }
    }

    fn ada() -> SimUser {
        SimUser::new("10229876543210987", "ada")
            .with_name("Ada Lovelace")
            .with_email("ada@example.com", true)
    }

    #[test]
    fn only_the_requested_fields_come_back() {
        let node = user_node(&issued(&["email"], ada()), "id,name").unwrap();
        assert_eq!(
            node,
            json!({"id": "10229876543210987", "name": "Ada Lovelace"})
        );
        let names = user_node(&issued(&[], ada()), "first_name,last_name").unwrap();
        assert_eq!(names, json!({"first_name": "Ada", "last_name": "Lovelace"}));
    }

    #[test]
    fn email_needs_the_permission_and_a_seeded_address() {
        let granted = user_node(&issued(&["email"], ada()), "id,email").unwrap();
        assert_eq!(granted["email"], "ada@example.com");
        let not_granted = user_node(&issued(&["public_profile"], ada()), "id,email").unwrap();
        assert!(not_granted.get("email").is_none());
        let none = user_node(&issued(&["email"], SimUser::new("1", "x")), "id,email").unwrap();
        assert!(none.get("email").is_none());
    }

    #[test]
    fn without_an_avatar_the_picture_is_the_silhouette() {
        let node = user_node(&issued(&[], ada()), "picture.type(large)").unwrap();
        assert_eq!(node["picture"]["data"]["is_silhouette"], true);
        assert_eq!(node["picture"]["data"]["url"], SILHOUETTE_URL);
        let with = ada().with_avatar_url("https://platform-lookaside.fbsbx.com/p/1");
        let node = user_node(&issued(&[], with), "picture").unwrap();
        assert_eq!(node["picture"]["data"]["is_silhouette"], false);
    }

    #[test]
    fn a_field_the_user_node_lacks_is_a_graph_error() {
        let error = user_node(&issued(&[], ada()), "id,favourite_colour").unwrap_err();
        assert_eq!(error.code, 100);
    }
}
