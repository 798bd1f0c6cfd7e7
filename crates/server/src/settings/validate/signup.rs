//! The sign-up policy of each provider (docs/configuration.md): `allowed_email_domains` are
//! ASCII host names in any case (kept lowercase), each one named (by its index) when it is
//! not; and the warnings of a policy that cannot do what it seems to say.

use crate::settings::{ConfigErrors, Declared, ProviderConfig, Settings};
use social_login_domain::{EmailDomain, ProviderKey};

/// Most domains in one provider's list: an organisation has a handful.
const MAX_DOMAINS: usize = 100;

pub(super) fn check(settings: &Settings, errors: &mut ConfigErrors) {
    for (key, config) in settings.enabled_providers() {
        let field = format!("oauth_providers.{key}.allowed_email_domains");
        let domains = &config.allowed_email_domains;
        if domains.len() > MAX_DOMAINS {
            errors.push(field.clone(), format!("at most {MAX_DOMAINS} domains"));
        }
        for (index, domain) in domains.iter().enumerate().take(MAX_DOMAINS) {
            if let Err(why) = EmailDomain::parse(domain) {
                errors.push(format!("{field}[{index}]"), why.to_string());
            }
        }
    }
}

pub(super) fn warnings(settings: &Settings) -> Vec<String> {
    let mut warnings = Vec::new();
    for (key, config) in settings.enabled_providers() {
        if config.allowed_email_domains.is_empty() {
            continue;
        }
        if !config.allow_signup {
            warnings.push(format!(
                "oauth_providers.{key}.allowed_email_domains has no effect while allow_signup \
                 is false: nobody signs up through {key}"
            ));
        } else if never_verifies(key, config) {
            warnings.push(format!(
                "oauth_providers.{key}.allowed_email_domains: every email of {key} counts as \
                 unverified, so no new user can pass the list"
            ));
        }
    }
    warnings
}

/// Facebook sends no verified flag; a preset vouches as its declaration says; a provider
/// from configuration is believed only when the operator vouches for it
/// (`trust_email_verified`).
fn never_verifies(key: ProviderKey, config: &ProviderConfig) -> bool {
    match config.declared(key) {
        Some(Declared::BuiltIn(_)) => key == ProviderKey::FACEBOOK,
        Some(Declared::Preset(spec)) => !spec.may_vouch_for_an_address(),
        Some(Declared::Generic(_)) | None => !config.trusts_email_verified(),
    }
}
