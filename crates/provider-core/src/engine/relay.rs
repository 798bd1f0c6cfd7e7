//! A relayed call to the provider's API and the refresh of the tokens it is made with: the
//! token goes where the declaration's `[userinfo] token_in` says (a Bearer header where that
//! is the path), with its headers and `User-Agent`; the answer is handed back unread, to be
//! streamed.

use super::Engine;
use crate::failure::user_info_unanswered;
use crate::fetch::MAX_API_RESPONSE_BYTES;
use crate::grant_context::{keep, kept_apart};
use crate::http_client::CallKind;
use crate::plan::Endpoint;
use async_trait::async_trait;
use bytes::Bytes;
use social_login_domain::relay::RelayMethod;
use social_login_domain::{ProviderTokens, SecretText};
use social_login_ports::{
    ApiAnswer, ApiBody, ApiCall, ProviderError, ProviderGrant, RefreshFailure,
};
use url::Url;

impl Engine {
    /// Refreshes `grant` at the refresh endpoint (the token endpoint unless the provider has
    /// one apart); the answer's scopes, when it names any
    /// (none: the stored ones stay).
    pub(super) async fn refresh_grant(
        &self,
        grant: ProviderGrant,
    ) -> Result<ProviderTokens, RefreshFailure> {
        let stored = grant
            .refresh_token
            .ok_or_else(|| RefreshFailure::Refused("no refresh token".into()))?;
        let (context, refresh_token) = kept_apart(&stored);
        let extra = (context.as_deref()).map_or_else(Vec::new, |c| self.quirks.refresh_params(c));
        let mut tokens = self.flow.refresh(&refresh_token, &extra).await?;
        if let Some(context) = &context {
            keep(context, &mut tokens);
        }
        Ok(tokens.into_provider_tokens(&[]))
    }

    /// Whether the provider still honours `token`: `false` only where its userinfo endpoint
    /// answers 401 to it (a provider without one is taken at its word).
    pub(super) async fn token_honoured(&self, token: &SecretText) -> Result<bool, ProviderError> {
        let Some(url) = self.plan.urls.get(Endpoint::Userinfo) else {
            return Ok(true);
        };
        let what = self.plan.label("userinfo endpoint");
        let request = self.api_shape().request(self.flow.http(), url, token);
        let answer = (self.flow.http())
            .send(request, MAX_API_RESPONSE_BYTES, CallKind::Userinfo)
            .await
            .map_err(|error| user_info_unanswered(&what, error))?;
        Ok(answer.status != http::StatusCode::UNAUTHORIZED)
    }

    /// Sends `call` and returns the answer with its body still to read.
    pub(super) async fn relay_call(&self, call: ApiCall) -> Result<ApiAnswer, ProviderError> {
        let url = Url::parse(&call.url)
            .map_err(|_| ProviderError::ApiCall("the relayed URL does not parse".into()))?;
        let mut request = self
            .api_shape()
            .relayed(self.flow.http(), method(call.method), &url, &call.token)
            .timeout(call.timeout);
        for (name, value) in &call.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        if !call.body.is_empty() {
            request = request.body(call.body);
        }
        let request = request
            .build()
            .map_err(|_| ProviderError::ApiCall("the relayed request could not be built".into()))?;
        let sent = self.flow.http().send_streamed(request, CallKind::Api).await;
        // `without_url`: a token that goes in the query must not reach the log.
        let response =
            sent.map_err(|error| ProviderError::ApiCall(error.without_url().to_string()))?;
        let headers = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                let value = value.to_str().ok()?;
                Some((name.as_str().to_owned(), value.to_owned()))
            })
            .collect();
        Ok(ApiAnswer {
            status: response.status().as_u16(),
            headers,
            body: Box::new(StreamedBody(response)),
        })
    }
}

fn method(method: RelayMethod) -> reqwest::Method {
    match method {
        RelayMethod::Get => reqwest::Method::GET,
        RelayMethod::Post => reqwest::Method::POST,
        RelayMethod::Put => reqwest::Method::PUT,
        RelayMethod::Patch => reqwest::Method::PATCH,
        RelayMethod::Delete => reqwest::Method::DELETE,
    }
}

/// The provider's answer body, read as it arrives.
struct StreamedBody(reqwest::Response);

#[async_trait]
impl ApiBody for StreamedBody {
    async fn chunk(&mut self) -> Result<Option<Bytes>, ProviderError> {
        self.0
            .chunk()
            .await
            .map_err(|error| ProviderError::ApiCall(error.without_url().to_string()))
    }

    fn announced_length(&self) -> Option<u64> {
        self.0.content_length()
    }
}
