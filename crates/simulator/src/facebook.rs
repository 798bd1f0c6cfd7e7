//! The simulated Facebook (PROVIDERS.md §3, §11.4), served under `/facebook`.
//!
//! `{version}/dialog/oauth` imitates `www.facebook.com`; `graph/…` imitates
//! `graph.facebook.com`: the token endpoint (GET and POST) and `/me`. Any Graph version
//! segment (`v24.0`) is accepted and recorded as the request's `api_version`. The app is
//! simulated with "Require App Secret" on: `/me` needs a correct `appsecret_proof`.

mod dialog;
mod graph_error;
mod me;
mod proof;
mod token;

use crate::state::SimState;
use axum::Router;
use axum::routing::get;
use std::sync::Arc;

/// The Graph API version the endpoint URLs below name.
pub const FACEBOOK_SIM_VERSION: &str = "v24.0";

/// The endpoint URLs of the simulated Facebook, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacebookEndpoints {
    pub authorization: String,
    pub token: String,
    pub me: String,
}

impl FacebookEndpoints {
    pub(crate) fn under(base_url: &str) -> Self {
        let version = FACEBOOK_SIM_VERSION;
        Self {
            authorization: format!("{base_url}/facebook/{version}/dialog/oauth"),
            token: format!("{base_url}/facebook/graph/{version}/oauth/access_token"),
            me: format!("{base_url}/facebook/graph/{version}/me"),
        }
    }
}

pub(crate) fn routes() -> Router<Arc<SimState>> {
    Router::new()
        .route("/{version}/dialog/oauth", get(dialog::dialog))
        .route(
            "/graph/{version}/oauth/access_token",
            get(token::access_token).post(token::access_token),
        )
        .route("/graph/{version}/me", get(me::me_versioned))
        .route("/graph/me", get(me::me_unversioned))
}

/// A Graph version segment: `v` then `major.minor` digits (`v24.0`).
fn is_version(segment: &str) -> bool {
    let Some((major, minor)) = segment
        .strip_prefix('v')
        .and_then(|rest| rest.split_once('.'))
    else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
    digits(major) && digits(minor)
}

/// Facebook documents comma-separated scopes; spaces work too.
fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_graph_version_segments_are_versions() {
        assert!(is_version("v24.0") && is_version("v5.0"));
        assert!(!is_version("24.0") && !is_version("v24") && !is_version("vx.0"));
    }

    #[test]
    fn scopes_split_on_commas_and_spaces() {
        assert_eq!(
            split_scopes(Some("email,public_profile")),
            vec!["email", "public_profile"]
        );
        assert_eq!(
            split_scopes(Some("email public_profile")),
            vec!["email", "public_profile"]
        );
    }
}
