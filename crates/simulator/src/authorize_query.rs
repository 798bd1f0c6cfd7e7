//! The query of every simulated authorize endpoint, and the log record it starts.

use crate::config::Provider;
use crate::faults::Endpoint;
use crate::log::RequestRecord;
use axum::http::HeaderMap;
use serde::Deserialize;

/// The parameters the eight providers' authorize endpoints read; each reads the ones its
/// real counterpart knows and ignores the rest.
#[derive(Debug, Default, Deserialize)]
pub struct AuthorizeQuery {
    pub(crate) client_id: Option<String>,
    pub(crate) redirect_uri: Option<String>,
    pub(crate) response_type: Option<String>,
    /// Apple: `form_post` is mandatory when scopes are requested.
    pub(crate) response_mode: Option<String>,
    pub(crate) scope: Option<String>,
    pub(crate) state: Option<String>,
    pub(crate) code_challenge: Option<String>,
    pub(crate) code_challenge_method: Option<String>,
    pub(crate) nonce: Option<String>,
    /// GitHub's own account suggestion; treated like `login_hint`.
    pub(crate) login: Option<String>,
    pub(crate) login_hint: Option<String>,
    /// The simulator's own choice of identity, by login or id.
    pub(crate) sim_user: Option<String>,
    /// Any value: the user refuses.
    pub(crate) sim_deny: Option<String>,
}

impl AuthorizeQuery {
    /// The log record of this request: which client asked, for what, with which PKCE
    /// challenge and whether a nonce came along (never the values of secrets).
    pub(crate) fn record(&self, provider: Provider, headers: &HeaderMap) -> RequestRecord {
        let mut record = RequestRecord::new(provider, Endpoint::Authorize, headers);
        record.client_id = self.client_id.clone();
        record.scope = self.scope.clone();
        record.code_challenge = self.code_challenge.clone();
        record.code_challenge_method = self.code_challenge_method.clone();
        record.redirect_uri = self.redirect_uri.clone();
        record.nonce_present = self.nonce.is_some();
        record
    }
}
