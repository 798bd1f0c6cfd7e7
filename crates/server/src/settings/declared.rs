//! What a `[oauth_providers.<key>]` table declares its provider to be: one of the eight, a
//! preset (docs/providers.md), or a provider from configuration of its own `kind`.

use super::ProviderConfig;
use social_login_domain::ProviderKey;
use social_login_provider_core::spec::{
    GenericProvider, ProviderSpec, Tenant, built_in_spec, preset,
};
use std::borrow::Cow;

/// A table's provider, as a declaration (or what makes one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    /// One of the eight, as the service declares it.
    BuiltIn(&'static ProviderSpec),
    /// A preset under the table's key, the table's issuer, knobs and overrides in place.
    Preset(ProviderSpec),
    /// A provider from configuration (`kind`); an `oidc` one completes its declaration with
    /// its discovery document.
    Generic(GenericProvider),
}

impl Declared {
    /// The whole declaration of one of the eight or a preset; `None` for a provider from
    /// configuration, whose declaration its table makes (with discovery, for `oidc`).
    pub fn spec(&self) -> Option<&ProviderSpec> {
        match self {
            Self::BuiltIn(spec) => Some(spec),
            Self::Preset(spec) => Some(spec),
            Self::Generic(_) => None,
        }
    }

    /// The declaration the server builds or checks before any discovery: the whole one, or
    /// what a provider from configuration's table declares.
    pub fn without_discovery(&self) -> Cow<'_, ProviderSpec> {
        match self {
            Self::BuiltIn(spec) => Cow::Borrowed(spec),
            Self::Preset(spec) => Cow::Borrowed(spec),
            Self::Generic(table) => Cow::Owned(table.declaration(None)),
        }
    }
}

impl ProviderConfig {
    /// The preset this table enables: its `preset`, else its key when that names one and
    /// the table declares no `kind` of its own.
    pub fn preset_name<'a>(&'a self, key: &'a ProviderKey) -> Option<&'a str> {
        match (&self.preset, self.kind) {
            (Some(name), _) => Some(name),
            (None, None) if preset(key.as_str()).is_some() => Some(key.as_str()),
            _ => None,
        }
    }

    /// What this table declares; `None` for a table that declares nothing usable (no kind,
    /// an unknown preset): validation names why.
    pub fn declared(&self, key: ProviderKey) -> Option<Declared> {
        if let Some(spec) = built_in_spec(key) {
            return Some(Declared::BuiltIn(spec));
        }
        if let Some(name) = self.preset_name(&key) {
            return preset(name).map(|base| Declared::Preset(self.over_preset(key, base)));
        }
        self.generic_provider(key).map(Declared::Generic)
    }

    /// `base` for this table's tenant, before anything else of the table applies: its issuer
    /// (else the preset's own) and domain in place, and its emails trusted only where the
    /// preset's rule holds there.
    pub(crate) fn preset_for_tenant(&self, base: &ProviderSpec) -> ProviderSpec {
        let issuer = self.issuer.as_deref().or(base.issuer.as_deref());
        let tenant = Tenant {
            issuer,
            domain: self.domain.as_deref(),
        };
        let mut spec = (base.clone())
            .trusting_emails_at(self.issuer.as_deref())
            .for_tenant(tenant);
        spec.issuer = issuer.map(str::to_owned);
        spec
    }

    /// `base` as this table configures it under `key`.
    fn over_preset(&self, key: ProviderKey, base: &ProviderSpec) -> ProviderSpec {
        let mut spec = self.preset_for_tenant(base);
        spec.key = key;
        if let Some(name) = &self.display_name {
            spec.display_name.clone_from(name);
        }
        if let Some(auth) = self.token_endpoint_auth {
            spec.token_auth = auth.into();
        }
        if let Some(claims) = &self.claims {
            claims.over(&mut spec.claims);
        }
        self.knobs().apply(&mut spec);
        spec
    }
}
