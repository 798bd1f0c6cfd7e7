//! Revoking a Facebook grant: `DELETE /{version}/me/permissions` with the user's token
//! (PROVIDERS.md §3.6) de-authorizes the app for that user, every token with it. Signed
//! with `appsecret_proof` like every Graph call; the token goes in the header, not the URL.

use super::proof::appsecret_proof;
use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{RevocationEndpoint, send_revocation};

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let mut url = endpoint.url().clone();
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(name, _)| !matches!(&**name, "appsecret_proof" | "access_token"))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let proof = appsecret_proof(endpoint.client_secret(), &grant.access_token);
    url.query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .append_pair("appsecret_proof", &proof);
    let request = endpoint
        .http()
        .delete(url)
        .bearer_auth(grant.access_token.expose());
    send_revocation("Facebook permissions endpoint", request, &[]).await
}
