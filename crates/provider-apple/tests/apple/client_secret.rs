//! The client secret as the simulated Apple sees it: a fresh five-minute ES256 JWT on every
//! exchange, refused (`invalid_client`) when signed with the wrong key, key id or team.

use crate::support::*;
use social_login_conformance::fixture::OTHER_P256_KEY_PEM;
use social_login_domain::SecretText;

#[tokio::test]
async fn every_exchange_sends_a_fresh_secret_valid_for_five_minutes() {
    let sim = FX.start().await;
    // Behind the real time, so the simulator's `iat <= now` holds after the advance too.
    let clock = ManualClock::starting_at(time::Duration::seconds(-40));
    let provider = build(FX.settings(&sim), FIXTURE_SIGNING, clock.clone());
    let first_at = social_login_ports::Clock::now(&*clock).unix_timestamp();
    FX.flow().sign_in(&provider).await.unwrap();
    clock.advance(time::Duration::seconds(20));
    FX.flow().sign_in(&provider).await.unwrap();

    let verified: Vec<(i64, i64)> = token_requests(&sim)
        .iter()
        .map(|r| (r.client_secret_iat.unwrap(), r.client_secret_exp.unwrap()))
        .collect();
    assert_eq!(verified.len(), 2);
    assert_eq!(verified[0].0, first_at, "iat is the adapter's now");
    assert_eq!(
        verified[1].0,
        first_at + 20,
        "a new secret, not the first one again"
    );
    for (iat, exp) in verified {
        assert_eq!(exp - iat, 300);
    }
}

#[tokio::test]
async fn a_secret_signed_with_another_key_is_a_code_exchange_failure() {
    let sim = FX.start().await;
    let wrong = [
        Signing {
            pem: OTHER_P256_KEY_PEM,
            ..FIXTURE_SIGNING
        },
        Signing {
            key_id: "OTHERKEY01",
            ..FIXTURE_SIGNING
        },
        Signing {
            team_id: "OTHERTEAM1",
            ..FIXTURE_SIGNING
        },
    ];
    for signing in wrong {
        let provider = build(
            FX.settings(&sim),
            signing.clone(),
            ManualClock::starting_now(),
        );
        let message = assert_code_exchange(FX.flow().sign_in(&provider).await);
        assert!(message.contains("invalid_client"), "{signing:?}: {message}");
    }
    assert!(
        token_requests(&sim)
            .iter()
            .all(|r| r.client_secret_iat.is_none())
    );
}

#[tokio::test]
async fn a_configured_static_client_secret_is_ignored() {
    let sim = FX.start().await;
    let mut settings = FX.settings(&sim);
    settings.client_secret = SecretText::new("a-static-secret-apple-never-takes");
    let provider = provider_with(settings);
    assert!(FX.flow().sign_in(&provider).await.is_ok());
}

#[tokio::test]
async fn an_unusable_private_key_stops_start_up_naming_the_setting_only() {
    let sim = FX.start().await;
    let garbage = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n";
    let signing = Signing {
        pem: garbage,
        ..FIXTURE_SIGNING
    };
    let error = built(FX.settings(&sim), signing, ManualClock::starting_now())
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("apple_private_key_pem is invalid"),
        "{error}"
    );
    assert!(!error.contains("bm90"), "{error}");
}
