//! Revocation at X by a public client: no secret, so its `client_id` goes in the body as
//! at the token endpoint (X refuses a confidential client that does that).

use super::support::*;
use social_login_ports::{IdentityProvider, ProviderGrant, Revoked};
use social_login_simulator::{ClientAuthKind, Endpoint, TokenKind};

#[tokio::test]
async fn a_public_client_revokes_with_its_client_id_in_the_body() {
    let (sim, settings) = public_client().await;
    let provider = provider_with(settings);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    let grant = ProviderGrant {
        access_token: login.tokens.access_token,
        refresh_token: login.tokens.refresh_token,
        client_id: None,
    };
    assert_eq!(provider.revoke(grant).await, Ok(Revoked::Done));
    let request = first_request(&sim, Endpoint::Revoke);
    assert_eq!(request.client_auth, Some(ClientAuthKind::None));
    assert_eq!(request.client_id.as_deref(), Some(FX.client_id));
    assert_eq!(sim.revocations()[0].kind, Some(TokenKind::Refresh));
}
