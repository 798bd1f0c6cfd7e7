//! Per-tenant providers (GitLab self-managed, Okta, Auth0, Keycloak, Cognito...): a
//! declaration whose URLs say `{issuer}` (and Cognito's `{domain}`), filled with the
//! operator's values (or the declaration's default issuer).
//! Whether a preset's emails are trusted at a tenant is decided here too.

use crate::claims::EmailVerified;
use crate::spec::{EmailTrust, ProviderSpec};

/// What a declaration's URLs say where the tenant's issuer goes.
pub const ISSUER: &str = "{issuer}";
/// Where the host of a tenant's own domain goes (Cognito's hosted domain).
pub const DOMAIN: &str = "{domain}";

/// What a per-tenant provider's operator names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tenant<'a> {
    pub issuer: Option<&'a str>,
    pub domain: Option<&'a str>,
}

/// An issuer as it is put in place and compared: trimmed, without its trailing `/`.
pub(crate) fn bare_issuer(issuer: &str) -> &str {
    issuer.trim().trim_end_matches('/')
}

impl ProviderSpec {
    /// Whether the email rule of `claims` holds for the tenant at `issuer` (`None`: the
    /// declaration's own issuer).
    pub fn email_rule_holds_at(&self, issuer: Option<&str>) -> bool {
        let own = |given: &str| self.issuer.as_deref().map(bare_issuer) == Some(bare_issuer(given));
        match self.email_trust {
            EmailTrust::Everywhere => true,
            EmailTrust::DefaultIssuer => issuer.is_none_or(own),
            EmailTrust::Operator => false,
        }
    }

    /// This declaration for the tenant at `issuer` as far as its emails go: where its email
    /// rule does not hold there, neither its flag nor an emails list's vouches for an address
    /// (the operator may name the flag again).
    pub fn trusting_emails_at(mut self, issuer: Option<&str>) -> Self {
        if !self.email_rule_holds_at(issuer) {
            self.claims.email_verified = EmailVerified::Never;
            if let Some(list) = &mut self.emails {
                list.verified = None;
            }
        }
        self
    }

    /// Whether some URL of the declaration names the tenant's issuer or domain.
    pub fn is_per_tenant(&self) -> bool {
        let mut uses = false;
        self.clone()
            .each_url(|url| uses |= url.contains(ISSUER) || url.contains(DOMAIN));
        uses
    }

    /// The declaration for the tenant at `issuer`: [`Self::for_tenant`] with no domain.
    pub fn for_issuer(self, issuer: &str) -> Self {
        self.for_tenant(Tenant {
            issuer: Some(issuer),
            domain: None,
        })
    }

    /// The declaration for `tenant` (the issuer's trailing `/` dropped before it is put in
    /// place; a placeholder without a value stays, for the checks to name).
    pub fn for_tenant(mut self, tenant: Tenant<'_>) -> Self {
        let issuer = tenant.issuer.map(bare_issuer);
        let domain = tenant.domain.map(str::trim);
        self.each_url(|url| {
            for (placeholder, value) in [(ISSUER, issuer), (DOMAIN, domain)] {
                if let Some(value) = value.filter(|_| url.contains(placeholder)) {
                    *url = url.replace(placeholder, value);
                }
            }
        });
        self
    }

    /// Every URL of the declaration, to read or rewrite.
    fn each_url(&mut self, mut visit: impl FnMut(&mut String)) {
        let endpoints = &mut self.endpoints;
        visit(&mut endpoints.authorization);
        visit(&mut endpoints.token);
        for url in [
            &mut endpoints.userinfo,
            &mut endpoints.emails,
            &mut endpoints.jwks,
            &mut endpoints.refresh,
        ]
        .into_iter()
        .flatten()
        {
            visit(url);
        }
        if let Some(rules) = &mut self.id_token {
            rules.issuers.iter_mut().for_each(&mut visit);
        }
        if let Some(rules) = &mut self.revocation {
            visit(&mut rules.url);
        }
        self.relay_base_urls.iter_mut().for_each(&mut visit);
    }
}
