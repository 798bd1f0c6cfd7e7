//! `[oauth_providers.*]` and the apple signing fields: each enabled provider's adapter is
//! asked for the problems of its settings (the rules are the adapters', `crate::adapters`
//! finds the crate); the warnings are the service's.

use super::provider_tables::accepts_id_tokens;
use crate::settings::{ConfigErrors, ProviderConfig, Settings};
use social_login_domain::{ProviderKey, ProviderKind};
use social_login_provider_core::spec::{ProviderSpec, preset};
use social_login_provider_core::{ProblemField, SettingsProblem};
use url::{Host, Url};

pub(super) fn check(settings: &Settings, errors: &mut ConfigErrors) {
    super::provider_tables::check(settings, errors);
    for (key, config) in settings.enabled_providers() {
        for problem in adapter_problems(key, config, settings) {
            let field = match problem.field {
                ProblemField::Provider(field) => format!("oauth_providers.{key}.{field}"),
                ProblemField::Service(field) => field.to_owned(),
            };
            errors.push(field, problem.message);
        }
        let native = accepts_id_tokens(key, config);
        check_client_ids(key, native, &config.client_ids, errors);
        if config.id_token_nonce.is_some() && !native {
            errors.push(format!("oauth_providers.{key}.id_token_nonce"), NOT_NATIVE);
        }
    }
}

/// The problems the adapter of `key` finds in its settings: the same checks it makes when
/// it is built at start-up, all at once. A table's declaration is checked whole; a provider
/// from configuration's only as far as its table goes (an `oidc` one's discovery is
/// `check-config`'s own step, and the fields its table may not hold are named by the table
/// rules). A table that declares nothing usable (no kind, an unknown preset) is left to the
/// table rules too: there is no telling which adapter would check the rest.
fn adapter_problems(
    key: ProviderKey,
    config: &ProviderConfig,
    settings: &Settings,
) -> Vec<SettingsProblem> {
    let Some(declared) = config.declared(key) else {
        return Vec::new();
    };
    let mut provider = settings.adapter_settings(key, config);
    let spec = declared.without_discovery();
    let declared_problems = match declared.spec() {
        Some(whole) => whole.problems(),
        None => {
            provider.endpoints.issuer = None;
            spec.knob_problems()
        }
    };
    let mut problems: Vec<SettingsProblem> = declared_problems
        .into_iter()
        .map(|problem| SettingsProblem::provider(problem.field, problem.message))
        .collect();
    problems.extend(crate::adapters::problems(key, &spec, &provider));
    problems
}

/// Why `client_ids` or `id_token_nonce` do not belong to a provider.
const NOT_NATIVE: &str = "only google, microsoft, apple and providers of kind = \"oidc\" (whose \
                          id_tokens are not signed with the client secret) accept id_tokens from apps";

/// Most client ids accepted in one provider's `client_ids`: a web, an iOS and an Android
/// client, per app, leave plenty of room.
const MAX_CLIENT_IDS: usize = 16;

/// `client_ids` belongs to a provider with id_tokens, and each entry is one token.
fn check_client_ids(
    key: ProviderKey,
    native: bool,
    client_ids: &[String],
    errors: &mut ConfigErrors,
) {
    let field = format!("oauth_providers.{key}.client_ids");
    if client_ids.is_empty() {
        return;
    }
    if !native {
        errors.push(field, NOT_NATIVE);
        return;
    }
    if client_ids.len() > MAX_CLIENT_IDS {
        errors.push(
            field.clone(),
            format!("at most {MAX_CLIENT_IDS} client ids"),
        );
    }
    for (index, client_id) in client_ids.iter().enumerate() {
        let bad = |c: char| c.is_whitespace() || c.is_control();
        if client_id.is_empty() || client_id.chars().any(bad) {
            errors.push(
                format!("{field}[{index}]"),
                "a client id must be non-empty and contain no whitespace or control character",
            );
        }
    }
}

