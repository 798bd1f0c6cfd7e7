//! docs/providers.md, each provider's email-trust rule: an address the provider verified
//! counts as verified exactly when the declaration says the provider vouches for it, and
//! one it did not verify never does. A wrong rule is an account takeover.

use super::Subject;

pub async fn a_verified_address_counts_as_the_declaration_says(subject: &Subject) {
    let user = subject.fixture.user();
    assert!(
        user.email_verified,
        "the fixture's user has a verified address"
    );
    let (email, verified, declared) = signed_in_address(subject, user.clone()).await;
    assert_eq!(email.is_some(), declared.reads_an_address);
    if email.is_some() {
        assert_eq!(email, user.email);
    }
    assert_eq!(verified, email.is_some() && declared.vouches);
}

pub async fn an_unverified_address_never_counts_as_verified(subject: &Subject) {
    let user = subject.fixture.user();
    let address = user
        .email
        .clone()
        .expect("the fixture's user has an address");
    let (email, verified, _) = signed_in_address(subject, user.with_email(address, false)).await;
    assert!(!verified, "{email:?} counted as verified");
}

/// What a declaration says of addresses: whether it reads one, and whether the provider
/// may vouch for it (a verified flag, or one per entry of its emails list).
struct Declared {
    reads_an_address: bool,
    vouches: bool,
}

/// The address a sign-in of `user` gives, whether it counts as verified, and what the
/// declaration says of addresses. (An emails list may hold back an unverified one.)
async fn signed_in_address(
    subject: &Subject,
    user: social_login_simulator::SimUser,
) -> (Option<String>, bool, Declared) {
    let sim = subject.fixture.start_as(user).await;
    let adapter = subject.adapter(&sim).await;
    let login = subject.fixture.flow().sign_in(&*adapter).await;
    let identity = login.expect("a sign-in").identity;
    let spec = &adapter.plan().spec;
    let declared = Declared {
        reads_an_address: spec.reads_an_address(),
        vouches: spec.may_vouch_for_an_address(),
    };
    let email = identity.email.map(|email| email.as_str().to_owned());
    (email, identity.email_verified, declared)
}
