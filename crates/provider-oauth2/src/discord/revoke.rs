//! Revoking a Discord authorization: `POST /api/oauth2/token/revoke`, form body with the
//! client credentials (PROVIDERS.md §6.6). Revoking either token revokes every token of
//! the authorization; the refresh token is sent when there is one.

use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{RevocationEndpoint, send_revocation, whole_grant_token};

pub const DISCORD_REVOCATION_URL: &str = "https://discord.com/api/oauth2/token/revoke";

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let (token, hint) = whole_grant_token(grant);
    let params = [("token", token.expose()), ("token_type_hint", hint)];
    let request = endpoint.post_form_with_body_credentials(&params);
    send_revocation("Discord revocation endpoint", request, &[]).await
}
