//! Revoking a GitHub authorization: `DELETE /applications/{client_id}/grant` with HTTP
//! Basic client credentials and the access token in a JSON body (PROVIDERS.md §2.6). The
//! grant endpoint, not `/token`, so every token of the authorization goes with it.
//!
//! A 404 is not taken as "already gone": GitHub answers 404 to wrong client credentials
//! too, and a misconfigured secret must show in the logs.

use super::{API_MEDIA_TYPE, API_VERSION};
use reqwest::header::ACCEPT;
use serde::Serialize;
use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{RevocationEndpoint, send_revocation};

pub const GITHUB_REVOCATION_URL: &str = "https://api.github.com/applications/{client_id}/grant";

#[derive(Serialize)]
struct Body<'a> {
    access_token: &'a str,
}

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let request = endpoint
        .http()
        .delete(endpoint.url().clone())
        .basic_auth(
            endpoint.client_id(),
            Some(endpoint.client_secret().expose()),
        )
        .header(ACCEPT, API_MEDIA_TYPE)
        .header(API_VERSION.0, API_VERSION.1)
        .json(&Body {
            access_token: grant.access_token.expose(),
        });
    send_revocation("GitHub grant endpoint", request, &[]).await
}
