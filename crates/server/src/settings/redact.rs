//! What `Debug` output shows of a URL from the settings: never a password or a token.

/// A URL's origin and path, without user info, query or fragment, for `Debug` output.
#[expect(
    dead_code,
    reason = "called only by derived `Debug` impls, which dead-code analysis does not count"
)]
pub(crate) fn url_without_query(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(url) => format!("{}{}", url.origin().ascii_serialization(), url.path()),
        Err(_) => "[unparsable URL]".to_owned(),
    }
}

/// A URL with any password replaced, for `Debug` output (`postgres://app:pw@db/x`).
#[expect(
    dead_code,
    reason = "called only by derived `Debug` impls, which dead-code analysis does not count"
)]
pub(crate) fn redact_url_password(raw: &str) -> String {
    // An unparsable URL may still hold a password: print none of it.
    let Ok(mut parsed) = url::Url::parse(raw) else {
        return "[unparsable URL]".to_owned();
    };
    let is_password = |key: &str| key.eq_ignore_ascii_case("password");
    let in_query = parsed.query_pairs().any(|(key, _)| is_password(&key));
    if parsed.password().is_none() && !in_query {
        return raw.to_owned();
    }
    // Cannot fail: a URL that has a password can have another one.
    let _ = parsed.set_password(parsed.password().map(|_| "REDACTED"));
    if in_query {
        // PostgreSQL's URLs (libpq, sqlx) also take it as `?password=`.
        let pairs: Vec<(String, String)> = parsed
            .query_pairs()
            .map(|(key, value)| {
                let value = if is_password(&key) {
                    "REDACTED".into()
                } else {
                    value
                };
                (key.into_owned(), value.into_owned())
            })
            .collect();
        parsed.query_pairs_mut().clear().extend_pairs(pairs);
    }
    parsed.to_string()
}
