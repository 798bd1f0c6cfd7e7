//! Revocation at X by a public client: no secret, so its `client_id` goes in the body as
//! at the token endpoint (X refuses a confidential client that does that).

use super::support::*;
use social_login_conformance::fixture;
use social_login_domain::SecretText;
use social_login_ports::{IdentityProvider, ProviderGrant, Revoked};
use social_login_simulator::{ClientAuthKind, Endpoint, SimulatorConfig, TokenKind};

#[tokio::test]
async fn a_public_client_revokes_with_its_client_id_in_the_body() {
    let config = SimulatorConfig::default()
        .with_client(FX.client(""))
        .with_user(FX.user());
    let sim = fixture::start(config).await;
    let mut settings = FX.settings(&sim);
    settings.client_secret = SecretText::new("");
    let provider = provider_with(settings);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    let grant = ProviderGrant {
        access_token: login.tokens.access_token,
        refresh_token: login.tokens.refresh_token,
        client_id: None,
    };
    assert_eq!(provider.revoke(grant).await, Ok(Revoked::Done));
    let request = sim
        .requests()
        .into_iter()
        .find(|r| r.endpoint == Some(Endpoint::Revoke))
        .unwrap();
    assert_eq!(request.client_auth, Some(ClientAuthKind::None));
    assert_eq!(request.client_id.as_deref(), Some(FX.client_id));
    assert_eq!(sim.revocations()[0].kind, Some(TokenKind::Refresh));
}
