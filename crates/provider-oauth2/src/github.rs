//! GitHub (docs/providers.md#github): the declaration reads `/user`; the quirks add the REST
//! API's headers, the emails list that says which email to trust ([`emails`]), and the grant
//! endpoint's own revocation request.

mod emails;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;

use async_trait::async_trait;
use reqwest::RequestBuilder;
use reqwest::header::{ACCEPT, HeaderName, HeaderValue};
use serde::Serialize;
use social_login_ports::ProviderError;
use social_login_provider_core::{
    Endpoint, Finish, ProviderPlan, Quirks, RevocationCall, UserinfoCall,
};
use url::Url;

// Static header names and values: a `&str` is parsed and copied into a new header on every
// request.
/// Pins the REST API version so a GitHub default change cannot alter the answers.
const API_VERSION: (HeaderName, HeaderValue) = (
    HeaderName::from_static("x-github-api-version"),
    HeaderValue::from_static("2022-11-28"),
);
const API_MEDIA_TYPE: HeaderValue = HeaderValue::from_static("application/vnd.github+json");

/// GitHub's quirks: where its emails list is.
#[derive(Debug, Clone)]
pub struct GithubQuirks {
    emails: Option<Url>,
}

impl GithubQuirks {
    pub fn new(plan: &ProviderPlan) -> Self {
        Self {
            emails: plan.urls.get(Endpoint::Emails).cloned(),
        }
    }
}

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
    fn userinfo_request(&self, call: UserinfoCall<'_>) -> RequestBuilder {
        rest(call.bearer_get())
    }

    /// The email comes from the emails list: the public `/user` email the declaration read
    /// is verified only if the list says so.
    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let (Some(url), Some(token)) = (&self.emails, finish.cx.access_token) else {
            return Ok(());
        };
        let identity = &mut finish.identity;
        let public = identity.email.take();
        let request = rest(finish.cx.http.get(url.clone()).bearer_auth(token.expose()));
        let listed = emails::fetch(finish.cx.http, request, public.is_some()).await?;
        let listed = listed.as_deref().unwrap_or_default();
        (identity.email, identity.email_verified) = emails::choose(public, listed);
        Ok(())
    }

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
