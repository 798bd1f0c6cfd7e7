//! Every broken id_token the simulated Apple can send is a `UserInfo` failure naming the
//! failed check; so is one minted for another sign-in (its nonce).

use crate::support::*;
use social_login_simulator::{IdTokenFault, Provider};

#[tokio::test]
async fn each_broken_id_token_is_a_user_info_failure_naming_its_check() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let cases = [
        (
            IdTokenFault::WrongSignature,
            "id_token signature is invalid",
        ),
        (
            IdTokenFault::UnknownKid,
            "id_token key id is not in the provider's key set",
        ),
        (
            IdTokenFault::AlgNone,
            "id_token algorithm `none` is not allowed",
        ),
        (
            IdTokenFault::HmacWithPublicKey,
            "id_token algorithm `HS256` is not allowed",
        ),
        (
            IdTokenFault::WrongAudience,
            "id_token audience is not this client",
        ),
        (IdTokenFault::WrongIssuer, "id_token issuer is not accepted"),
        (IdTokenFault::Expired, "id_token has expired (exp)"),
        (
            IdTokenFault::IssuedInFuture,
            "id_token is issued in the future (iat)",
        ),
        (IdTokenFault::MissingNonce, "id_token has no nonce"),
        (IdTokenFault::WrongNonce, "id_token nonce does not match"),
    ];
    for (fault, expected) in cases {
        sim.set_id_token_fault(Provider::Apple, fault);
        let message = assert_user_info(sign_in(&sim, &provider).await);
        assert_eq!(message, expected, "{fault:?}");
    }
    sim.clear_faults();
    assert!(
        sign_in(&sim, &provider).await.is_ok(),
        "a clean token still verifies"
    );
}

#[tokio::test]
async fn an_id_token_minted_for_another_sign_in_is_refused_by_its_nonce() {
    let sim = simulator(ada()).await;
    let provider = provider(&sim);
    let form = authorize(&sim, &provider, "nonce-of-another-browser-0123").await;
    let code = form.field("code").unwrap();
    let message = assert_user_info(complete(&provider, code, VERIFIER, NONCE, None).await);
    assert_eq!(message, "id_token nonce does not match");
}

#[tokio::test]
async fn an_issuer_override_replaces_apples_issuer_entirely() {
    // The simulator signs with Apple's real issuer, which the override no longer accepts.
    let sim = simulator(ada()).await;
    let mut settings = settings(&sim);
    settings.endpoints.issuer = Some("https://account.apple.com".into());
    let provider = build(
        settings,
        FIXTURE_SIGNING,
        ManualClock::starting_at(time::Duration::ZERO),
        std::time::Duration::from_secs(10),
    );
    let message = assert_user_info(sign_in(&sim, &provider).await);
    assert_eq!(message, "id_token issuer is not accepted");
}
