//! Every provider the service knows by name says where its API is (`relay_base_urls`,
//! docs/providers.md), unless it has none a user's token opens.

use social_login_provider_spec::catalogue;

/// The declarations without a relay base, and why (each says so where it is declared).
const WITHOUT_AN_API: [&str; 3] = [
    // Apple's access token serves only Sign in with Apple's own endpoints.
    "apple",
    // A custom authorization server's access token is for the operator's APIs, not Okta's.
    "okta",
    // The user-pool APIs take the access token in an AWS JSON-RPC body, not as a Bearer.
    "cognito",
];

#[test]
fn every_provider_but_those_without_an_api_has_a_relay_base() {
    let without: Vec<&str> = catalogue()
        .filter(|spec| spec.relay_base_urls.is_empty())
        .map(|spec| spec.key.as_str())
        .collect();
    assert_eq!(without, WITHOUT_AN_API);
}

#[test]
fn every_relay_base_is_an_https_prefix() {
    for spec in catalogue() {
        for base in &spec.relay_base_urls {
            let rest = base
                .strip_prefix("https://")
                .or_else(|| base.strip_prefix("{issuer}/"));
            assert!(
                rest.is_some_and(|rest| !rest.starts_with('/')),
                "{}: {base} is neither https nor under the tenant's issuer",
                spec.key
            );
            assert!(base.ends_with('/'), "{}: {base} ends in `/`", spec.key);
            assert!(
                !base.contains(['?', '#']),
                "{}: {base} has a query or a fragment",
                spec.key
            );
            assert!(
                !base.contains(char::is_whitespace),
                "{}: {base} has a space",
                spec.key
            );
        }
    }
}

#[test]
fn a_provider_names_each_relay_base_once() {
    for spec in catalogue() {
        let bases = &spec.relay_base_urls;
        for (index, base) in bases.iter().enumerate() {
            assert!(!bases[..index].contains(base), "{}: {base} twice", spec.key);
        }
    }
}
