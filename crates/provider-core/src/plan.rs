//! What the engine runs on: a provider's declaration with the operator's settings applied
//! (endpoint overrides, scopes, issuer, PKCE, client ids) and every URL parsed, once, at
//! start-up.

use crate::config_error::{ProviderConfigError, parse_http_url, require_non_empty};
use crate::revocation::revocation_url;
use crate::settings::{EndpointOverrides, ProviderSettings, SigningKey};
use social_login_domain::{ProviderKey, SecretText};
use social_login_provider_spec::{ProviderSpec, TokenAuth};
use url::Url;

/// One provider as configured. `Debug` shows no secret (`SecretText` prints `[redacted]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPlan {
    /// The declaration as configured: its endpoints, scopes, issuers and revocation URL are
    /// the operator's where the settings override them.
    pub spec: ProviderSpec,
    pub client: Registration,
    /// The endpoints of `spec`, parsed.
    pub urls: Urls,
    /// A PKCE S256 challenge goes with every authorization (always, where the provider
    /// requires one).
    pub pkce: bool,
}

/// The client registration at the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    pub id: String,
    /// Empty for a provider whose secret is signed per request (`signed_secret_post`).
    pub secret: SecretText,
    pub redirect_uri: Url,
    /// Audiences accepted besides `id` for id_tokens an app presents (iOS, Android).
    pub other_ids: Vec<String>,
    /// The team key a provider that signs its own client secrets signs with (Apple).
    pub signing: Option<SigningKey>,
}

/// The endpoints the engine calls, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Urls {
    pub authorization: Url,
    pub token: Url,
    /// The endpoints a provider may have, where the declaration has them.
    others: Vec<(Endpoint, Url)>,
}

/// An endpoint some providers have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Userinfo,
    /// GitHub's list of the account's emails.
    Emails,
    /// The key set of the id_tokens.
    Jwks,
    /// Where grants are revoked, `{client_id}` filled in.
    Revocation,
}

impl Urls {
    pub fn get(&self, endpoint: Endpoint) -> Option<&Url> {
        self.others
            .iter()
            .find_map(|(which, url)| (*which == endpoint).then_some(url))
    }
}

impl ProviderPlan {
    /// Applies `settings` to `spec`; fails naming the first invalid field. An endpoint
    /// override applies where the declaration has that endpoint (`check-config` refuses the
    /// others).
    pub fn resolve(
        spec: &ProviderSpec,
        settings: &ProviderSettings,
    ) -> Result<Self, ProviderConfigError> {
        require_non_empty("client_id", &settings.client_id)?;
        let spec = configured(spec.clone(), settings)?;
        if spec.pkce_required && !settings.pkce {
            tracing::warn!(
                provider = %spec.key,
                "pkce = false ignored: {} requires PKCE on every authorization",
                spec.display_name
            );
        }
        let declared = &spec.endpoints;
        let mut others = Vec::new();
        for (endpoint, field, url) in [
            (Endpoint::Userinfo, "endpoints.userinfo", &declared.userinfo),
            (Endpoint::Emails, "endpoints.emails", &declared.emails),
            (Endpoint::Jwks, "endpoints.jwks", &declared.jwks),
        ] {
            if let Some(url) = url {
                others.push((endpoint, parse_http_url(field, url)?));
            }
        }
        if let Some(rules) = &spec.revocation {
            let url = revocation_url(None, &rules.url, &settings.client_id)?;
            others.push((Endpoint::Revocation, url));
        }
        let urls = Urls {
            authorization: parse_http_url("endpoints.authorization", &declared.authorization)?,
            token: parse_http_url("endpoints.token", &declared.token)?,
            others,
        };
        let client = Registration {
            id: settings.client_id.clone(),
            secret: match spec.token_auth {
                // Never sent: the quirk signs one for each request.
                TokenAuth::SignedSecretPost => SecretText::new(""),
                _ => settings.client_secret.clone(),
            },
            redirect_uri: parse_http_url("redirect_uri", &settings.redirect_uri)?,
            other_ids: settings.client_ids.clone(),
            signing: settings.signing.clone(),
        };
        Ok(Self {
            pkce: settings.pkce || spec.pkce_required,
            spec,
            client,
            urls,
        })
    }

    pub fn key(&self) -> ProviderKey {
        self.spec.key
    }

    /// "`{display_name}` `{what}`", how failure messages name a step ("GitHub userinfo
    /// endpoint").
    pub fn label(&self, what: &str) -> String {
        format!("{} {what}", self.spec.display_name)
    }
}

/// `spec` with the settings' scopes and endpoint overrides in place.
fn configured(
    mut spec: ProviderSpec,
    settings: &ProviderSettings,
) -> Result<ProviderSpec, ProviderConfigError> {
    let EndpointOverrides {
        authorization,
        token,
        userinfo,
        emails,
        jwks,
        issuer,
        revocation,
    } = &settings.endpoints;
    let endpoints = &mut spec.endpoints;
    override_with(&mut endpoints.authorization, authorization);
    override_with(&mut endpoints.token, token);
    for (declared, configured) in [
        (&mut endpoints.userinfo, userinfo),
        (&mut endpoints.emails, emails),
        (&mut endpoints.jwks, jwks),
    ] {
        if let Some(declared) = declared {
            override_with(declared, configured);
        }
    }
    if let (Some(rules), Some(issuer)) = (&mut spec.id_token, issuer) {
        require_non_empty("endpoints.issuer", issuer)?;
        rules.issuers = vec![issuer.trim().to_owned()];
    }
    if let Some(rules) = &mut spec.revocation {
        override_with(&mut rules.url, revocation);
    }
    if let Some(scopes) = &settings.scopes {
        spec.scopes = scopes.clone();
    }
    Ok(spec)
}

fn override_with(declared: &mut String, configured: &Option<String>) {
    if let Some(configured) = configured {
        declared.clone_from(configured);
    }
}

#[cfg(test)]
mod tests;
