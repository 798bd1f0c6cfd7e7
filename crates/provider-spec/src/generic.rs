//! A provider from configuration (docs/providers.md, "Providers from configuration"): what
//! its `[oauth_providers.<key>]` table says it is, made into a declaration like the
//! built-in ones. The `oauth2` kind's table says where it is; the `oidc` kind's says where
//! discovery starts, and what its discovery document publishes fills in the rest (each
//! endpoint the table sets wins).

use crate::knobs::{Knobs, TokenRequest, Userinfo};
use crate::spec::{
    Claims, EmailTrust, Endpoints, IdTokenRules, NonceRule, ProviderSpec, RevocationAuth,
    RevocationRules, RevokedToken, TokenAuth,
};
use social_login_domain::{ProviderKey, ProviderKind};
use std::collections::BTreeMap;

/// What an operator's table declares about a provider from configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenericProvider {
    pub key: ProviderKey,
    pub display_name: String,
    pub kind: ProviderKind,
    /// `oidc`: where discovery starts.
    pub issuer: Option<String>,
    pub scopes: Vec<String>,
    /// `None`: what the provider publishes first, else HTTP Basic.
    pub token_auth: Option<TokenAuth>,
    pub claims: Claims,
    /// The table's endpoints (an empty authorization or token URL is one it leaves out).
    pub endpoints: Endpoints,
    pub revocation: Option<String>,
    /// How it bends OAuth, as its table says.
    pub knobs: Knobs,
}

/// What an OpenID provider publishes about itself (its discovery document, checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The `iss` its id_tokens carry.
    pub issuer: String,
    pub endpoints: Endpoints,
    pub revocation: Option<String>,
    /// The first of Basic and body client authentication it lists, else Basic.
    pub token_auth: TokenAuth,
    /// The id_token signature algorithms it lists that the verifier implements.
    pub algorithms: Vec<String>,
}

impl GenericProvider {
    /// The declaration of this provider: its table's endpoints over what it `published`
    /// (`None` for the `oauth2` kind, which publishes nothing). Its id_tokens (`oidc`) carry
    /// the published issuer, with or without one trailing `/`, and the flow's nonce; apps may
    /// present them. A revocation endpoint takes RFC 7009's form: the refresh token first,
    /// with its hint, the client authenticated as at the token endpoint.
    pub fn declaration(&self, published: Option<&Published>) -> ProviderSpec {
        let table = &self.endpoints;
        let found = published.map(|p| &p.endpoints);
        let either = |own: &String, found: Option<&String>| match (own.is_empty(), found) {
            (true, Some(found)) => found.clone(),
            _ => own.clone(),
        };
        let endpoints = Endpoints {
            authorization: either(&table.authorization, found.map(|f| &f.authorization)),
            token: either(&table.token, found.map(|f| &f.token)),
            userinfo: table
                .userinfo
                .clone()
                .or(found.and_then(|f| f.userinfo.clone())),
            emails: table.emails.clone(),
            jwks: table.jwks.clone().or(found.and_then(|f| f.jwks.clone())),
            refresh: table.refresh.clone(),
        };
        let revocation = self
            .revocation
            .clone()
            .or(published.and_then(|p| p.revocation.clone()));
        let id_token = (self.kind == ProviderKind::Oidc).then(|| IdTokenRules {
            issuers: published.map_or_else(Vec::new, |p| either_slash(&p.issuer)),
            nonce: NonceRule::Required,
            native_sign_in: true,
            algorithms: published.map_or_else(Vec::new, |p| p.algorithms.clone()),
        });
        let mut spec = ProviderSpec {
            key: self.key,
            display_name: self.display_name.clone(),
            kind: self.kind,
            endpoints,
            scopes: self.scopes.clone(),
            email_scope: self.scopes.iter().find(|s| *s == "email").cloned(),
            pkce_required: false,
            pkce: true,
            token_auth: self
                .token_auth
                .or(published.map(|p| p.token_auth))
                .unwrap_or(TokenAuth::ClientSecretBasic),
            authorization_params: BTreeMap::new(),
            client_id_param: "client_id".into(),
            client_secret_param: "client_secret".into(),
            scope_separator: " ".into(),
            user_agent: None,
            token_request: TokenRequest::default(),
            userinfo: Userinfo::default(),
            emails: None,
            claims: self.claims.clone(),
            id_token,
            id_token_signing: Default::default(),
            revocation: revocation.map(|url| RevocationRules {
                url,
                client_auth: RevocationAuth::LikeToken,
                sends: RevokedToken::RefreshFirst,
                hint: true,
                already_gone: Vec::new(),
            }),
            relay_base_urls: Vec::new(),
            quirks: None,
            issuer: self.issuer.clone(),
            needs: Vec::new(),
            email_trust: EmailTrust::Everywhere,
            email_note: String::new(),
        };
        self.knobs.apply(&mut spec);
        spec
    }
}

/// `issuer` as published, then with one trailing `/` added or taken away: providers differ
/// on it, and a token's `iss` may be either.
fn either_slash(issuer: &str) -> Vec<String> {
    let other = match issuer.strip_suffix('/') {
        Some(without) => without.to_owned(),
        None => format!("{issuer}/"),
    };
    vec![issuer.to_owned(), other]
}

#[cfg(test)]
mod tests;
