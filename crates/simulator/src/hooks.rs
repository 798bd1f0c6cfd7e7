//! What a simulated provider does that its dialect cannot say. Each provider implements the
//! hooks it needs (every one has a default); the engine calls them at fixed points of the
//! common flow.

use crate::authorize::{AuthorizeQuery, Back};
use crate::codes::Grant;
use crate::config::{Provider, RegisteredClient};
use crate::dialect::Dialect;
use crate::faults::Endpoint;
use crate::flow::{Refusal, TokenParams};
use crate::id_token::Subject;
use crate::log::RequestRecord;
use crate::paths::ServedPaths;
use crate::revocation::TokenKind;
use crate::state::SimState;
use crate::tokens::IssuedToken;
use crate::users::SimUser;
use axum::Router;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// The captures of a request's path (`{tenant}`, `{version}`).
pub type PathParams = HashMap<String, String>;

/// One request at one provider: the state, whom it is for, the path's captures.
#[derive(Clone, Copy)]
pub struct Cx<'a> {
    pub sim: &'a SimState,
    pub provider: Provider,
    pub dialect: &'static Dialect,
    pub params: &'a PathParams,
}

impl<'a> Cx<'a> {
    pub fn new(sim: &'a SimState, provider: Provider, params: &'a PathParams) -> Self {
        Self {
            sim,
            provider,
            dialect: crate::dialect::of(provider),
            params,
        }
    }

    pub fn hooks(&self) -> &'static dyn SimHooks {
        of(self.provider)
    }
}

#[allow(unused_variables)] // The defaults ignore what the providers' own versions read.
pub trait SimHooks: Send + Sync {
    /// Notes what the path says before anything else, faults included (Facebook's version).
    fn note_path(&self, params: &PathParams, record: &mut RequestRecord) {}

    /// Refuses a path the provider would not serve (an unknown tenant or Graph version).
    fn check_path(&self, cx: &Cx<'_>, endpoint: Endpoint) -> Result<(), Refusal> {
        Ok(())
    }

    /// Once client and callback are trusted, before the common checks: how the answer
    /// travels back, and what only this provider checks first (Apple's response modes).
    fn answer_mode(
        &self,
        cx: &Cx<'_>,
        q: &AuthorizeQuery,
        back: &mut Back<'_>,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// After the common authorize checks, before the user is asked (LinkedIn's PKCE).
    fn authorize_checks(
        &self,
        cx: &Cx<'_>,
        q: &AuthorizeQuery,
        back: &Back<'_>,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// Whether the chosen user may sign in here (Microsoft's tenant paths).
    fn admit(&self, cx: &Cx<'_>, user: &SimUser) -> Result<(), Refusal> {
        Ok(())
    }

    /// More fields of an approval, after the code (Apple's `id_token` and first-login `user`).
    fn approval(
        &self,
        cx: &Cx<'_>,
        q: &AuthorizeQuery,
        subject: &Subject<'_>,
    ) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// Verifies a `signed_secret_post` client secret, noting what the log may keep.
    fn signed_secret_ok(
        &self,
        cx: &Cx<'_>,
        client: &RegisteredClient,
        secret: &str,
        record: &mut RequestRecord,
    ) -> bool {
        false
    }

    /// Token checks once the client is known, before the code (LinkedIn refusing verifiers).
    fn token_checks(&self, cx: &Cx<'_>, params: &TokenParams) -> Result<(), Refusal> {
        Ok(())
    }

    /// Checks of the redeemed grant after its redirect URI (tenants; LinkedIn's PKCE).
    fn grant_checks(
        &self,
        cx: &Cx<'_>,
        params: &TokenParams,
        grant: &Grant,
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// A revocation found `issued` (Apple asks for consent again).
    fn revoked(&self, cx: &Cx<'_>, kind: TokenKind, issued: &IssuedToken) {}

    /// The user document for a token that passed the gate; `query` is the request's.
    fn userinfo(
        &self,
        cx: &Cx<'_>,
        issued: &IssuedToken,
        query: Option<&str>,
    ) -> Result<Value, Refusal> {
        let mut body = json!({ "sub": issued.user.id });
        if let Some(object) = body.as_object_mut() {
            object.extend(crate::id_token::profile_claims(
                &issued.user,
                &issued.scopes,
            ));
        }
        Ok(body)
    }

    /// The `iss` of its id_tokens.
    fn issuer(&self, sim: &SimState, provider: Provider) -> String {
        format!("{}/{}", sim.base_url, provider.prefix())
    }

    /// The issuer its discovery document announces (per tenant, or an incident's).
    fn announced_issuer(&self, cx: &Cx<'_>) -> String {
        self.issuer(cx.sim, cx.provider)
    }

    /// Adjusts the published key set (Microsoft lists no `alg`).
    fn key_set(&self, cx: &Cx<'_>, jwks: &mut Value) {}

    /// The claims of an id_token about `subject`, `at_hash` aside.
    fn id_token_claims(
        &self,
        sim: &SimState,
        provider: Provider,
        subject: &Subject<'_>,
        now: i64,
    ) -> Value {
        crate::id_token::standard_claims(&self.issuer(sim, provider), subject, now)
    }

    /// Routes of its own, for what the engine does not serve (GitHub's emails, Graph).
    fn routes(&self, paths: &ServedPaths) -> Router<Arc<SimState>> {
        Router::new()
    }
}

/// The hooks of `provider`.
pub fn of(provider: Provider) -> &'static dyn SimHooks {
    match provider {
        Provider::Google => &crate::google::Google,
        Provider::Github => &crate::github::Github,
        Provider::Facebook => &crate::facebook::Facebook,
        Provider::Microsoft => &crate::microsoft::Microsoft,
        Provider::Linkedin => &crate::linkedin::Linkedin,
        Provider::Discord => &crate::discord::Discord,
        Provider::Twitter => &crate::twitter::Twitter,
        Provider::Apple => &crate::apple::Apple,
        Provider::StandardOidc => &crate::standard::StandardOidc,
        Provider::StandardOauth2 => &crate::standard::StandardOauth2,
    }
}
