//! Which callback an authorize request may name, by the dialect's rule: exactly a
//! registered one (or the first registered when none is named), or GitHub's rule (its
//! `redirect` module): the registered host and port, the path at or below.

use crate::authorize::{AuthorizeQuery, Back};
use crate::config::RegisteredClient;
use crate::dialect::{AuthorizeRules, RedirectRule};
use crate::flow::Refusal;
use crate::github::redirect::github_allows;
use url::Url;

/// The trusted way back to `client`, or the refusal the dialect gives.
pub fn back<'q>(
    rules: &AuthorizeRules,
    client: &RegisteredClient,
    q: &'q AuthorizeQuery,
) -> Result<Back<'q>, Refusal> {
    let or_first = match rules.redirect_uri {
        RedirectRule::Exact => false,
        RedirectRule::ExactOrFirst => true,
        RedirectRule::BelowRegistered => return below_registered(rules, client, q),
    };
    let redirect = q
        .exact_redirect(client, or_first)
        .ok_or_else(|| rules.unregistered_redirect.refusal())?;
    Ok(Back::new(redirect, q))
}

/// GitHub's rule; none named is the first registered callback, and a mismatch is reported
/// to that one, never to the callback named.
fn below_registered<'q>(
    rules: &AuthorizeRules,
    client: &RegisteredClient,
    q: &'q AuthorizeQuery,
) -> Result<Back<'q>, Refusal> {
    let registered: Vec<Url> = client
        .redirect_uris
        .iter()
        .filter_map(|u| Url::parse(u).ok())
        .collect();
    let default = registered
        .first()
        .cloned()
        .ok_or_else(|| rules.unregistered_redirect.refusal())?;
    let fallback = Back::new((default.to_string(), default), q);
    let Some(raw) = q.redirect_uri.as_deref() else {
        return Ok(fallback);
    };
    match Url::parse(raw) {
        Ok(url) if registered.iter().any(|r| github_allows(r, &url)) => {
            Ok(Back::new((raw.to_owned(), url), q))
        }
        _ => {
            let description = rules.description.as_deref();
            Err(fallback.refuse("redirect_uri_mismatch", description, &[]))
        }
    }
}
