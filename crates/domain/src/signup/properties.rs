//! The sign-up policy on generated identities and domains.

use super::*;
use crate::{Email, ProviderKey, ProviderSubject};
use proptest::prelude::*;

fn label() -> impl Strategy<Value = String> {
    "[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?"
}

fn host() -> impl Strategy<Value = String> {
    prop::collection::vec(label(), 2..4).prop_map(|labels| labels.join("."))
}

/// An identity with any email (or none), verified or not, and any hosted domain.
fn identity() -> impl Strategy<Value = ProviderIdentity> {
    (
        prop::option::of(("[a-zA-Z0-9.]{1,10}", host())),
        any::<bool>(),
        prop::option::of(host()),
    )
        .prop_map(|(email, verified, hosted_domain)| ProviderIdentity {
            provider: ProviderKey::GOOGLE,
            subject: ProviderSubject::parse("1").unwrap(),
            email: email.map(|(local, host)| Email::parse(&format!("{local}@{host}")).unwrap()),
            email_verified: verified,
            full_name: None,
            avatar_url: None,
            hosted_domain,
        })
}

fn policy() -> impl Strategy<Value = SignupPolicy> {
    (
        any::<bool>(),
        prop::collection::vec(host(), 0..3),
        any::<bool>(),
    )
        .prop_map(
            |(allow_signup, domains, checks_hosted_domain)| SignupPolicy {
                allow_signup,
                allowed_email_domains: domains
                    .iter()
                    .map(|d| EmailDomain::parse(d).unwrap())
                    .collect(),
                checks_hosted_domain,
            },
        )
}

fn domain_of(identity: &ProviderIdentity) -> Option<String> {
    let email = identity.verified_email()?;
    Some(email.as_str().rsplit_once('@')?.1.to_owned())
}

proptest! {
    #[test]
    fn every_generated_host_name_is_a_domain(host in host()) {
        let domain = EmailDomain::parse(&host).unwrap();
        prop_assert_eq!(domain.as_str(), host.as_str());
    }

    #[test]
    fn a_domain_with_an_uppercase_letter_is_the_same_domain(host in host(), at in any::<prop::sample::Index>()) {
        let index = at.index(host.len());
        let mut bytes = host.clone().into_bytes();
        prop_assume!(bytes[index].is_ascii_lowercase());
        bytes[index] = bytes[index].to_ascii_uppercase();
        let upper = String::from_utf8(bytes).unwrap();
        prop_assert_eq!(EmailDomain::parse(&upper), EmailDomain::parse(&host));
    }

    #[test]
    fn sign_up_turned_off_refuses_everyone(policy in policy(), identity in identity()) {
        let off = SignupPolicy { allow_signup: false, ..policy };
        prop_assert_eq!(off.check_new_user(&identity), Err(SignupRefused::NotAllowed));
    }

    #[test]
    fn without_domains_anyone_signs_up(policy in policy(), identity in identity()) {
        let open = SignupPolicy { allow_signup: true, allowed_email_domains: Vec::new(), ..policy };
        prop_assert_eq!(open.check_new_user(&identity), Ok(()));
    }

    #[test]
    fn a_new_user_past_a_domain_list_has_a_verified_email_in_it(
        policy in policy(),
        identity in identity(),
    ) {
        prop_assume!(policy.allow_signup && !policy.allowed_email_domains.is_empty());
        let listed = |domain: &str| {
            policy.allowed_email_domains.iter().any(|d| d.as_str() == domain.to_ascii_lowercase())
        };
        let email_listed = domain_of(&identity).is_some_and(|d| listed(&d));
        let hd_listed = identity.hosted_domain.as_deref().is_some_and(listed);
        let expected = email_listed && (hd_listed || !policy.checks_hosted_domain);
        prop_assert_eq!(policy.check_new_user(&identity).is_ok(), expected);
    }

    #[test]
    fn the_case_of_the_email_never_changes_the_answer(
        policy in policy(),
        identity in identity(),
    ) {
        let shouted = ProviderIdentity {
            email: identity.email.as_ref().map(|e| Email::parse(&e.as_str().to_ascii_uppercase()).unwrap()),
            hosted_domain: identity.hosted_domain.as_ref().map(|d| d.to_ascii_uppercase()),
            ..identity.clone()
        };
        prop_assert_eq!(policy.check_new_user(&shouted), policy.check_new_user(&identity));
    }

    #[test]
    fn a_subdomain_of_a_listed_domain_is_not_listed(
        host in host(),
        sub in label(),
        local in "[a-z]{1,8}",
    ) {
        let policy = SignupPolicy {
            allowed_email_domains: vec![EmailDomain::parse(&host).unwrap()],
            ..SignupPolicy::default()
        };
        let identity = ProviderIdentity {
            provider: ProviderKey::GITHUB,
            subject: ProviderSubject::parse("1").unwrap(),
            email: Some(Email::parse(&format!("{local}@{sub}.{host}")).unwrap()),
            email_verified: true,
            full_name: None,
            avatar_url: None,
            hosted_domain: None,
        };
        prop_assert_eq!(
            policy.check_new_user(&identity),
            Err(SignupRefused::EmailDomainNotAllowed)
        );
    }
}
