//! GitHub (docs/providers.md#github): the declaration reads `/user`, its REST API headers
//! and the emails list that says which email to trust (`[emails]`); the quirk is the grant
//! endpoint's own revocation request.

#[cfg(test)]
mod tests;

use async_trait::async_trait;
use reqwest::RequestBuilder;
use reqwest::header::{ACCEPT, HeaderName, HeaderValue};
use serde::Serialize;
use social_login_provider_core::{Quirks, RevocationCall};

// Static header names and values: a `&str` is parsed and copied into a new header on every
// request.
/// Pins the REST API version so a GitHub default change cannot alter the answers.
const API_VERSION: (HeaderName, HeaderValue) = (
    HeaderName::from_static("x-github-api-version"),
    HeaderValue::from_static("2022-11-28"),
);
const API_MEDIA_TYPE: HeaderValue = HeaderValue::from_static("application/vnd.github+json");

/// GitHub's quirk: its grant revocation.
#[derive(Debug, Clone, Copy)]
pub struct GithubQuirks;

/// `request` as GitHub's REST API asks: its media type and the pinned version.
fn rest(request: RequestBuilder) -> RequestBuilder {
    request
        .header(ACCEPT, API_MEDIA_TYPE)
        .header(API_VERSION.0, API_VERSION.1)
}

/// The body of a grant revocation.
#[derive(Serialize)]
struct Grant<'a> {
    access_token: &'a str,
}

#[async_trait]
impl Quirks for GithubQuirks {
    /// `DELETE /applications/{client_id}/grant` with HTTP Basic client credentials and the
    /// access token in a JSON body: the grant, not one token, so every token goes with it.
    /// A 404 is not "already gone": GitHub answers 404 to refused client credentials too,
    /// and a wrong secret must show in the logs.
    fn revocation_request(&self, call: RevocationCall<'_>) -> Option<RequestBuilder> {
        let to = call.to;
        let request = to.http().reqwest().delete(to.url().clone());
        let body = Grant {
            access_token: call.grant.access_token.expose(),
        };
        let secret = to.client_secret().expose();
        Some(rest(
            request.basic_auth(to.client_id(), Some(secret)).json(&body),
        ))
    }
}
