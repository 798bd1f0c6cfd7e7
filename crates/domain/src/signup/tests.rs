//! The sign-up policy on chosen cases: domain spellings, each refusal and Google's `hd`.

use super::*;
use crate::{Email, ProviderKey};

fn domains(list: &[&str]) -> Vec<EmailDomain> {
    list.iter()
        .map(|d| EmailDomain::parse(d).unwrap())
        .collect()
}

fn only(list: &[&str]) -> SignupPolicy {
    SignupPolicy {
        allowed_email_domains: domains(list),
        ..SignupPolicy::default()
    }
}

fn google_only(list: &[&str]) -> SignupPolicy {
    SignupPolicy {
        checks_hosted_domain: true,
        ..only(list)
    }
}

fn person(email: Option<&str>, verified: bool) -> ProviderIdentity {
    crate::test_fixtures::identity(ProviderKey::GOOGLE, "1", email, verified)
}

fn member(email: &str, hd: Option<&str>) -> ProviderIdentity {
    ProviderIdentity {
        hosted_domain: hd.map(str::to_owned),
        ..person(Some(email), true)
    }
}

#[test]
fn host_names_of_lowercase_labels_are_domains() {
    for good in [
        "acme.com",
        "mail.acme.co.uk",
        "xn--bcher-kva.example",
        "a-b.c0",
    ] {
        assert_eq!(EmailDomain::parse(good).unwrap().as_str(), good);
    }
    let longest_label = format!("{}.com", "a".repeat(63));
    assert!(EmailDomain::parse(&longest_label).is_ok());
}

#[test]
fn a_domain_is_refused_with_what_is_wrong() {
    assert_eq!(
        EmailDomain::parse("@acme.com"),
        Err(InvalidEmailDomain::HasAt)
    );
    assert_eq!(
        EmailDomain::parse("ada@acme.com"),
        Err(InvalidEmailDomain::HasAt)
    );
    assert_eq!(
        EmailDomain::parse("Acme.COM").map(|domain| domain.as_str().to_owned()),
        Ok("acme.com".to_owned()),
        "domains match ignoring case: kept in lowercase"
    );
    let too_long = format!("{}.com", vec!["a".repeat(60); 5].join("."));
    let long_label = format!("{}.com", "a".repeat(64));
    for bad in [
        "",
        "acme",
        ".acme.com",
        "acme.com.",
        "acme..com",
        "-acme.com",
        "acme-.com",
        "ac me.com",
        "acmé.com",
        "acme.com/",
        "*.acme.com",
        &too_long,
        &long_label,
    ] {
        assert_eq!(
            EmailDomain::parse(bad),
            Err(InvalidEmailDomain::NotHostName),
            "{bad:?}"
        );
    }
}

const NOT_LISTED: Result<(), SignupRefused> = Err(SignupRefused::EmailDomainNotAllowed);

/// Asserts that `policy` answers `expected` to each of `identities`.
#[track_caller]
fn answers(
    policy: &SignupPolicy,
    expected: Result<(), SignupRefused>,
    identities: impl IntoIterator<Item = ProviderIdentity>,
) {
    for identity in identities {
        // An email's `Debug` is redacted: the case is named by its address and `hd`.
        let email = identity.email.as_ref().map(Email::as_str);
        let hd = &identity.hosted_domain;
        assert_eq!(
            policy.check_new_user(&identity),
            expected,
            "{email:?} {hd:?}"
        );
    }
}

fn verified(email: &str) -> ProviderIdentity {
    person(Some(email), true)
}

#[test]
fn the_default_policy_lets_anyone_sign_up() {
    let anyone = [person(None, false), person(Some("ada@example.com"), false)];
    answers(&SignupPolicy::default(), Ok(()), anyone);
}

#[test]
fn sign_up_turned_off_refuses_every_new_user_whatever_the_domain() {
    let policy = SignupPolicy {
        allow_signup: false,
        ..only(&["acme.com"])
    };
    let member_of_a_listed_domain = member("ada@acme.com", Some("acme.com"));
    answers(
        &policy,
        Err(SignupRefused::NotAllowed),
        [member_of_a_listed_domain],
    );
}

#[test]
fn a_verified_email_in_a_listed_domain_signs_up_ignoring_case() {
    let emails = ["ada@acme.com", "Ada@ACME.Com", "ada@acme.io"];
    answers(
        &only(&["acme.com", "acme.io"]),
        Ok(()),
        emails.map(verified),
    );
}

#[test]
fn a_domain_matches_exactly_never_a_subdomain_parent_or_look_alike() {
    let emails = [
        "ada@mail.acme.com",
        "ada@evilacme.com",
        "ada@acme.com.evil.io",
        "ada@acme.co",
        "\"ada@acme.com\"@evil.io",
        "ada@acme.com.",
    ];
    answers(&only(&["acme.com"]), NOT_LISTED, emails.map(verified));
    answers(
        &only(&["mail.acme.com"]),
        NOT_LISTED,
        [verified("ada@acme.com")],
    );
}

#[test]
fn an_unverified_or_missing_email_never_passes_a_domain_list() {
    let unverified = [person(Some("ada@acme.com"), false), person(None, false)];
    answers(&only(&["acme.com"]), NOT_LISTED, unverified);
}

#[test]
fn google_needs_its_hosted_domain_present_and_listed() {
    let policy = google_only(&["acme.com"]);
    let ada_with = |hd| member("ada@acme.com", hd);
    answers(
        &policy,
        Ok(()),
        [Some("acme.com"), Some("ACME.com")].map(ada_with),
    );
    let unlisted = [None, Some("other.com"), Some("mail.acme.com")];
    answers(&policy, NOT_LISTED, unlisted.map(ada_with));
}

#[test]
fn a_listed_hosted_domain_does_not_excuse_an_unlisted_email() {
    let unlisted_email = member("ada@gmail.com", Some("acme.com"));
    answers(&google_only(&["acme.com"]), NOT_LISTED, [unlisted_email]);
}

#[test]
fn email_and_hosted_domain_may_be_different_listed_domains() {
    // A Workspace (hd acme.com) whose users also have addresses of a secondary domain.
    let policy = google_only(&["acme.com", "acme.io"]);
    answers(&policy, Ok(()), [member("ada@acme.io", Some("acme.com"))]);
}

#[test]
fn a_provider_without_hosted_domains_ignores_one_it_was_given() {
    let other_hd = member("ada@acme.com", Some("other.com"));
    answers(&only(&["acme.com"]), Ok(()), [other_hd]);
}

#[test]
fn a_domain_prints_in_debug_output() {
    let domain = EmailDomain::parse("acme.com").unwrap();
    assert_eq!(format!("{domain:?}"), "EmailDomain(acme.com)");
}
