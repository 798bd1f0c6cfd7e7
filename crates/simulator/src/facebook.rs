//! The simulated Facebook, served under `/facebook`: `{version}/dialog/oauth` imitates
//! `www.facebook.com`; `graph/…` imitates `graph.facebook.com`: the token endpoint (GET and
//! POST) and `/me`. Any Graph version segment (`v24.0`) is accepted and recorded as the
//! request's `api_version`. Its manners are its dialect's; its hooks check the version and
//! serve the Graph side ([`graph`]), simulated with "Require App Secret" on.

mod graph;

use crate::dialect::graph_refusal;
use crate::faults::Endpoint;
use crate::flow::Refusal;
use crate::hooks::{Checked, Cx, SimHooks};
use crate::log::RequestRecord;
use crate::paths::EndpointSet;
use crate::paths::PathParams;
use crate::state::SimState;
use axum::Router;
use axum::http::StatusCode;
use axum::routing::{delete, get};
use std::sync::Arc;

/// The Graph API version the endpoint URLs name.
pub const FACEBOOK_SIM_VERSION: &str = "v24.0";

/// The endpoint URLs of the simulated Facebook, to put in a provider's endpoint overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FacebookEndpoints {
    pub authorization: String,
    pub token: String,
    pub me: String,
    /// `DELETE /me/permissions`: de-authorizes the app.
    pub revocation: String,
}

impl From<EndpointSet> for FacebookEndpoints {
    fn from(e: EndpointSet) -> Self {
        Self {
            authorization: e.authorization,
            token: e.token,
            me: e.userinfo.unwrap_or_default(),
            revocation: e.revocation.unwrap_or_default(),
        }
    }
}

pub struct Facebook;

impl SimHooks for Facebook {
    fn note_path(&self, params: &PathParams, record: &mut RequestRecord) {
        record.api_version = params.get("version").cloned();
    }

    /// A version segment that is not `v<major>.<minor>`: a missing page at the dialog,
    /// "Unknown path components" on the Graph.
    fn check_path(&self, cx: &Cx<'_>, endpoint: Endpoint) -> Checked {
        match cx.params.get("version") {
            Some(version) if !is_version(version) => Err(match endpoint {
                Endpoint::Authorize => Refusal::page(
                    StatusCode::NOT_FOUND,
                    "Sorry, this page isn't available",
                    "unknown_version",
                ),
                _ => graph_refusal("OAuthException", 2500, None, "Unknown path components"),
            }),
            _ => Ok(()),
        }
    }

    /// `/me` (versioned, and unversioned) and `DELETE /me/permissions`.
    fn routes(&self, paths: &EndpointSet) -> Router<Arc<SimState>> {
        let mut router = Router::new().route("/graph/me", get(graph::me));
        if let Some(me) = &paths.userinfo {
            router = router.route(me, get(graph::me));
        }
        if let Some(permissions) = &paths.revocation {
            router = router.route(permissions, delete(graph::revoke));
        }
        router
    }
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
