//! docs/api.md#linking-rules: a provider that returns no email still signs the user in, without one.

use super::Subject;

pub async fn without_the_email_scope_there_is_no_email(subject: &Subject) {
    let sim = subject.fixture.start().await;
    let declared = subject.adapter(&sim).await;
    let spec = &declared.plan().spec;
    let email_scope = spec.email_scope.as_ref().expect("a declared email scope");
    let mut settings = subject.fixture.settings(&sim);
    let scopes = spec.scopes.iter().filter(|s| *s != email_scope);
    settings.scopes = Some(scopes.cloned().collect());
    let adapter = subject.adapter_of(settings).await;
    let login = subject.fixture.flow().sign_in(&*adapter).await;
    let identity = login.expect("a sign-in without email").identity;
    assert_eq!(identity.email, None);
    assert!(!identity.email_verified);
    // The rest of the profile still comes: every fixture's user has a name.
    assert!(identity.full_name.is_some(), "{identity:?}");
}
