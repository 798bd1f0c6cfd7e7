//! Every broken id_token the simulated Microsoft can send is refused, naming the check.

use crate::support::*;
use social_login_simulator::{IdTokenFault, Provider};

#[tokio::test]
async fn each_broken_id_token_is_a_user_info_failure_naming_its_check() {
    let sim = simulator().await;
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
        (
            IdTokenFault::TenantMismatch,
            "id_token issuer is not accepted",
        ),
        (IdTokenFault::Expired, "id_token has expired (exp)"),
        (
            IdTokenFault::IssuedInFuture,
            "id_token is issued in the future (iat)",
        ),
        (IdTokenFault::MissingNonce, "id_token has no nonce"),
        (IdTokenFault::WrongNonce, "id_token nonce does not match"),
    ];
    for (fault, expected) in cases {
        sim.set_id_token_fault(Provider::Microsoft, fault);
        let message = assert_user_info(sign_in(&provider).await);
        assert_eq!(message, expected, "{fault:?}");
    }
    sim.clear_faults();
    assert!(
        sign_in(&provider).await.is_ok(),
        "a clean token still verifies"
    );
}

#[tokio::test]
async fn a_work_tenant_token_claiming_another_tenants_issuer_is_refused() {
    let sim = simulator().await;
    sim.set_id_token_fault(Provider::Microsoft, IdTokenFault::TenantMismatch);
    let message = assert_user_info(sign_in_as(&provider(&sim), "grace").await);
    assert_eq!(message, "id_token issuer is not accepted");
}

#[tokio::test]
async fn an_id_token_minted_for_another_sign_in_is_refused_by_its_nonce() {
    let sim = simulator().await;
    let provider = provider(&sim);
    let code = authorize_as(&provider, "ada", "nonce-of-another-browser-0123").await;
    let message = assert_user_info(complete(&provider, &code, VERIFIER, NONCE).await);
    assert_eq!(message, "id_token nonce does not match");
}
