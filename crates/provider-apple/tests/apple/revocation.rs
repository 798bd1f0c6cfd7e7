//! Revocation at Apple: the refresh token goes with a freshly signed client secret, and
//! once it is revoked Apple asks for consent again and posts the name (TN3194).

use crate::support::*;
use social_login_ports::{IdentityProvider, ProviderGrant, Revoked};
use social_login_simulator::{Endpoint, Provider};

#[tokio::test]
async fn after_revocation_the_next_sign_in_posts_the_name_again() {
    let sim = FX.start().await;
    let provider = provider(&sim);
    let login = FX.flow().sign_in(&provider).await.unwrap();
    let form = FX.flow().authorize(&provider).await;
    assert_eq!(form.field("user"), None, "consent was given once already");
    let grant = ProviderGrant {
        access_token: login.tokens.access_token,
        refresh_token: login.tokens.refresh_token,
        client_id: None,
    };
    assert_eq!(provider.revoke(grant).await, Ok(Revoked::Done));
    let again = FX.flow().sign_in(&provider).await.unwrap();
    assert_eq!(again.identity.full_name.as_deref(), Some("Ada Lovelace"));
    let revoke = sim
        .requests()
        .into_iter()
        .find(|r| r.provider == Some(Provider::Apple) && r.endpoint == Some(Endpoint::Revoke))
        .expect("a revocation request");
    assert_eq!(revoke.outcome, "ok", "the signed client secret is accepted");
}
