//! Revocation at GitHub: a 404 is not "already gone", since GitHub also answers 404 to
//! client credentials it refuses, and a wrong secret must show in the logs.

use super::support::*;
use social_login_conformance::assert_no_secret;
use social_login_domain::SecretText;
use social_login_ports::{IdentityProvider, ProviderError, ProviderGrant};

#[tokio::test]
async fn a_refused_client_secret_is_a_failure_not_a_revocation() {
    let sim = FX.start().await;
    let login = FX.flow().sign_in(&provider(&sim)).await.unwrap();
    let mut settings = FX.settings(&sim);
    settings.client_secret = SecretText::new("not-the-secret-0123456789");
    let grant = ProviderGrant {
        access_token: login.tokens.access_token.clone(),
        refresh_token: None,
        client_id: None,
    };
    let error = provider_with(settings).revoke(grant).await.unwrap_err();
    let ProviderError::Revocation(message) = &error else {
        panic!("not a revocation failure: {error:?}");
    };
    assert_eq!(message, "GitHub revocation endpoint answered HTTP 404");
    let token = login.tokens.access_token.expose();
    assert_no_secret(message, &[token, "not-the-secret", FX.client_secret]);
    assert!(sim.revocations().is_empty());
    assert!(sim.issued_access_tokens().iter().any(|t| t == token));
}
