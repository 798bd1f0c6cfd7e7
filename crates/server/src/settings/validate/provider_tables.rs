//! What each `[oauth_providers.<key>]` table may hold: a built-in one only the client
//! registration and its overrides; a preset's the registration, its tenant and the knobs;
//! one from configuration a valid key, a kind, and the fields of that kind
//! (docs/configuration.md, "Providers from configuration" and "Presets").
//!
//! Whether a field belongs is checked on every table, disabled or not (like an unknown
//! key); what an enabled provider needs, only on enabled ones.

use crate::settings::{ConfigErrors, ProviderConfig, Settings};
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_provider_core::spec::knobs::Knobs;
use social_login_provider_core::spec::{
    EmailVerified, ProviderSpec, built_in_spec, is_claim_pointer, preset,
};

/// Most provider tables in one configuration: the registry, the listing endpoint and the
/// metrics label set all grow with it.
pub(super) const MAX_PROVIDERS: usize = 64;

/// Longest `display_name`: it is a button label.
const MAX_DISPLAY_NAME_CHARS: usize = 64;

pub(super) fn check(settings: &Settings, errors: &mut ConfigErrors) {
    let providers = &settings.oauth_providers;
    if providers.tables().count() > MAX_PROVIDERS {
        errors.push(
            "oauth_providers",
            format!("at most {MAX_PROVIDERS} providers"),
        );
    }
    for (raw, config) in providers.tables() {
        let key = match ProviderKey::parse(raw) {
            Ok(key) => key,
            Err(invalid) => {
                errors.push(format!("oauth_providers.{raw}"), invalid.to_string());
                continue;
            }
        };
        let mut table = Table { key, errors };
        if key.is_built_in() {
            table.built_in(config);
        } else if let Some(name) = config.preset_name(&key) {
            table.preset(name, config);
        } else {
            table.generic(config);
        }
    }
}

/// One table's problems, each under `oauth_providers.<key>.`.
struct Table<'a> {
    key: ProviderKey,
    errors: &'a mut ConfigErrors,
}

