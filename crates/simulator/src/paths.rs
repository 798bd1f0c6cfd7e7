//! Where each simulated provider serves its endpoints, under its own `/<prefix>`, and the
//! URLs a client puts in its endpoint overrides.

use crate::config::Provider;
use crate::hooks::PathParams;

/// What a path capture stands for in the URLs handed out, unless the caller names it.
const DEFAULT_CAPTURES: [(&str, &str); 2] = [("tenant", "common"), ("version", "v24.0")];

/// The endpoint URLs of one simulated provider, to put in a provider's endpoint overrides;
/// inside the simulator also the paths it serves them at (after its prefix, captures in
/// braces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointSet {
    pub authorization: String,
    pub token: String,
    pub userinfo: Option<String>,
    pub emails: Option<String>,
    pub jwks: Option<String>,
    pub revocation: Option<String>,
    pub discovery: Option<String>,
    /// The `iss` of its id_tokens, for providers that sign them.
    pub issuer: Option<String>,
}

impl EndpointSet {
    /// These paths as full URLs under `base` and `provider`'s prefix, captures filled from
    /// `fill` (else the defaults: tenant `common`, Graph `v24.0`); GitHub's `{client_id}`
    /// stays.
    pub(crate) fn under(&self, base: &str, provider: Provider, fill: &PathParams) -> Self {
        let url = |path: &str| {
            let mut url = format!("{base}/{}{path}", provider.prefix());
            for (name, default) in DEFAULT_CAPTURES {
                let value = fill.get(name).map_or(default, String::as_str);
                url = url.replace(&format!("{{{name}}}"), value);
            }
            url
        };
        let optional = |path: &Option<String>| path.as_deref().map(url);
        EndpointSet {
            authorization: url(&self.authorization),
            token: url(&self.token),
            userinfo: optional(&self.userinfo),
            emails: optional(&self.emails),
            jwks: optional(&self.jwks),
            revocation: optional(&self.revocation),
            discovery: optional(&self.discovery),
            issuer: self.issuer.clone(),
        }
    }
}

/// The paths `provider` serves.
pub(crate) fn of(provider: Provider) -> EndpointSet {
    let (authorization, token, rest) = match provider {
        Provider::Google => (
            "/o/oauth2/v2/auth",
            "/token",
            [
                Some("/v1/userinfo"),
                None,
                Some("/oauth2/v3/certs"),
                Some("/revoke"),
                Some("/.well-known/openid-configuration"),
            ],
        ),
        Provider::Github => (
            "/login/oauth/authorize",
            "/login/oauth/access_token",
            [
                Some("/api/user"),
                Some("/api/user/emails"),
                None,
                Some("/api/applications/{client_id}/grant"),
                None,
            ],
        ),
        Provider::Facebook => (
            "/{version}/dialog/oauth",
            "/graph/{version}/oauth/access_token",
            [
                Some("/graph/{version}/me"),
                None,
                None,
                Some("/graph/{version}/me/permissions"),
                None,
            ],
        ),
        Provider::Microsoft => (
            "/{tenant}/oauth2/v2.0/authorize",
            "/{tenant}/oauth2/v2.0/token",
            [
                None,
                None,
                Some("/{tenant}/discovery/v2.0/keys"),
                None,
                Some("/{tenant}/v2.0/.well-known/openid-configuration"),
            ],
        ),
        Provider::Linkedin => (
            "/oauth/v2/authorization",
            "/oauth/v2/accessToken",
            [
                Some("/v2/userinfo"),
                None,
                Some("/oauth/openid/jwks"),
                Some("/oauth/v2/revoke"),
                Some("/oauth/.well-known/openid-configuration"),
            ],
        ),
        Provider::Discord => (
            "/oauth2/authorize",
            "/api/oauth2/token",
            [
                Some("/api/users/@me"),
                None,
                None,
                Some("/api/oauth2/token/revoke"),
                None,
            ],
        ),
        Provider::Twitter => (
            "/i/oauth2/authorize",
            "/2/oauth2/token",
            [
                Some("/2/users/me"),
                None,
                None,
                Some("/2/oauth2/revoke"),
                None,
            ],
        ),
        Provider::Apple => (
            "/auth/authorize",
            "/auth/token",
            [
                None,
                None,
                Some("/auth/keys"),
                Some("/auth/revoke"),
                Some("/.well-known/openid-configuration"),
            ],
        ),
        Provider::StandardOidc => (
            "/authorize",
            "/token",
            [
                Some("/userinfo"),
                None,
                Some("/jwks"),
                Some("/revoke"),
                Some("/.well-known/openid-configuration"),
            ],
        ),
        Provider::StandardOauth2 => (
            "/authorize",
            "/token",
            [Some("/userinfo"), None, None, Some("/revoke"), None],
        ),
    };
    let [userinfo, emails, jwks, revocation, discovery] = rest.map(|path| path.map(str::to_owned));
    EndpointSet {
        authorization: authorization.to_owned(),
        token: token.to_owned(),
        userinfo,
        emails,
        jwks,
        revocation,
        discovery,
        issuer: None,
    }
}
