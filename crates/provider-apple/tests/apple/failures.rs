//! Failures only Apple's set-up reaches: codes that live five minutes, an issuer override.

use super::support::*;
use social_login_conformance::{expect_user_info, fixture};
use std::time::Duration;

#[tokio::test]
async fn an_expired_code_is_refused() {
    let sim = fixture::start(FX.config([FX.user()]).with_code_ttl(Duration::ZERO)).await;
    let message = assert_code_exchange(FX.flow().sign_in(&provider(&sim)).await);
    assert_eq!(message, "token endpoint answered error `invalid_grant`");
}

#[tokio::test]
async fn an_issuer_override_replaces_apples_issuer_entirely() {
    // The simulator signs with Apple's real issuer, which the override no longer accepts.
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.endpoints.issuer = Some("https://account.apple.com".into());
    let result = FX.flow().sign_in(&provider_with(settings)).await;
    let message = expect_user_info(result, &["MIG"]);
    assert_eq!(message, "id_token issuer is not accepted");
}
