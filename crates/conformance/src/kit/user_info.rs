//! After a good exchange, a failing user-info endpoint ends as `ProviderError::UserInfo`,
//! naming the endpoint and the failure, never the access token.

use super::{SHORT_TIMEOUT, Subject, TIMEOUT, user_info_label};
use crate::expect::expect_user_info;
use social_login_simulator::{Endpoint, Fault};
use std::time::Duration;

pub async fn a_user_info_server_error(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Userinfo).status(503);
    let (message, label) = failing_with(subject, fault, TIMEOUT).await;
    assert_eq!(message, format!("{label} answered HTTP 503"));
}

pub async fn a_garbage_user_info_response(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Userinfo).garbage();
    let (message, label) = failing_with(subject, fault, TIMEOUT).await;
    let expected = format!("{label} answered a body that is not the expected JSON");
    assert!(message.starts_with(&expected), "{message}");
}

pub async fn a_user_info_endpoint_slower_than_the_timeout(subject: &Subject) {
    let fault =
        Fault::new(subject.fixture.provider, Endpoint::Userinfo).delay(Duration::from_secs(30));
    // Long enough for the exchange, which meets no fault.
    let (message, label) = failing_with(subject, fault, SHORT_TIMEOUT * 2).await;
    assert_eq!(message, format!("{label} timed out"));
}

/// The message of a sign-in whose userinfo call meets `fault`, and how the plan names the
/// endpoint.
async fn failing_with(subject: &Subject, fault: Fault, timeout: Duration) -> (String, String) {
    let (sim, adapter) = subject.meeting(fault, timeout).await;
    let label = user_info_label(adapter.plan()).expect("a declared userinfo endpoint");
    let result = subject.fixture.flow().sign_in(&*adapter).await;
    (expect_user_info(result, &subject.secrets(&sim, &[])), label)
}
