//! Every broken id_token the simulated LinkedIn can send is refused, naming the check;
//! the missing nonce (LinkedIn's normal) is not a fault, a wrong one is.

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
        (IdTokenFault::Expired, "id_token has expired (exp)"),
        (
            IdTokenFault::IssuedInFuture,
            "id_token is issued in the future (iat)",
        ),
        // LinkedIn sends no nonce; one that is present must still be ours.
        (IdTokenFault::WrongNonce, "id_token nonce does not match"),
    ];
    for (fault, expected) in cases {
        sim.set_id_token_fault(Provider::Linkedin, fault);
        let message = assert_user_info(sign_in(&provider).await);
        assert_eq!(message, expected, "{fault:?}");
    }
    sim.clear_faults();
    assert!(
        sign_in(&provider).await.is_ok(),
        "a clean token still verifies"
    );
}
