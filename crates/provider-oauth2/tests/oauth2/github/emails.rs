//! The emails endpoint fails on its own: without a public email the sign-in fails as
//! `UserInfo`, with one it goes on but the email is never verified.

use super::support::*;
use social_login_conformance::expect_user_info;
use social_login_simulator::{Endpoint, Fault, Provider};

#[tokio::test]
async fn a_failing_emails_endpoint_is_a_user_info_failure_without_a_public_email() {
    let failing = [
        (
            Fault::new(Provider::Github, Endpoint::Emails).status(503),
            "GitHub emails endpoint answered HTTP 503",
        ),
        (
            Fault::new(Provider::Github, Endpoint::Emails).garbage(),
            "GitHub emails endpoint answered a body that is not the expected JSON",
        ),
    ];
    for (fault, expected) in failing {
        let sim = FX.start().await;
        sim.set_fault(fault);
        let result = FX.flow().sign_in(&provider(&sim)).await;
        let message = expect_user_info(result, &FX.secrets(&sim));
        assert!(message.starts_with(expected), "{message}");
    }
}

#[tokio::test]
async fn with_a_public_email_a_failing_emails_endpoint_leaves_it_unverified() {
    let sim = FX
        .start_as(FX.user().with_public_email("ada@example.com"))
        .await;
    sim.set_fault(Fault::new(Provider::Github, Endpoint::Emails).status(500));
    let identity = FX.flow().sign_in(&provider(&sim)).await.unwrap().identity;
    assert_eq!(
        identity.email.as_ref().map(|e| e.as_str()),
        Some("ada@example.com")
    );
    assert!(
        !identity.email_verified,
        "unverifiable emails must never link accounts"
    );
}
