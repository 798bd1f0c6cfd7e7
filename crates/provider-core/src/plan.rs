//! What the engine runs on: a provider's declaration with the operator's settings applied
//! (endpoint overrides, scopes, issuer, PKCE, client ids) and every URL parsed, once, at
//! start-up.

use crate::config_error::{ProviderConfigError, parse_http_url, require_non_empty};
use crate::revocation::{CLIENT_ID_PLACEHOLDER, revocation_url};
use crate::settings::{EndpointOverrides, ProviderSettings};
use crate::token_http::{TokenShape, header_pairs, header_value};
use http::header::{HeaderName, HeaderValue};
use social_login_domain::{ProviderKey, SecretText};
use social_login_provider_spec::{ProviderSpec, TokenAuth};
use url::Url;

/// One provider as configured. `Debug` shows no secret (`SecretText` prints `[redacted]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPlan {
    /// The declaration as configured: its endpoints, scopes, issuers and revocation URL are
    /// the operator's where the settings override them.
    pub spec: ProviderSpec,
    /// The settings as given, but for a client secret never sent: empty where the provider
    /// signs one per request (`signed_secret_post`).
    pub settings: ProviderSettings,
    /// The endpoints of `spec` and the redirect URI, parsed.
    pub urls: Urls,
    /// A PKCE S256 challenge goes with every authorization (always, where the provider
    /// requires one; never where it refuses them).
    pub pkce: bool,
    /// How its token requests are shaped.
    pub token_shape: TokenShape,
    /// `[userinfo] headers`, parsed: every API call carries them.
    pub userinfo_headers: Vec<(HeaderName, HeaderValue)>,
    /// `user_agent`, parsed: every call to the provider carries it instead of the service's.
    pub user_agent: Option<HeaderValue>,
}

/// The endpoints the engine calls, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Urls {
    pub authorization: Url,
    pub token: Url,
    pub redirect: Url,
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
    /// Where a refresh goes, where it is not the token endpoint.
    Refresh,
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
        let mut spec = configured(spec.clone(), settings)?;
        // `{client_id}` in a header (Twitch's `Client-Id`) is filled in once, here.
        for value in spec.userinfo.headers.values_mut() {
            *value = value.replace(CLIENT_ID_PLACEHOLDER, &settings.client_id);
        }
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
            (Endpoint::Refresh, "endpoints.refresh", &declared.refresh),
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
            redirect: parse_http_url("redirect_uri", &settings.redirect_uri)?,
            others,
        };
        let mut settings = settings.clone();
        if spec.token_auth == TokenAuth::SignedSecretPost {
            // Never sent: the quirk signs one for each request.
            settings.client_secret = SecretText::new("");
        }
        // Parsed once here, so a request never fails on a header it cannot carry.
        let userinfo_headers = header_pairs("userinfo.headers", &spec.userinfo.headers)?;
        let user_agent = (spec.user_agent.as_deref())
            .map(|agent| header_value("user_agent", agent))
            .transpose()?;
        Ok(Self {
            userinfo_headers,
            user_agent,
            pkce: (settings.pkce && spec.pkce) || spec.pkce_required,
            token_shape: TokenShape::of(&spec)?,
            spec,
            settings,
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
        refresh,
        issuer,
        revocation,
        // The signals' own endpoints: no adapter calls them.
        risc_jwks: _,
        risc_issuer: _,
    } = &settings.endpoints;
    let endpoints = &mut spec.endpoints;
    override_with(&mut endpoints.authorization, authorization);
    override_with(&mut endpoints.token, token);
    for (declared, configured) in [
        (&mut endpoints.userinfo, userinfo),
        (&mut endpoints.emails, emails),
        (&mut endpoints.jwks, jwks),
        (&mut endpoints.refresh, refresh),
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