impl Table<'_> {
    fn push(&mut self, field: &str, message: impl Into<String>) {
        self.errors
            .push(format!("oauth_providers.{}.{field}", self.key), message);
    }

    /// A built-in provider is declared by the service: what it is cannot be configured.
    fn built_in(&mut self, config: &ProviderConfig) {
        if let Some(spec) = built_in_spec(self.key) {
            self.keeps_openid(spec, config);
        }
        let refused = "only for a provider from configuration: a built-in provider's is fixed";
        let present = [
            ("kind", config.kind.is_some()),
            ("display_name", config.display_name.is_some()),
            ("token_endpoint_auth", config.token_endpoint_auth.is_some()),
            (
                "trust_email_verified",
                config.trust_email_verified.is_some(),
            ),
            ("claims", config.claims.is_some()),
            ("preset", config.preset.is_some()),
            ("domain", config.domain.is_some()),
        ];
        for (field, _) in present.into_iter().filter(|(_, set)| *set) {
            self.push(field, refused);
        }
        // Where its API is may be named (a proxy, a regional host): it changes no request
        // of a sign-in.
        let protocol_knobs = Knobs {
            relay_base_urls: None,
            ..config.knobs()
        };
        for (index, url) in config.relay_base_urls.iter().flatten().enumerate() {
            let http = url.starts_with("https://") || url.starts_with("http://");
            if !http || !url.ends_with('/') || url.chars().any(char::is_control) {
                self.push(
                    &format!("relay_base_urls[{index}]"),
                    "an http(s) URL ending in `/`, without control characters",
                );
            }
        }
        if protocol_knobs != Knobs::default() {
            self.push(
                "knobs",
                "only for a preset or a provider from configuration: a built-in provider's \
                 requests are fixed",
            );
        }
        if config.issuer.is_some() {
            self.push(
                "issuer",
                "only for a provider from configuration: a built-in provider's expected issuer \
                 is endpoints.issuer",
            );
        }
    }

    /// A preset is declared by the service; its table names the client, the tenant where
    /// the preset is per tenant, and may turn the knobs or replace pointers.
    fn preset(&mut self, name: &str, config: &ProviderConfig) {
        let Some(spec) = preset(name) else {
            self.push(
                "preset",
                "no such preset; `social-login providers` lists them",
            );
            return;
        };
        if config.kind.is_some() {
            self.push("kind", "not with a preset: the preset says what it is");
        }
        self.keeps_openid(spec, config);
        if config.trust_email_verified.is_some() {
            self.push(
                "trust_email_verified",
                "not with a preset: its email rule is documented; claims.email_verified replaces it",
            );
        }
        self.claims(config);
        let needs = |what: &str| spec.needs.iter().any(|need| need == what);
        match &config.issuer {
            Some(issuer) if !super::is_base_url(issuer) => self.push(
                "issuer",
                "must be an http(s) URL without user info, query or fragment",
            ),
            None if config.enabled && needs("issuer") => {
                self.push("issuer", format!("required for the {name} preset"));
            }
            Some(_) if !spec.is_per_tenant() => {
                self.push("issuer", format!("the {name} preset is not per tenant"));
            }
            _ => {}
        }
        match &config.domain {
            Some(domain) if !is_host(domain) => {
                self.push("domain", "a host name, e.g. auth.example.com")
            }
            None if config.enabled && needs("domain") => {
                self.push("domain", format!("required for the {name} preset"));
            }
            Some(_) if !needs("domain") => {
                self.push("domain", format!("the {name} preset has no domain"));
            }
            _ => {}
        }
    }

    /// A declaration that signs in with an id_token it asks for with `openid` (Google,
    /// Microsoft, LinkedIn, the OpenID presets) gets none without it: scopes that replace its
    /// own must keep it. (Apple sends its id_token whatever the scopes.)
    fn keeps_openid(&mut self, spec: &ProviderSpec, config: &ProviderConfig) {
        let asks = spec.id_token.is_some() && has_openid(&spec.scopes);
        if let Some(scopes) = &config.scopes
            && asks
            && !has_openid(scopes)
        {
            self.push(
                "scopes",
                "must contain \"openid\": this provider signs in with an id_token",
            );
        }
    }

    fn generic(&mut self, config: &ProviderConfig) {
        let Some(kind) = config.kind else {
            self.push("kind", "required: \"oidc\" or \"oauth2\"");
            return;
        };
        if config.domain.is_some() {
            self.push(
                "domain",
                "only for a preset whose endpoints are on a domain of their own",
            );
        }
        self.common(config);
        match kind {
            ProviderKind::Oidc => self.oidc(config),
            ProviderKind::OAuth2 => self.oauth2(config),
        }
    }

    /// Rules of both kinds.
    fn common(&mut self, config: &ProviderConfig) {
        if let Some(name) = &config.display_name {
            let length = name.trim().chars().count();
            if !(1..=MAX_DISPLAY_NAME_CHARS).contains(&length) || name.chars().any(char::is_control)
            {
                self.push(
                    "display_name",
                    format!("1 to {MAX_DISPLAY_NAME_CHARS} characters, no control characters"),
                );
            }
        }
        self.claims(config);
        if config.emails_endpoint().is_some() != config.emails.is_some() {
            self.push(
                "endpoints.emails",
                "an emails endpoint (endpoints.emails or emails.url) and an [emails] table go \
                 together",
            );
        }
        if config.emails_url().is_some() && config.endpoints.emails.is_some() {
            self.push("emails.url", "or endpoints.emails, not both");
        }
        if config.endpoints.issuer.is_some() {
            self.push(
                "endpoints.issuer",
                "only for built-in providers: a provider from configuration sets issuer (kind = \
                 \"oidc\")",
            );
        }
    }

    /// The table's pointers: each a JSON Pointer, or `token:` and one that names no token.
    fn claims(&mut self, config: &ProviderConfig) {
        let claims = config.claims.clone().unwrap_or_default();
        let message = "not a JSON Pointer (or `token:` and one that names no token)";
        for (field, pointer) in claims.pointers() {
            if !is_claim_pointer(pointer) {
                self.push(&format!("claims.{field}"), message);
            }
        }
        if let Some(EmailVerified::AllOf(flags)) = &claims.email_verified {
            for (index, flag) in flags.iter().enumerate() {
                if !is_claim_pointer(flag) {
                    self.push(&format!("claims.email_verified[{index}]"), message);
                }
            }
        }
    }

    fn oidc(&mut self, config: &ProviderConfig) {
        match &config.issuer {
            Some(issuer) if !super::is_base_url(issuer) => self.push(
                "issuer",
                "must be an http(s) URL without user info, query or fragment (discovery reads \
                 {issuer}/.well-known/openid-configuration)",
            ),
            None if config.enabled => self.push("issuer", "required for kind = \"oidc\""),
            _ => {}
        }
        if config
            .scopes
            .as_deref()
            .is_some_and(|scopes| !has_openid(scopes))
        {
            self.push("scopes", "must contain \"openid\" for kind = \"oidc\"");
        }
    }

    fn oauth2(&mut self, config: &ProviderConfig) {
        let only_oidc = "only for kind = \"oidc\"";
        if config.issuer.is_some() {
            self.push("issuer", only_oidc);
        }
        if config.endpoints.jwks.is_some() {
            self.push("endpoints.jwks", only_oidc);
        }
        if !config.enabled {
            return;
        }
        let endpoints = &config.endpoints;
        let required = [
            ("endpoints.authorization", &endpoints.authorization),
            ("endpoints.token", &endpoints.token),
            ("endpoints.userinfo", &endpoints.userinfo),
        ];
        for (field, _) in required.into_iter().filter(|(_, url)| url.is_none()) {
            self.push(field, "required for kind = \"oauth2\"");
        }
        if config.scopes.as_ref().is_none_or(Vec::is_empty) {
            self.push("scopes", "required for kind = \"oauth2\"");
        }
    }
}

/// A DNS host name: letters, digits, `-` and `.`, at most 253 characters.
fn is_host(raw: &str) -> bool {
    !raw.is_empty()
        && raw.len() <= 253
        && raw
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'.')
}

/// Whether apps may present id_tokens of this provider (`client_ids`, `id_token_nonce`).
pub(super) fn accepts_id_tokens(key: ProviderKey, config: &ProviderConfig) -> bool {
    let declared = config.declared(key);
    declared.is_some_and(|declared| declared.without_discovery().native_sign_in())
}

/// Whether `scopes` ask for an id_token (OpenID Connect's `openid`).
fn has_openid(scopes: &[String]) -> bool {
    scopes.iter().any(|scope| scope == "openid")
}
