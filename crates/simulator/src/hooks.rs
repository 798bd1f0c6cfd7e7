//! What a simulated provider does that its dialect cannot say. Each provider implements the
//! hooks it needs (every one has a default); the engine calls them at fixed points of the
//! common flow.

use crate::authorize::{AuthorizeQuery, Back};
use crate::claims::Subject;
use crate::codes::Grant;
use crate::config::Provider;
use crate::dialect::Dialect;
use crate::faults::Endpoint;
use crate::flow::{Refusal, TokenParams};
use crate::log::RequestRecord;
use crate::paths::{EndpointSet, PathParams};
use crate::revocation::TokenKind;
use crate::state::SimState;
use crate::template::Fill;
use crate::tokens::IssuedToken;
use crate::users::SimUser;
use axum::Router;
use serde_json::Value;
use std::sync::{Arc, LazyLock};

/// A check that passes, or the refusal that answers instead.
pub type Checked = Result<(), Refusal>;
/// A user document, or the refusal that answers instead.
pub type Document = Result<Value, Refusal>;
/// Fields added to an answer.
pub type Fields = Vec<(&'static str, String)>;

/// No captures: what an id_token minted outside a request is signed under.
static NO_CAPTURES: LazyLock<PathParams> = LazyLock::new(PathParams::new);

/// A simulated provider and its hooks.
pub type Served = (Provider, &'static dyn SimHooks);

/// One request at one provider: the state, whom it is for, its hooks, the path's captures.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    pub sim: &'a SimState,
    pub provider: Provider,
    pub dialect: &'static Dialect,
    hooks: &'static dyn SimHooks,
    pub params: &'a PathParams,
}

impl<'a> Cx<'a> {
    pub fn new(sim: &'a SimState, (provider, hooks): Served, params: &'a PathParams) -> Self {
        Self {
            sim,
            provider,
            dialect: provider.dialect(),
            hooks,
            params,
        }
    }

    /// `served` outside a request (its endpoint list, a minted id_token).
    pub fn bare(sim: &'a SimState, served: Served) -> Self {
        Self::new(sim, served, &NO_CAPTURES)
    }

    pub fn hooks(&self) -> &'static dyn SimHooks {
        self.hooks
    }
}

#[allow(unused_variables)] // The defaults ignore what the providers' own versions read.
pub trait SimHooks: Send + Sync {
    /// Notes what the path says before anything else, faults included (Facebook's version).
    fn note_path(&self, params: &PathParams, record: &mut RequestRecord) {}

    /// Refuses a path the provider would not serve (an unknown tenant or Graph version).
    fn check_path(&self, cx: &Cx<'_>, endpoint: Endpoint) -> Checked {
        Ok(())
    }

    /// Once client and callback are trusted, before the common checks: how the answer
    /// travels back, and what only this provider checks first (Apple's response modes).
    fn answer_mode(&self, cx: &Cx<'_>, q: &AuthorizeQuery, back: &mut Back<'_>) -> Checked {
        Ok(())
    }

    /// After the common authorize checks, before the user is asked (LinkedIn's PKCE).
    fn authorize_checks(&self, cx: &Cx<'_>, q: &AuthorizeQuery, back: &Back<'_>) -> Checked {
        Ok(())
    }

    /// Whether the chosen user may sign in here (Microsoft's tenant paths).
    fn admit(&self, cx: &Cx<'_>, user: &SimUser) -> Checked {
        Ok(())
    }

    /// More fields of an approval, after the code (Apple's `id_token` and first-login `user`).
    fn approval(&self, cx: &Cx<'_>, q: &AuthorizeQuery, subject: &Subject<'_>) -> Fields {
        Vec::new()
    }

    /// Verifies a `signed_secret_post` client secret of `client_id`: its `iat` and `exp`,
    /// which the log keeps (never the secret).
    fn signed_secret(&self, cx: &Cx<'_>, client_id: &str, secret: &str) -> Option<(i64, i64)> {
        None
    }

    /// Token checks once the client is known, before the code (LinkedIn refusing verifiers).
    fn token_checks(&self, cx: &Cx<'_>, params: &TokenParams) -> Checked {
        Ok(())
    }

    /// Checks of the redeemed grant after its redirect URI (tenants; LinkedIn's PKCE).
    fn grant_checks(&self, cx: &Cx<'_>, params: &TokenParams, grant: &Grant) -> Checked {
        Ok(())
    }

    /// A revocation found `issued` (Apple asks for consent again).
    fn revoked(&self, cx: &Cx<'_>, kind: TokenKind, issued: &IssuedToken) {}

    /// The user document for a token that passed the gate; `query` is the request's.
    fn userinfo(&self, cx: &Cx<'_>, issued: &IssuedToken, query: Option<&str>) -> Document {
        let document = cx
            .dialect
            .userinfo
            .as_ref()
            .and_then(|r| r.document.as_ref());
        if let Some(template) = document {
            return Ok(template.render(&Fill::user(&issued.user)));
        }
        let claims = crate::claims::profile_claims(&issued.user, &issued.scopes);
        Ok(crate::claims::about(&issued.user.id, claims))
    }

    /// The `iss` of its id_tokens.
    fn issuer(&self, cx: &Cx<'_>) -> String {
        let path = &cx.dialect.id_token.issuer_path;
        format!("{}/{}{path}", cx.sim.base_url, cx.provider.prefix())
    }

    /// The issuer its discovery document announces (per tenant, or an incident's).
    fn announced_issuer(&self, cx: &Cx<'_>) -> String {
        self.issuer(cx)
    }

    /// Adjusts the published key set (Microsoft lists no `alg`).
    fn key_set(&self, cx: &Cx<'_>, jwks: &mut Value) {}

    /// The claims of an id_token about `subject`, `at_hash` aside.
    fn id_token_claims(&self, cx: &Cx<'_>, subject: &Subject<'_>, now: i64) -> Value {
        crate::claims::standard_claims(cx.dialect, &self.issuer(cx), subject, now)
    }

    /// Routes of its own, for what the engine does not serve (GitHub's emails, Graph).
    fn routes(&self, paths: &EndpointSet) -> Router<Arc<SimState>> {
        Router::new()
    }
}
