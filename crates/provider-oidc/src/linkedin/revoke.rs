//! Revoking a LinkedIn grant: `POST /oauth/v2/revoke` with the access token and the client
//! credentials in the form body (LinkedIn takes no HTTP Basic). The endpoint is unverified
//! (PROVIDERS.md §5.6); refresh tokens are for partners only, so the access token is sent.

use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{RevocationEndpoint, send_revocation};

pub const LINKEDIN_REVOCATION_URL: &str = "https://www.linkedin.com/oauth/v2/revoke";

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let params = [("token", grant.access_token.expose())];
    let request = endpoint.post_form_with_body_credentials(&params);
    send_revocation("LinkedIn revocation endpoint", request, &[]).await
}
