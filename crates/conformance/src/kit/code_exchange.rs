//! Every way the code exchange fails ends as `ProviderError::CodeExchange`, with a message
//! that names the failure and repeats neither the code nor a secret.

use super::{Credentials, SHORT_TIMEOUT, Subject, TIMEOUT, record};
use crate::expect::expect_code_exchange;
use crate::flow::OTHER_VERIFIER;
use social_login_simulator::{ClientAuthKind, Endpoint, Fault};
use std::time::Duration;

pub async fn a_replayed_code_is_refused(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let adapter = subject.adapter(&sim).await;
    let callback = subject.fixture.flow().authorize(&*adapter).await;
    let code = callback.code.as_str();
    let redeem = || callback.complete(&*adapter, crate::VERIFIER);
    redeem().await.expect("the first exchange");
    let message = expect_code_exchange(redeem().await, &subject.secrets(&sim, &[code]));
    assert_eq!(message, subject.refusals.replayed_code);
}

pub async fn a_wrong_pkce_verifier_is_refused(subject: &Subject) {
    let sim = subject.fixture.start().await;
    (subject.enforce_pkce)(&sim);
    let adapter = subject.adapter(&sim).await;
    let callback = subject.fixture.flow().authorize(&*adapter).await;
    let code = callback.code.as_str();
    let result = callback.complete(&*adapter, OTHER_VERIFIER).await;
    match subject.refusals.wrong_verifier {
        Some(refusal) => {
            let message = expect_code_exchange(result, &subject.secrets(&sim, &[code]));
            assert_eq!(message, refusal);
        }
        None => {
            result.expect("a provider that compares no verifier takes a wrong one");
        }
    }
}

pub async fn a_wrong_client_secret_is_refused(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let settings = subject.fixture.settings(&sim);
    let adapter = subject
        .adapter_with(settings, Credentials::Wrong, TIMEOUT)
        .await;
    let result = subject.fixture.flow().sign_in(&*adapter).await;
    match subject.refusals.wrong_secret {
        Some(refusal) => {
            let message = expect_code_exchange(result, &subject.secrets(&sim, &[]));
            assert_eq!(message, refusal);
        }
        None => {
            result.expect("a client that sends no secret is not refused for it");
            let token = record(&sim, subject, Endpoint::Token);
            assert_eq!(
                token.client_auth,
                Some(ClientAuthKind::None),
                "no secret sent"
            );
        }
    }
}

pub async fn a_token_endpoint_server_error(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Token).status(503);
    let message = refused_with(subject, fault, TIMEOUT).await;
    assert_eq!(message, "token endpoint answered HTTP 503");
}

pub async fn an_error_inside_a_200(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Token)
        .error_in_200("temporarily_unavailable");
    let message = refused_with(subject, fault, TIMEOUT).await;
    assert_eq!(
        message,
        "token endpoint answered error `temporarily_unavailable`"
    );
}

pub async fn a_garbage_token_response(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Token).garbage();
    let message = refused_with(subject, fault, TIMEOUT).await;
    assert_eq!(message, "token endpoint answered an unreadable response");
}

pub async fn a_token_endpoint_slower_than_the_timeout(subject: &Subject) {
    let fault =
        Fault::new(subject.fixture.provider, Endpoint::Token).delay(Duration::from_secs(30));
    let message = refused_with(subject, fault, SHORT_TIMEOUT).await;
    assert_eq!(message, "token endpoint timed out");
}

pub async fn an_unreachable_token_endpoint(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let mut settings = subject.fixture.settings(&sim);
    // Port 9 (discard) on loopback: nothing listens there.
    settings.endpoints.token = Some("http://127.0.0.1:9/token".into());
    let adapter = subject.adapter_of(settings).await;
    let result = subject.fixture.flow().sign_in(&*adapter).await;
    let message = expect_code_exchange(result, &subject.secrets(&sim, &[]));
    assert_eq!(message, "token endpoint could not be reached");
}

/// The message of a sign-in whose exchange meets `fault`, with an adapter of `timeout`.
async fn refused_with(subject: &Subject, fault: Fault, timeout: Duration) -> String {
    let (sim, adapter) = subject.meeting(fault, timeout).await;
    let callback = subject.fixture.flow().authorize(&*adapter).await;
    let code = callback.code.as_str();
    let result = callback.complete(&*adapter, crate::VERIFIER).await;
    expect_code_exchange(result, &subject.secrets(&sim, &[code]))
}
