//! Which headers a relayed call carries: to the provider, only what describes the body the
//! caller sends and what it accepts back (never the caller's `Authorization` or cookies);
//! back to the caller, only what describes the answer and the provider's rate limits (never
//! `Set-Cookie`, hop-by-hop headers or anything else the provider adds, which may be its
//! own credentials).

/// Request headers passed from the caller to the provider (lowercase).
const FORWARDED: [&str; 3] = ["content-type", "accept", "accept-language"];

/// Answer headers passed back, by exact name (lowercase).
const PASSED_BACK: [&str; 9] = [
    "content-type",
    "content-language",
    "cache-control",
    "etag",
    "last-modified",
    "link",
    "retry-after",
    "location",
    "vary",
];

/// Answer header prefixes passed back: the rate-limit headers providers use
/// (`X-RateLimit-*` at GitHub, Discord, X; `RateLimit-*` of the IETF draft).
const PASSED_BACK_PREFIXES: [&str; 3] = ["x-ratelimit-", "ratelimit", "x-rate-limit-"];

/// Whether the caller's request header `name` (lowercase) goes to the provider.
pub fn forwarded_to_provider(name: &str) -> bool {
    FORWARDED.contains(&name)
}

/// Whether the provider's answer header `name` (lowercase) goes back to the caller.
pub fn passed_back(name: &str) -> bool {
    PASSED_BACK.contains(&name)
        || PASSED_BACK_PREFIXES
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_and_cookies_never_cross_in_either_direction() {
        for name in [
            "authorization",
            "cookie",
            "proxy-authorization",
            "x-api-key",
        ] {
            assert!(!forwarded_to_provider(name), "{name}");
        }
        for name in [
            "set-cookie",
            "connection",
            "transfer-encoding",
            "www-authenticate",
            "x-provider-secret",
            "content-length",
        ] {
            assert!(!passed_back(name), "{name}");
        }
    }

    #[test]
    fn the_body_description_and_rate_limits_do() {
        assert!(forwarded_to_provider("content-type"));
        assert!(forwarded_to_provider("accept"));
        for name in [
            "content-type",
            "x-ratelimit-remaining",
            "x-rate-limit-reset",
            "ratelimit-policy",
            "retry-after",
            "link",
        ] {
            assert!(passed_back(name), "{name}");
        }
    }
}
