//! Revoking a Google grant: `POST /revoke` with the form `token=` and no client
//! authentication (PROVIDERS.md §1.6). The refresh token is sent when there is one: it
//! outlives the access token, and revoking it ends the grant.
//!
//! Google answers 400 `invalid_token` for a token that has expired or was already revoked:
//! the grant is gone either way, so that is `Done`.

use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{
    AlreadyGone, RevocationEndpoint, send_revocation, whole_grant_token,
};

pub const GOOGLE_REVOCATION_URL: &str = "https://oauth2.googleapis.com/revoke";

const EXPIRED_OR_REVOKED: AlreadyGone = AlreadyGone {
    status: 400,
    error: "invalid_token",
};

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let (token, _) = whole_grant_token(grant);
    let request = endpoint.post_form(&[("token", token.expose())]);
    send_revocation("Google revocation endpoint", request, &[EXPIRED_OR_REVOKED]).await
}
