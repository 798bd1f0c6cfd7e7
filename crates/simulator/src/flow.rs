//! The skeleton every simulated endpoint shares: log the request, play an injected fault,
//! run the checks, log the outcome; and the pieces those checks are made of (the token
//! request's parameters, form bodies, Bearer tokens, scopes, the clock).

use crate::client_auth::{PresentedClient, presented};
use crate::log::RequestRecord;
use crate::state::SimState;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

/// A refused request in its provider's shape, and the label the log keeps for it.
#[derive(Debug)]
pub struct Refusal {
    pub outcome: String,
    /// Boxed: a refusal travels in every `Err`, which should stay small.
    pub response: Box<Response>,
}

impl Refusal {
    pub fn new(outcome: impl Into<String>, response: impl IntoResponse) -> Self {
        Self {
            outcome: outcome.into(),
            response: Box::new(response.into_response()),
        }
    }

    /// An error page: what a provider shows when it has no trusted place to redirect to.
    pub fn page(status: StatusCode, message: &'static str, outcome: &str) -> Self {
        Self::new(outcome, (status, message))
    }
}

/// Serves one request: plays the fault injected on the record's endpoint, else runs the
/// provider's checks; either way the request is logged with its outcome.
pub async fn serve<T: IntoResponse>(
    sim: &SimState,
    record: RequestRecord,
    run: impl FnOnce(&mut RequestRecord) -> Result<T, Refusal>,
) -> Response {
    let mut record = match sim.strike_fault(record).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    match run(&mut record) {
        Ok(answer) => sim.finish(record, "ok", answer.into_response()),
        Err(refusal) => sim.finish(record, &refusal.outcome, *refusal.response),
    }
}

/// The parameters of every token and revocation request; each provider reads the ones its
/// real counterpart knows.
#[derive(Debug, Default, Deserialize)]
pub struct TokenParams {
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub code: Option<String>,
    pub redirect_uri: Option<String>,
    pub code_verifier: Option<String>,
    pub grant_type: Option<String>,
    pub refresh_token: Option<String>,
    /// VK ID's device, from the approval's redirect.
    pub device_id: Option<String>,
    /// Revocation: the token to revoke, and what kind the client says it is.
    pub token: Option<String>,
    pub token_type_hint: Option<String>,
}

impl TokenParams {
    /// Notes in the record what the request showed (never a secret) and returns the
    /// client credentials it presented, HTTP Basic first (`headers`), else the body's.
    pub fn note(&self, record: &mut RequestRecord, headers: &HeaderMap) -> Option<PresentedClient> {
        record.code_verifier_present = self.code_verifier.is_some();
        record.redirect_uri.clone_from(&self.redirect_uri);
        let client = presented(
            headers,
            self.client_id.as_deref(),
            self.client_secret.as_deref(),
        );
        record.client_id = client.as_ref().map(|c| c.client_id.clone());
        record.client_auth = client.as_ref().map(|c| c.kind);
        client
    }
}

/// Whether the request body is labelled form-urlencoded.
pub fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/x-www-form-urlencoded"))
}

/// The pairs of a form-urlencoded text.
pub fn form_pairs(body: &[u8]) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

/// Pairs read under the provider's names (`renames`: OAuth's name to the provider's), as
/// the JSON object of OAuth's names to deserialize; an OAuth name the provider reads under
/// another one is dropped (WeChat ignores `client_id`: it reads `appid`).
pub fn under_oauth_names(
    pairs: Vec<(String, String)>,
    renames: &BTreeMap<String, String>,
) -> serde_json::Value {
    let oauth_name = |name: String| {
        if let Some((oauth, _)) = renames.iter().find(|(_, theirs)| **theirs == name) {
            return Some(oauth.clone());
        }
        (!renames.contains_key(&name)).then_some(name)
    };
    let object: serde_json::Map<String, serde_json::Value> = pairs
        .into_iter()
        .filter_map(|(name, value)| Some((oauth_name(name)?, value.into())))
        .collect();
    object.into()
}

/// The credentials of an `Authorization` header whose scheme is one of `schemes`.
pub fn bearer<'h>(headers: &'h HeaderMap, schemes: &[&str]) -> Option<&'h str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    schemes
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s))
        .then(|| token.trim())
}

/// The scopes of a `scope` parameter, split on any of `separators`.
pub fn scopes(raw: Option<&str>, separators: &[char]) -> Vec<String> {
    raw.unwrap_or_default()
        .split(separators)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

pub fn has_scope(scopes: &[String], wanted: &str) -> bool {
    scopes.iter().any(|s| s == wanted)
}

/// Seconds since the epoch, for JWT times.
pub fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}
