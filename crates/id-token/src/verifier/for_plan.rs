//! The verifier of a provider's plan, and the engine's id_token check on it.

use super::{IdTokenVerifier, IssuerPolicy, NoncePolicy};
use crate::jwks::KeySetCache;
use async_trait::async_trait;
use jsonwebtoken::Algorithm;
use serde_json::{Map, Value};
use social_login_domain::SecretText;
use social_login_ports::{Clock, ProviderError};
use social_login_provider_core::spec::NonceRule;
use social_login_provider_core::spec::knobs::IdTokenSigning;
use social_login_provider_core::{
    BuildContext, Endpoint, Engine, IdTokenCheck, Presented, ProviderConfigError, ProviderHttp,
    ProviderPlan, Quirks,
};
use std::sync::Arc;

impl IdTokenVerifier {
    /// The verifier an `oidc` plan describes: its key set (shared per URL in the process),
    /// its issuers (or the quirk's rule, for an issuer that depends on the token), its nonce
    /// rule and its other client ids. Fails naming the field a plan without them lacks.
    pub fn for_plan(
        plan: &ProviderPlan,
        quirks: Arc<dyn Quirks>,
        http: &ProviderHttp,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, ProviderConfigError> {
        let missing = |field| ProviderConfigError::Missing { field };
        let rules = plan.spec.id_token.as_ref().ok_or(missing("id_token"))?;
        let issuers = rules.issuers.clone();
        let issuer = IssuerPolicy::rule(move |iss, claims| {
            quirks
                .issuer(iss, &claims.raw)
                .unwrap_or_else(|| issuers.iter().any(|issuer| issuer == iss))
        });
        let nonce = match rules.nonce {
            NonceRule::Required => NoncePolicy::Required,
            NonceRule::IfPresent => NoncePolicy::CheckedIfPresent,
        };
        let client_id = plan.settings.client_id.clone();
        let verifier = match plan.spec.id_token_signing {
            IdTokenSigning::ClientSecret => {
                let secret = &plan.settings.client_secret;
                Self::signed_with_client_secret(secret, issuer, client_id, clock)
            }
            IdTokenSigning::KeySet => {
                let jwks = plan
                    .urls
                    .get(Endpoint::Jwks)
                    .ok_or(missing("endpoints.jwks"))?;
                let keys = KeySetCache::shared(jwks, http);
                Self::new(keys, issuer, client_id, clock)
                    .with_algorithms(&algorithms(&rules.algorithms)?)
            }
        };
        let verifier = verifier
            .with_nonce_policy(nonce)
            .with_other_client_ids(plan.settings.client_ids.iter().cloned());
        if verifier.algorithms().is_empty() {
            return Err(NO_ALGORITHM);
        }
        Ok(verifier)
    }
}

const NO_ALGORITHM: ProviderConfigError = ProviderConfigError::Invalid {
    field: "id_token.algorithms",
    reason: "none is an asymmetric signature algorithm the verifier implements",
};

/// The algorithms of `names` (JWA names, `RS256`); an unknown name fails the plan.
fn algorithms(names: &[String]) -> Result<Vec<Algorithm>, ProviderConfigError> {
    names
        .iter()
        .map(|name| name.parse().map_err(|_| NO_ALGORITHM))
        .collect()
}

/// The engine of an `oidc` plan: its quirks, and the id_token check the plan describes on
/// the shared client and clock.
pub fn oidc_engine(
    plan: ProviderPlan,
    quirks: Arc<dyn Quirks>,
    cx: &BuildContext,
) -> Result<Engine, ProviderConfigError> {
    let verifier = IdTokenVerifier::for_plan(&plan, quirks.clone(), &cx.http, cx.clock.clone())?;
    Engine::new(plan, quirks, Some(Arc::new(verifier)), cx.http.clone())
}

#[async_trait]
impl IdTokenCheck for IdTokenVerifier {
    async fn verify(
        &self,
        token: &SecretText,
        nonce: &SecretText,
    ) -> Result<Map<String, Value>, ProviderError> {
        IdTokenVerifier::verify(self, token, nonce)
            .await
            .map(|claims| claims.raw)
    }

    async fn verify_presented(
        &self,
        token: &SecretText,
        raw_nonce: Option<&SecretText>,
    ) -> Result<Presented, ProviderError> {
        let presented = IdTokenVerifier::verify_presented(self, token, raw_nonce).await?;
        Ok(Presented {
            claims: presented.claims.raw,
            issued_at: presented.issued_at,
            usable_until: presented.usable_until,
        })
    }
}
