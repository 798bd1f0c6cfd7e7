//! The one implementation of the identity provider port: the authorization code flow of a
//! [`ProviderPlan`], for both kinds (the `oidc` kind adds its id_token check), with the
//! provider's [`Quirks`] at the few places providers differ.

mod complete;
mod native;
mod native_code;
mod relay;
mod revoke;

use crate::api_call::ApiShape;
use crate::authorize_url::AuthorizeUrl;
use crate::code_flow::CodeFlow;
use crate::config_error::ProviderConfigError;
use crate::emails::EmailsCall;
use crate::http_client::ProviderHttp;
use crate::id_token_check::IdTokenCheck;
use crate::plan::{Endpoint, ProviderPlan};
use crate::quirks::{FinishContext, Quirks, identify};
use crate::revocation::RevocationEndpoint;
use async_trait::async_trait;
use serde_json::{Map, Value};
use social_login_domain::{ProviderIdentity, ProviderKey, ProviderTokens, SecretText};
use social_login_ports::{
    ApiAnswer, ApiCall, AuthorizationRequest, CallbackInput, Clock, IdTokenInput, IdentityProvider,
    NativeCode, NativeExchange, PostBody, PresentedIdToken, ProviderError, ProviderGrant,
    ProviderInfo, ProviderLogin, RefreshFailure, Revoked, SystemClock,
};
use social_login_provider_spec::ProviderKind;
use std::sync::Arc;

/// What every provider is built with: the one pooled HTTP client, and the clock (id_token
/// times, minted secrets).
#[derive(Clone)]
pub struct BuildContext {
    pub http: ProviderHttp,
    pub clock: Arc<dyn Clock>,
}

/// One configured provider. `Debug` shows no secret.
#[derive(Debug, Clone)]
pub struct Engine {
    plan: ProviderPlan,
    flow: CodeFlow,
    /// The authorization URL's constant part, encoded once.
    authorize_url: AuthorizeUrl,
    quirks: Arc<dyn Quirks>,
    id_token: Option<Arc<dyn IdTokenCheck>>,
    revocation: Option<RevocationEndpoint>,
}

impl BuildContext {
    /// The shared client and the system clock.
    pub fn new(http: ProviderHttp) -> Self {
        Self {
            http,
            clock: Arc::new(SystemClock),
        }
    }
}

impl Engine {
    /// The provider of `plan` on the shared `http` client. An `oidc` plan needs its
    /// `id_token` check, an `oauth2` one has none.
    pub fn new(
        plan: ProviderPlan,
        quirks: Arc<dyn Quirks>,
        id_token: Option<Arc<dyn IdTokenCheck>>,
        http: ProviderHttp,
    ) -> Result<Self, ProviderConfigError> {
        if (plan.spec.kind == ProviderKind::Oidc) != id_token.is_some() {
            return Err(ProviderConfigError::Invalid {
                field: "kind",
                reason: "exactly the oidc kind checks id_tokens",
            });
        }
        let http = match &plan.user_agent {
            Some(agent) => http.with_user_agent(agent.clone()),
            None => http,
        }
        .for_provider(plan.key());
        let revocation = plan.urls.get(Endpoint::Revocation).map(|url| {
            RevocationEndpoint::resolved(
                url.clone(),
                &plan.settings.client_id,
                &plan.settings.client_secret,
                &http,
            )
        });
        Ok(Self {
            flow: CodeFlow::from_plan(&plan, http).with_quirks(quirks.clone()),
            authorize_url: AuthorizeUrl::from_plan(&plan),
            plan,
            quirks,
            id_token,
            revocation,
        })
    }

    pub fn plan(&self) -> &ProviderPlan {
        &self.plan
    }

    /// Who signed in: the claims of `documents` (the id_token's, then the userinfo
    /// answer) and of the token answer's `members`, the emails list's address, completed
    /// by the quirk.
    async fn identity(
        &self,
        documents: &[&Map<String, Value>],
        access_token: Option<&SecretText>,
        post_body: Option<&PostBody>,
        token_members: Option<&Map<String, Value>>,
    ) -> Result<ProviderIdentity, ProviderError> {
        let label = self.plan.label("emails endpoint");
        let spec = &self.plan.spec;
        let emails = match (&spec.emails, self.plan.urls.get(Endpoint::Emails)) {
            (Some(list), Some(url)) => Some(EmailsCall {
                url,
                list,
                shape: self.api_shape(),
                label: &label,
            }),
            _ => None,
        };
        let cx = FinishContext {
            access_token,
            post_body,
            scopes: &spec.scopes,
            token_members,
            emails,
            ..FinishContext::of(documents, self.flow.http())
        };
        identify(&spec.claims, self.key(), &*self.quirks, cx).await
    }

    /// How the declaration says its API is called.
    fn api_shape(&self) -> ApiShape<'_> {
        ApiShape {
            call: &self.plan.spec.userinfo,
            headers: &self.plan.userinfo_headers,
        }
    }
}

#[async_trait]
impl IdentityProvider for Engine {
    fn key(&self) -> ProviderKey {
        self.plan.key()
    }

    /// As the declaration says: its name, its kind, whether apps may present its id_tokens.
    fn info(&self) -> ProviderInfo {
        let spec = &self.plan.spec;
        ProviderInfo {
            key: spec.key,
            display_name: spec.display_name.clone(),
            kind: spec.kind,
            id_token: spec.native_sign_in(),
        }
    }

    /// The prebuilt URL with the request's state, challenge and (`oidc`) nonce.
    fn authorization_url(&self, request: &AuthorizationRequest) -> Result<String, ProviderError> {
        let url = self.authorize_url.for_request(request);
        Ok(self.quirks.authorization_url(url))
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        self.sign_in(callback).await
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        self.revoke_grant(grant).await
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn refresh(&self, grant: ProviderGrant) -> Result<ProviderTokens, RefreshFailure> {
        self.refresh_grant(grant).await
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn call_api(&self, call: ApiCall) -> Result<ApiAnswer, ProviderError> {
        self.relay_call(call).await
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn honours(&self, token: SecretText) -> Result<bool, ProviderError> {
        self.token_honoured(&token).await
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        self.sign_in_natively(input).await
    }

    #[tracing::instrument(skip_all, fields(provider = %self.plan.key()))]
    async fn exchange_native_code(
        &self,
        code: NativeCode,
    ) -> Result<NativeExchange, ProviderError> {
        self.exchange_code_of_app(code).await
    }
}

#[cfg(test)]
mod tests;
