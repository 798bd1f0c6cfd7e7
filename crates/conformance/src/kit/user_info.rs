//! After a good exchange, a failing user-info endpoint ends as `ProviderError::UserInfo`,
//! naming the endpoint and the failure, never the access token.

use super::{Credentials, SHORT_TIMEOUT, Subject, TIMEOUT};
use crate::expect::expect_user_info;
use social_login_simulator::{Endpoint, Fault};
use std::time::Duration;

pub async fn a_user_info_server_error(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Userinfo).status(503);
    let message = failing_with(subject, fault, TIMEOUT).await;
    assert_eq!(message, format!("{} answered HTTP 503", label(subject)));
}

pub async fn a_garbage_user_info_response(subject: &Subject) {
    let fault = Fault::new(subject.fixture.provider, Endpoint::Userinfo).garbage();
    let message = failing_with(subject, fault, TIMEOUT).await;
    let expected = format!(
        "{} answered a body that is not the expected JSON",
        label(subject)
    );
    assert!(message.starts_with(&expected), "{message}");
}

pub async fn a_user_info_endpoint_slower_than_the_timeout(subject: &Subject) {
    let fault =
        Fault::new(subject.fixture.provider, Endpoint::Userinfo).delay(Duration::from_secs(30));
    // Long enough for the exchange, which meets no fault.
    let message = failing_with(subject, fault, SHORT_TIMEOUT * 2).await;
    assert_eq!(message, format!("{} timed out", label(subject)));
}

fn label(subject: &Subject) -> &'static str {
    subject
        .user_info
        .expect("a row in the user_info group names its endpoint")
}

async fn failing_with(subject: &Subject, fault: Fault, timeout: Duration) -> String {
    let sim = subject.fixture.start().await;
    sim.set_fault(fault);
    let settings = subject.fixture.settings(&sim);
    let adapter = subject.adapter_with(settings, Credentials::Registered, timeout);
    let result = subject.fixture.flow().sign_in(&*adapter).await;
    expect_user_info(result, &subject.secrets(&sim, &[]))
}
