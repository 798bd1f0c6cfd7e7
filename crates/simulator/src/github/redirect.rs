//! GitHub's redirect URI rule: same host (sub-domains allowed) and port, path at or below
//! the registered callback path.
//! <https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#redirect-urls>

use url::Url;

/// Whether GitHub would accept `requested` for an app whose callback is `registered`.
pub fn github_allows(registered: &Url, requested: &Url) -> bool {
    requested.scheme() == registered.scheme()
        && requested.username().is_empty()
        && requested.password().is_none()
        && requested.fragment().is_none()
        && requested.port_or_known_default() == registered.port_or_known_default()
        && host_matches(registered.host_str(), requested.host_str())
        && path_within(registered.path(), requested.path())
}

fn host_matches(registered: Option<&str>, requested: Option<&str>) -> bool {
    match (registered, requested) {
        (Some(registered), Some(requested)) => {
            requested == registered || requested.ends_with(&format!(".{registered}"))
        }
        _ => false,
    }
}

/// `/path` allows `/path` and `/path/sub`, never `/pathology` or `/other`.
fn path_within(registered: &str, requested: &str) -> bool {
    let base = registered.trim_end_matches('/');
    requested == registered || requested == base || requested.starts_with(&format!("{base}/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allows(requested: &str) -> bool {
        let registered = Url::parse("http://example.com/path").unwrap();
        github_allows(&registered, &Url::parse(requested).unwrap())
    }

    // The examples of GitHub's documentation.
    #[test]
    fn documented_good_redirects_are_allowed() {
        let documented = [
            "http://example.com/path",
            "http://example.com/path/subdir/other",
            "http://oauth.example.com/path",
            "http://oauth.example.com/path/subdir/other",
        ];
        for allowed in documented {
            assert!(allows(allowed), "{allowed}");
        }
    }

    #[test]
    fn documented_bad_redirects_and_look_alike_paths_hosts_and_schemes_are_refused() {
        let documented = [
            "http://example.com/bar",
            "http://example.com/",
            "http://example.com:8080/path",
            "http://oauth.example.com:8080/path",
            "http://example.org",
        ];
        let look_alikes = [
            "http://example.com/pathology",
            "http://example.com/path/../bar",
            "http://evilexample.com/path",
            "https://example.com/path",
            "http://user@example.com/path",
            "http://example.com/path#frag",
        ];
        for refused in documented.into_iter().chain(look_alikes) {
            assert!(!allows(refused), "{refused}");
        }
    }
}
