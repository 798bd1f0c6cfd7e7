//! What the engine runs on: a provider's declaration with the operator's settings applied
//! (endpoint overrides, scopes, PKCE, client ids) and every URL parsed, once, at start-up.

use crate::config_error::{ProviderConfigError, parse_http_url, require_non_empty};
use crate::revocation::revocation_url;
use crate::settings::ProviderSettings;
use social_login_domain::{ProviderKey, SecretText};
use social_login_provider_spec::{
    AlreadyGone, Claims, NonceRule, ProviderKind, ProviderSpec, RevocationAuth, RevokedToken,
    TokenAuth,
};
use url::Url;

/// One provider as configured. `Debug` shows no secret (`SecretText` prints `[redacted]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPlan {
    pub key: ProviderKey,
    pub display_name: String,
    pub kind: ProviderKind,
    pub client_id: String,
    /// Empty for a provider whose secret is signed per request (`signed_secret_post`).
    pub client_secret: SecretText,
    pub redirect_uri: Url,
    pub endpoints: PlanEndpoints,
    pub scopes: Vec<String>,
    pub email_scope: Option<String>,
    /// A PKCE S256 challenge goes with every authorization.
    pub pkce: bool,
    /// The provider refuses an authorization without one: `pkce` is always true.
    pub pkce_required: bool,
    pub token_auth: TokenAuth,
    pub authorize_params: Vec<(String, String)>,
    pub claims: Claims,
    pub id_token: Option<IdTokenPlan>,
    pub revocation: Option<RevocationPlan>,
}

/// The endpoints the flow calls, overrides applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanEndpoints {
    pub authorization: Url,
    pub token: Url,
    pub userinfo: Option<Url>,
    pub emails: Option<Url>,
    pub jwks: Option<Url>,
}

/// How the id_tokens of an `oidc` provider are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdTokenPlan {
    /// `endpoints.issuer` when configured, else the declaration's.
    pub issuers: Vec<String>,
    pub nonce: NonceRule,
    pub native_sign_in: bool,
    /// Audiences accepted besides `client_id` for tokens an app presents.
    pub other_client_ids: Vec<String>,
}

/// How a grant is revoked, its URL resolved (`{client_id}` filled in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevocationPlan {
    pub url: Url,
    pub client_auth: RevocationAuth,
    pub sends: RevokedToken,
    pub hint: bool,
    pub already_gone: Vec<AlreadyGone>,
}

impl ProviderPlan {
    /// Applies `settings` to `spec`; fails naming the first invalid field. Endpoint
    /// overrides apply where the declaration has the endpoint (the others are refused by
    /// `check-config` and ignored here).
    pub fn resolve(
        spec: &ProviderSpec,
        settings: &ProviderSettings,
    ) -> Result<Self, ProviderConfigError> {
        require_non_empty("client_id", &settings.client_id)?;
        let overrides = &settings.endpoints;
        let declared = &spec.endpoints;
        let endpoint = |field, configured: &Option<String>, default: &str| {
            parse_http_url(field, configured.as_deref().unwrap_or(default))
        };
        let optional = |field, configured: &Option<String>, default: &Option<String>| {
            default
                .as_deref()
                .map(|default| endpoint(field, configured, default))
                .transpose()
        };
        let endpoints = PlanEndpoints {
            authorization: endpoint(
                "endpoints.authorization",
                &overrides.authorization,
                &declared.authorization,
            )?,
            token: endpoint("endpoints.token", &overrides.token, &declared.token)?,
            userinfo: optional(
                "endpoints.userinfo",
                &overrides.userinfo,
                &declared.userinfo,
            )?,
            emails: optional("endpoints.emails", &overrides.emails, &declared.emails)?,
            jwks: optional("endpoints.jwks", &overrides.jwks, &declared.jwks)?,
        };
        let id_token = match &spec.id_token {
            Some(rules) => Some(IdTokenPlan {
                issuers: match overrides.issuer.as_deref() {
                    Some(issuer) => {
                        require_non_empty("endpoints.issuer", issuer)?;
                        vec![issuer.trim().to_owned()]
                    }
                    None => rules.issuers.clone(),
                },
                nonce: rules.nonce,
                native_sign_in: rules.native_sign_in,
                other_client_ids: settings.client_ids.clone(),
            }),
            None => None,
        };
        let revocation = match &spec.revocation {
            Some(rules) => Some(RevocationPlan {
                url: revocation_url(
                    overrides.revocation.as_deref(),
                    &rules.url,
                    &settings.client_id,
                )?,
                client_auth: rules.client_auth,
                sends: rules.sends,
                hint: rules.hint,
                already_gone: rules.already_gone.clone(),
            }),
            None => None,
        };
        if spec.pkce_required && !settings.pkce {
            tracing::warn!(
                provider = %spec.key,
                "pkce = false ignored: {} requires PKCE on every authorization",
                spec.display_name
            );
        }
        let signed = spec.token_auth == TokenAuth::SignedSecretPost;
        Ok(Self {
            key: spec.key,
            display_name: spec.display_name.clone(),
            kind: spec.kind,
            client_id: settings.client_id.clone(),
            client_secret: match signed {
                // Never sent: the quirk signs one for each request.
                true => SecretText::new(""),
                false => settings.client_secret.clone(),
            },
            redirect_uri: parse_http_url("redirect_uri", &settings.redirect_uri)?,
            endpoints,
            scopes: settings
                .scopes
                .clone()
                .unwrap_or_else(|| spec.scopes.clone()),
            email_scope: spec.email_scope.clone(),
            pkce: settings.pkce || spec.pkce_required,
            pkce_required: spec.pkce_required,
            token_auth: spec.token_auth,
            authorize_params: spec.authorize_params.clone().into_iter().collect(),
            claims: spec.claims.clone(),
            id_token,
            revocation,
        })
    }

    /// "`{display_name}` `{what}`", how failure messages name a step ("GitHub userinfo
    /// endpoint").
    pub fn label(&self, what: &str) -> String {
        format!("{} {what}", self.display_name)
    }
}

#[cfg(test)]
mod tests;
