//! The pieces of every authorize request: the query and its log record, the client and
//! callback it names, the user it chooses, and the way back to the client (a redirect, or
//! Apple's form post) with a code or an error.

use crate::codes::Grant;
use crate::config::{Provider, RegisteredClient};
use crate::faults::Endpoint;
use crate::flow::Refusal;
use crate::lock::locked;
use crate::log::RequestRecord;
use crate::pkce::Challenge;
use crate::state::SimState;
use crate::users::SimUser;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::collections::BTreeMap;
use url::Url;

/// The parameters the providers' authorize endpoints read; each reads the ones its real
/// counterpart knows and ignores the rest.
#[derive(Debug, Default, Deserialize)]
pub struct AuthorizeQuery {
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub response_type: Option<String>,
    /// Apple: `form_post` is mandatory when scopes are requested.
    pub response_mode: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    pub nonce: Option<String>,
    /// GitHub's own account suggestion; treated like `login_hint` there.
    pub login: Option<String>,
    pub login_hint: Option<String>,
    /// The simulator's own choice of identity, by login or id.
    pub sim_user: Option<String>,
    /// Any value: the user refuses.
    pub sim_deny: Option<String>,
}

impl AuthorizeQuery {
    /// The query `raw` under OAuth's names (`renames`: OAuth's name to the provider's).
    pub fn read(raw: Option<&str>, renames: &BTreeMap<String, String>) -> Self {
        let pairs = crate::flow::form_pairs(raw.unwrap_or_default().as_bytes());
        serde_json::from_value(crate::flow::under_oauth_names(pairs, renames)).unwrap_or_default()
    }

    /// The log record of this request (never the values of secrets).
    pub fn record(&self, provider: Provider, headers: &HeaderMap) -> RequestRecord {
        let mut record = RequestRecord::new(provider, Endpoint::Authorize, headers);
        record.client_id.clone_from(&self.client_id);
        record.scope.clone_from(&self.scope);
        record.code_challenge.clone_from(&self.code_challenge);
        record
            .code_challenge_method
            .clone_from(&self.code_challenge_method);
        record.redirect_uri.clone_from(&self.redirect_uri);
        record.nonce_present = self.nonce.is_some();
        record
    }

    /// The registered client the request names.
    pub fn client<'s>(
        &self,
        sim: &'s SimState,
        provider: Provider,
    ) -> Option<&'s RegisteredClient> {
        sim.client(provider, self.client_id.as_deref()?)
    }

    /// The registered callback equal to the requested one; with `or_first`, the first
    /// registered one when the request names none.
    pub fn exact_redirect(
        &self,
        client: &RegisteredClient,
        or_first: bool,
    ) -> Option<(String, Url)> {
        let raw = match self.redirect_uri.as_deref() {
            Some(raw) => client.redirect_uris.iter().find(|r| *r == raw),
            None if or_first => client.redirect_uris.first(),
            None => None,
        }?;
        Some((raw.clone(), Url::parse(raw).ok()?))
    }

    /// The user the request names (`sim_user`, else `login_hint`), else the default
    /// identity; an unknown name is an error page.
    pub fn user(&self, sim: &SimState, hint: Option<&str>) -> Result<SimUser, Refusal> {
        let hint = self
            .sim_user
            .as_deref()
            .or(self.login_hint.as_deref())
            .or(hint);
        locked(&sim.directory).choose(hint).ok_or_else(|| {
            Refusal::page(
                StatusCode::BAD_REQUEST,
                "no such simulated user",
                "unknown_user",
            )
        })
    }
}

/// How the answer travels back to the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Query,
    Fragment,
    FormPost,
}

/// The trusted way back to the client: its callback, the client's `state`, the mode.
#[derive(Debug)]
pub struct Back<'q> {
    /// The callback as the request named it (what the token request must repeat).
    pub raw: String,
    pub url: Url,
    pub state: Option<&'q str>,
    pub mode: Mode,
}

impl<'q> Back<'q> {
    pub fn new((raw, url): (String, Url), query: &'q AuthorizeQuery) -> Self {
        Self {
            raw,
            url,
            state: query.state.as_deref(),
            mode: Mode::Query,
        }
    }

    /// An OAuth `error` (with its description, `extra` fields and the state) sent back to
    /// the client.
    pub fn refuse(
        &self,
        error: &str,
        description: Option<&str>,
        extra: &[(&str, &str)],
    ) -> Refusal {
        let mut fields = vec![("error", error)];
        fields.extend(description.map(|d| ("error_description", d)));
        fields.extend_from_slice(extra);
        fields.extend(self.state.map(|s| ("state", s)));
        Refusal::new(error, self.deliver(&fields))
    }

    /// Issues a code for `user` and sends it back with the state and `extra` fields.
    pub fn approve(
        &self,
        sim: &SimState,
        provider: Provider,
        query: &AuthorizeQuery,
        (client_id, scopes, user): (&str, Vec<String>, SimUser),
        extra: &[(&str, &str)],
    ) -> Response {
        let code = sim.codes(provider).issue(Grant {
            provider,
            client_id: client_id.to_owned(),
            redirect_uri: self.raw.clone(),
            pkce: Challenge {
                code_challenge: query.code_challenge.clone(),
                code_challenge_method: query.code_challenge_method.clone(),
            },
            scopes,
            nonce: query.nonce.clone(),
            user,
        });
        let mut fields = vec![("code", code.as_str())];
        fields.extend(self.state.map(|s| ("state", s)));
        fields.extend_from_slice(extra);
        self.deliver(&fields)
    }

    fn deliver(&self, fields: &[(&str, &str)]) -> Response {
        let mut url = self.url.clone();
        match self.mode {
            Mode::FormPost => return crate::apple::form_post::render(self.url.as_str(), fields),
            Mode::Query => {
                url.query_pairs_mut().extend_pairs(fields);
            }
            Mode::Fragment => {
                url.set_fragment(Some(
                    &serde_urlencoded::to_string(fields).unwrap_or_default(),
                ));
            }
        }
        (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
    }
}