pub(super) fn warnings(settings: &Settings) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut enabled = 0;
    for (key, config) in settings.enabled_providers() {
        enabled += 1;
        let declared = declared_spec(key, config);
        let requires = declared.as_ref().filter(|spec| spec.pkce_required);
        // A declaration without PKCE sends none whatever the table says.
        let declares_pkce = declared.as_ref().is_none_or(|spec| spec.pkce);
        match (config.pkce, requires) {
            (false, Some(spec)) => warnings.push(format!(
                "oauth_providers.{key}.pkce = false is ignored: {} requires PKCE (S256) on \
                 every authorization",
                spec.display_name
            )),
            (false, None) if declares_pkce => warnings.push(format!(
                "oauth_providers.{key}.pkce = false: PKCE (S256) is off for this provider; keep it \
                 only if the provider app rejects code_verifier"
            )),
            _ => {}
        }
        let email_verified = config.claims.as_ref().map(|claims| &claims.email_verified);
        // Only a provider from configuration reads its flag on the operator's word.
        let generic = config.kind.is_some();
        if generic && !config.trusts_email_verified() && email_verified.is_some_and(Option::is_some)
        {
            warnings.push(format!(
                "oauth_providers.{key}.claims.email_verified is not read while \
                 trust_email_verified is false: every email of this provider counts as unverified"
            ));
        }
        if is_plain_http_off_loopback(&config.redirect_uri) {
            warnings.push(format!(
                "oauth_providers.{key}.redirect_uri uses plain http on a non-loopback host: \
                 authorization codes travel in clear text; use https in production"
            ));
        }
        let issuer = config
            .issuer
            .iter()
            .map(|url| ("issuer".to_owned(), url.as_str()));
        let endpoints =
            (config.endpoints.iter()).map(|(name, url)| (format!("endpoints.{name}"), url));
        let listed =
            (config.emails_url().into_iter()).map(|url| ("emails.url".to_owned(), url.as_str()));
        for (field, url) in issuer.chain(endpoints).chain(listed) {
            if is_plain_http_off_loopback(url) {
                warnings.push(format!(
                    "oauth_providers.{key}.{field} uses plain http on a non-loopback host: codes, \
                     tokens and key sets travel unprotected and can be altered; use https"
                ));
            }
        }
        let moved = &config.endpoints;
        let left_behind = moved.token.is_some() && moved.refresh.is_none();
        let own_refresh = declared
            .as_ref()
            .filter(|spec| spec.endpoints.refresh.is_some());
        if let Some(spec) = own_refresh.filter(|_| left_behind) {
            warnings.push(format!(
                "oauth_providers.{key}.endpoints.token is overridden but refreshes still go to \
                 {}'s own refresh endpoint: set endpoints.refresh too",
                spec.display_name
            ));
        }
        let subject = config
            .claims
            .as_ref()
            .and_then(|claims| claims.subject.as_deref());
        // A preset's table has no `kind`: what it declares says whether it speaks OpenID.
        let oidc = config.kind == Some(ProviderKind::Oidc)
            || declared
                .as_ref()
                .is_some_and(|spec| spec.kind == ProviderKind::Oidc);
        if oidc && subject.is_some_and(|sub| sub != "/sub") {
            warnings.push(format!(
                "oauth_providers.{key}.claims.subject is not \"/sub\": an OpenID provider \
                 guarantees only `sub` to be stable and unique for its issuer; another claim may \
                 be reassigned or chosen by the user, and whoever gets it signs in as its owner"
            ));
        }
    }
    warnings.extend(replaced_preset_tables(settings));
    warnings.extend(unverified_preset_emails(settings));
    if enabled == 0 {
        warnings.push(
            "oauth_providers: no provider is enabled; only password accounts can sign in"
                .to_owned(),
        );
    }
    warnings
}

/// The declaration of a built-in provider or preset table; `None` for a provider from
/// configuration (its declaration may wait for discovery) or a table that declares nothing.
fn declared_spec(key: ProviderKey, config: &ProviderConfig) -> Option<ProviderSpec> {
    config.declared(key)?.spec().cloned()
}

pub(in crate::settings) fn is_plain_http_off_loopback(redirect_uri: &str) -> bool {
    let Ok(url) = Url::parse(redirect_uri) else {
        return false;
    };
    let loopback = match url.host() {
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    url.scheme() == "http" && !loopback
}

/// A preset table whose emails the preset's flag no longer vouches for: a tenant where the
/// flag means nothing by default (a self-managed GitLab, ZITADEL), or an email pointer of the
/// operator's own. Named, so the operator knows why no address links.
fn unverified_preset_emails(settings: &Settings) -> Vec<String> {
    let mut warnings = Vec::new();
    for (key, config) in settings.enabled_providers() {
        let Some(base) = config.preset_name(&key).and_then(preset) else {
            continue;
        };
        let claims = config.claims.as_ref();
        if claims.is_some_and(|claims| claims.email_verified.is_some()) {
            continue;
        }
        let name = &base.display_name;
        if claims.is_some_and(|claims| claims.email.is_some()) {
            warnings.push(format!(
                "oauth_providers.{key}.claims.email is the operator's own pointer: {name}'s \
                 email_verified speaks of its email claim only, so no address counts as \
                 verified unless claims.email_verified names the flag of this one"
            ));
        } else if !base.email_rule_holds_at(config.issuer.as_deref()) {
            warnings.push(format!(
                "oauth_providers.{key}: no email of this {name} counts as verified \
                 (docs/providers.md says why); set claims.email_verified only if every \
                 address it vouches for was confirmed by its owner"
            ));
        }
    }
    warnings
}

/// A preset's table, map or list that a knob sets is replaced whole, not member by member:
/// `[oauth_providers.amazon.userinfo] headers = …` would drop Amazon's own `token_in`. Named,
/// so the operator repeats what the preset needs.
fn replaced_preset_tables(settings: &Settings) -> Vec<String> {
    let mut warnings = Vec::new();
    for (key, config) in settings.enabled_providers() {
        let Some(base) = config.preset_name(&key).and_then(preset) else {
            continue;
        };
        // Against the preset as its tenant has it: `{issuer}` in its API base filled in.
        let own = config.preset_for_tenant(base);
        for knob in config.knobs().dropping_part_of(&own) {
            warnings.push(format!(
                "oauth_providers.{key}.{knob} replaces the {} preset's `{knob}` whole, not \
                 member by member: repeat in it what the preset sets (docs/providers.md lists it)",
                base.display_name
            ));
        }
    }
    warnings
}
