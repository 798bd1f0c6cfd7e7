//! CONTRACT §4: a provider that returns no email still signs the user in, without one.

use super::{Credentials, Subject, TIMEOUT};

pub async fn without_the_email_scope_there_is_no_email(subject: &Subject) {
    let email_scope = subject
        .email_scope
        .expect("a row in the email_scope group names its scope");
    let sim = subject.fixture.start().await;
    let mut settings = subject.fixture.settings(&sim);
    let scopes = subject.scopes.iter().filter(|s| **s != email_scope);
    settings.scopes = Some(scopes.map(|s| (*s).to_owned()).collect());
    let adapter = subject.adapter_with(settings, Credentials::Registered, TIMEOUT);
    let login = subject.fixture.flow().sign_in(&*adapter).await;
    let identity = login.expect("a sign-in without email").identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    // The rest of the profile still comes: every fixture's user has a name.
    assert!(identity.full_name.is_some(), "{identity:?}");
}
