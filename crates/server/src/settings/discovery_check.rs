//! What `check-config` asks of the network: the discovery document of every enabled
//! provider of `kind = "oidc"`, fetched and checked as start-up would, each failure named
//! under its `issuer` (docs/configuration.md, "Providers from configuration").

use super::{ConfigErrors, Settings};
use social_login_domain::ProviderKind;
use social_login_provider_core::build_http_client;
use social_login_provider_oidc::discovery::discover;
use tokio::task::JoinSet;

/// Fetches every enabled `oidc` provider's discovery document at once, each within
/// `[http] provider_timeout_seconds`; the problems of those that fail.
pub async fn discovery_check(settings: &Settings) -> ConfigErrors {
    let mut errors = ConfigErrors::default();
    let issuers: Vec<(String, String)> = settings
        .enabled_providers()
        .filter(|(key, config)| !key.is_built_in() && config.kind == Some(ProviderKind::Oidc))
        .filter_map(|(key, config)| {
            let field = format!("oauth_providers.{key}.issuer");
            Some((field, config.issuer.clone()?))
        })
        .collect();
    if issuers.is_empty() {
        return errors;
    }
    let http = match build_http_client(settings.http.provider_timeout()) {
        Ok(http) => http,
        Err(error) => {
            errors.push("", format!("no HTTP client for discovery: {error}"));
            return errors;
        }
    };
    // At most one task per provider table (validation bounds them).
    let mut checks = JoinSet::new();
    for (index, (_, issuer)) in issuers.iter().enumerate() {
        let (http, issuer) = (http.clone(), issuer.clone());
        checks.spawn(async move { (index, discover(&http, &issuer).await) });
    }
    let mut problems: Vec<(usize, String)> = Vec::new();
    while let Some(joined) = checks.join_next().await {
        match joined {
            Ok((index, Err(problem))) => problems.push((index, problem.to_string())),
            Ok((_, Ok(_))) => {}
            Err(_) => errors.push("", "a discovery check stopped unexpectedly"),
        }
    }
    // In configuration order, whichever answered first.
    problems.sort();
    for (index, problem) in problems {
        errors.push(issuers[index].0.clone(), problem);
    }
    errors
}
