//! Where each simulated provider serves its endpoints, under its own `/<prefix>`, and the
//! URLs a client puts in its endpoint overrides.

use serde::Deserialize;
use std::collections::HashMap;

/// The captures of a request's path (`{tenant}`, `{version}`).
pub type PathParams = HashMap<String, String>;

/// What a path capture stands for in the URLs handed out, unless the caller names it.
const DEFAULT_CAPTURES: [(&str, &str); 2] = [("tenant", "common"), ("version", "v24.0")];

/// The endpoint URLs of one simulated provider, to put in a provider's endpoint overrides;
/// inside the simulator (its dialect's `paths`) the paths it serves them at, after its
/// prefix, captures in braces: `{tenant}`, `{version}`, `{access_token}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndpointSet {
    pub authorization: String,
    pub token: String,
    pub userinfo: Option<String>,
    pub emails: Option<String>,
    pub jwks: Option<String>,
    pub revocation: Option<String>,
    pub discovery: Option<String>,
    /// A refresh endpoint apart from the token endpoint (WeChat's), served by its hooks.
    pub refresh: Option<String>,
    /// The `iss` of its id_tokens, for providers that sign them (never a dialect's).
    #[serde(skip)]
    pub issuer: Option<String>,
}

impl EndpointSet {
    /// These paths as full URLs under `base` and `provider`'s prefix, captures filled from
    /// `fill` (else the defaults: tenant `common`, Graph `v24.0`); GitHub's `{client_id}`
    /// and HubSpot's `{access_token}` stay, for the client to fill.
    pub(crate) fn under(&self, base: &str, prefix: &str, fill: &PathParams) -> Self {
        let url = |path: &str| {
            let mut url = format!("{base}/{prefix}{path}");
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
            refresh: optional(&self.refresh),
            issuer: self.issuer.clone(),
        }
    }
}
