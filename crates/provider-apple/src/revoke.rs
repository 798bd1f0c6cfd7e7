//! Revoking a Sign in with Apple grant: `POST /auth/revoke` with `client_id`, a freshly
//! signed client secret, the token and its `token_type_hint` (PROVIDERS.md §8.6). The
//! refresh token is sent when there is one: revoking it ends the grant, so Apple asks for
//! consent again and posts the name on the next sign-in (TN3194). App Store rules expect
//! this on account deletion.

use crate::client_secret::ClientSecretSigner;
use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{RevocationEndpoint, send_revocation, whole_grant_token};

pub const APPLE_REVOCATION_URL: &str = "https://appleid.apple.com/auth/revoke";

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    signer: &ClientSecretSigner,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let client_secret = signer
        .sign()
        .map_err(|_| ProviderError::Revocation("client secret could not be signed".into()))?;
    let (token, hint) = whole_grant_token(grant);
    let params = [
        ("client_id", endpoint.client_id()),
        ("client_secret", client_secret.expose()),
        ("token", token.expose()),
        ("token_type_hint", hint),
    ];
    send_revocation(
        "Apple revocation endpoint",
        endpoint.post_form(&params),
        &[],
    )
    .await
}
