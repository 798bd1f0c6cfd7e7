use super::*;
use proptest::prelude::*;

fn refused(raw: &str) -> BadRelayPath {
    RelayPath::parse(raw).expect_err(raw)
}

#[test]
fn an_api_path_is_taken_as_it_came() {
    for path in [
        "",
        "user",
        "user/repos",
        "repos/ada/notes/issues",
        "v1/projects/p:run",
        "users/ada%20lovelace",
        "files/a%2Bb",
        "collection/",
    ] {
        assert_eq!(RelayPath::parse(path).unwrap().as_str(), path);
    }
}

#[test]
fn paths_that_could_leave_the_base_are_refused_before_any_io() {
    let too_long = "a".repeat(MAX_RELAY_PATH_BYTES + 1);
    let cases: [(BadRelayPath, &[&str]); 7] = [
        (BadRelayPath::DotSegment, &["../admin", "user/..", "./user"]),
        (
            BadRelayPath::EmptySegment,
            &["/evil.example/x", "user//repos"],
        ),
        (
            BadRelayPath::ForbiddenCharacter,
            &[
                "user@evil.example",
                "user\\..\\admin",
                "user#fragment",
                "user?admin=1",
                "user\nHost: evil",
            ],
        ),
        (
            BadRelayPath::Scheme,
            &["https:evil.example", "javascript:x"],
        ),
        (
            BadRelayPath::EncodedSeparator,
            &[
                "%2e%2e/admin",
                "user%2F..%2Fadmin",
                "user%5cadmin",
                "user%252e%252e",
                "user%00",
            ],
        ),
        (BadRelayPath::BadEscape, &["user%2", "user%zz"]),
        (BadRelayPath::TooLong, &[too_long.as_str()]),
    ];
    for (why, paths) in cases {
        for path in paths {
            assert_eq!(refused(path), why, "{path:?}");
        }
    }
}

#[test]
fn the_url_is_the_base_the_path_and_the_query() {
    let path = RelayPath::parse("user/repos").unwrap();
    assert_eq!(
        relay_url("https://api.github.com/", &path, "per_page=5"),
        "https://api.github.com/user/repos?per_page=5"
    );
    assert_eq!(
        relay_url("https://api.github.com/", &path, ""),
        "https://api.github.com/user/repos"
    );
    assert_eq!(check_relay_query("a=1&b=%20"), Ok(()));
    assert_eq!(
        check_relay_query("a=1#x"),
        Err(BadRelayPath::ForbiddenCharacter)
    );
}

#[test]
fn a_path_is_never_logged() {
    let path = RelayPath::parse("users/ada").unwrap();
    assert_eq!(format!("{path:?}"), "RelayPath([redacted])");
}

proptest! {
    /// Whatever a client sends, an accepted path and query keep the call on the base's host
    /// and under its path, as a standard URL parser (the provider's, say) reads the URL.
    #[test]
    fn an_accepted_path_never_leaves_the_base(path in "[a-zA-Z0-9%./:@\\\\?#_~-]{0,24}",
                                              query in "[a-zA-Z0-9%=&./:@?#_-]{0,12}") {
        let base = "https://api.example.com/v2/";
        if let (Ok(path), Ok(())) = (RelayPath::parse(&path), check_relay_query(&query)) {
            let url = url::Url::parse(&relay_url(base, &path, &query)).unwrap();
            prop_assert_eq!(url.host_str(), Some("api.example.com"));
            prop_assert!(url.path().starts_with("/v2/"), "{}", url);
            prop_assert!(url.username().is_empty() && url.fragment().is_none());
        }
    }
}
