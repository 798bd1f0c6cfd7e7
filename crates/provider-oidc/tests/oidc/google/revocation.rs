//! Revocation at Google: a token Google no longer knows is answered 400 `invalid_token`,
//! which means the grant is already gone.

use super::support::*;
use social_login_ports::{IdentityProvider, ProviderGrant, Revoked};

#[tokio::test]
async fn revoking_an_already_revoked_grant_is_done_too() {
    let sim = FX.start().await;
    let provider = provider(&sim);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    let grant = ProviderGrant {
        access_token: login.tokens.access_token,
        refresh_token: login.tokens.refresh_token,
        client_id: None,
    };
    assert_eq!(provider.revoke(grant.clone()).await, Ok(Revoked::Done));
    assert_eq!(provider.revoke(grant).await, Ok(Revoked::Done));
    // Only the first was accepted; the second met `invalid_token`.
    assert_eq!(sim.revocations().len(), 1);
}
