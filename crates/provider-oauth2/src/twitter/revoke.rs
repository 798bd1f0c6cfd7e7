//! Revoking an X grant: `POST /2/oauth2/revoke`, the client authenticated as at the token
//! endpoint (HTTP Basic when confidential, `client_id` in the body when public; PROVIDERS.md
//! §7.6). The refresh token is sent when there is one: it outlives the access token.

use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_core::{RevocationEndpoint, send_revocation, whole_grant_token};

pub const TWITTER_REVOCATION_URL: &str = "https://api.x.com/2/oauth2/revoke";

pub async fn revoke(
    endpoint: &RevocationEndpoint,
    grant: &ProviderGrant,
) -> Result<Revoked, ProviderError> {
    let (token, hint) = whole_grant_token(grant);
    let params = [("token", token.expose()), ("token_type_hint", hint)];
    let request = if endpoint.client_secret().expose().is_empty() {
        let public = [("client_id", endpoint.client_id())];
        endpoint.post_form(&[&params[..], &public].concat())
    } else {
        endpoint.post_form_with_basic(&params)
    };
    send_revocation("X revocation endpoint", request, &[]).await
}
