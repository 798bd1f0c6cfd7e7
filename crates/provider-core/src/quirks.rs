//! What a built-in provider does that no declaration can say, as hooks of the one engine.
//! Every hook has a default that is the standard behaviour, so a provider from
//! configuration has none ([`NoQuirks`]) and a built-in overrides only its own.

use crate::api_call::ApiShape;
use crate::emails::EmailsCall;
use crate::http_client::ProviderHttp;
use crate::revocation::RevocationEndpoint;
use async_trait::async_trait;
use serde_json::{Map, Value};
use social_login_domain::{ProviderIdentity, ProviderKey, SecretText};
use social_login_ports::{PostBody, ProviderError, ProviderGrant};
use social_login_provider_spec::Claims;
use std::fmt;
use url::Url;

/// The hooks of one provider. `Debug` must show no secret.
#[async_trait]
pub trait Quirks: Send + Sync + fmt::Debug {
    /// A client secret minted for one request as `client_id` (Apple's ES256 JWT, whose
    /// `sub` names the client: the Services ID, or an app's bundle id for a grant the app
    /// exchanged), used at the token and revocation endpoints in place of the static one.
    /// `None`: the static one, which is the configured `client_id`'s only.
    fn client_secret(&self, client_id: &str) -> Result<Option<SecretText>, ProviderError> {
        let _ = client_id;
        Ok(None)
    }

    /// The authorization URL for one request, as built from the declaration (WeChat checks
    /// its parameters' order). Default: as built.
    fn authorization_url(&self, url: String) -> String {
        url
    }

    /// Parameters of the code exchange beyond RFC 6749's, from the callback's `post_body`
    /// (VK ID's `device_id`). Default: none.
    fn token_params(&self, post_body: Option<&PostBody>) -> Vec<(&'static str, String)> {
        let _ = post_body;
        Vec::new()
    }

    /// What a grant must keep for its refreshes, from the callback's `post_body` (VK ID's
    /// `device_id`), kept with its refresh token ([`crate::grant_context`]). Default: nothing.
    fn grant_context(&self, post_body: Option<&PostBody>) -> Option<String> {
        let _ = post_body;
        None
    }

    /// Parameters of a refresh of a grant that kept `context`. Default: none.
    fn refresh_params(&self, context: &str) -> Vec<(&'static str, String)> {
        let _ = context;
        Vec::new()
    }

    /// The token request as the provider takes it, after the declaration's shape (WeChat's
    /// GET, DingTalk's names). Default: unchanged.
    fn token_request(&self, request: oauth2::HttpRequest) -> oauth2::HttpRequest {
        request
    }

    /// The token answer's body as RFC 6749 words it, from the provider's own names or
    /// failure shape (DingTalk's `accessToken`, WeChat's `errcode`). Default: unchanged.
    fn token_answer(&self, body: Vec<u8>) -> Vec<u8> {
        body
    }

    /// The userinfo request. Default: as the declaration's `[userinfo]` knob says (a Bearer
    /// GET unless it says otherwise).
    fn userinfo_request(&self, call: UserinfoCall<'_>) -> reqwest::RequestBuilder {
        call.as_declared()
    }

    /// A userinfo answer that is a failure in the provider's own shape (Facebook's Graph
    /// error envelope), named before the claims are read. Default: none.
    fn userinfo_failure(&self, document: &Map<String, Value>) -> Option<ProviderError> {
        let _ = document;
        None
    }

    /// Whether `iss` is this provider's, for a rule that depends on the token (Microsoft's
    /// `{tenantid}`). `None`: `iss` must be one of the plan's issuers exactly.
    fn issuer(&self, iss: &str, claims: &Map<String, Value>) -> Option<bool> {
        let _ = (iss, claims);
        None
    }

    /// Completes the identity the declaration's pointers read (a second API call, an avatar
    /// URL built from a hash, a subject scoped by tenant). An email it leaves unset is never
    /// verified, whatever it says.
    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let _ = finish;
        Ok(())
    }

    /// The revocation request, for a provider that does not take an RFC 7009 form (GitHub's
    /// JSON `DELETE`). `None`: the RFC 7009 form the plan describes.
    fn revocation_request(&self, call: RevocationCall<'_>) -> Option<reqwest::RequestBuilder> {
        let _ = call;
        None
    }
}

/// A provider without quirks: every provider from configuration.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoQuirks;

impl Quirks for NoQuirks {}

/// What the userinfo request is made of.
#[derive(Debug, Clone, Copy)]
pub struct UserinfoCall<'a> {
    pub url: &'a Url,
    pub access_token: &'a SecretText,
    /// The scopes the sign-in asked for.
    pub scopes: &'a [String],
    pub http: &'a ProviderHttp,
    /// How the declaration says its API is called.
    pub shape: ApiShape<'a>,
    /// The token answer's members (WeChat's `openid`).
    pub token_members: &'a Map<String, Value>,
}

impl UserinfoCall<'_> {
    /// The request as the declaration's `[userinfo]` knob says.
    pub fn as_declared(&self) -> reqwest::RequestBuilder {
        self.shape.request(self.http, self.url, self.access_token)
    }
}

/// What the revocation request is made of.
#[derive(Debug, Clone, Copy)]
pub struct RevocationCall<'a> {
    pub to: &'a RevocationEndpoint,
    pub grant: &'a ProviderGrant,
}

/// What [`Quirks::finish`] completes, and what it may read.
pub struct Finish<'a> {
    /// Who signed in, as the declaration's pointers read it.
    pub identity: ProviderIdentity,
    pub cx: FinishContext<'a>,
}

/// What [`Quirks::finish`] may read.
#[derive(Debug, Clone, Copy)]
pub struct FinishContext<'a> {
    /// The documents the claims were read from, in order: the id_token claims, then the
    /// userinfo answer.
    pub documents: &'a [&'a Map<String, Value>],
    /// `None` for an id_token an app presented: no provider token comes with it.
    pub access_token: Option<&'a SecretText>,
    /// The callback's or the app's `post_body` (Apple's first form_post).
    pub post_body: Option<&'a PostBody>,
    pub scopes: &'a [String],
    pub http: &'a ProviderHttp,
    /// The token answer's members (its tokens aside), for `token:` pointers; `None` for an
    /// id_token an app presented.
    pub token_members: Option<&'a Map<String, Value>>,
    /// The declaration's emails list, to call with the access token.
    pub emails: Option<EmailsCall<'a>>,
}

impl<'a> FinishContext<'a> {
    /// A context of `documents` alone: no provider token, no `post_body`, no scopes.
    pub fn of(documents: &'a [&'a Map<String, Value>], http: &'a ProviderHttp) -> Self {
        Self {
            documents,
            access_token: None,
            post_body: None,
            scopes: &[],
            http,
            token_members: None,
            emails: None,
        }
    }

    /// The first document (the id_token claims of an `oidc` provider, else the userinfo
    /// answer).
    pub fn first(&self) -> Option<&Map<String, Value>> {
        self.documents.first().copied()
    }
}

/// Who signed in at `key`: `claims` read from the context's documents (and token answer),
/// the email the declaration's emails list vouches for, completed by `quirks`. An email the
/// quirk left unset is not verified.
pub async fn identify(
    claims: &Claims,
    key: ProviderKey,
    quirks: &dyn Quirks,
    cx: FinishContext<'_>,
) -> Result<ProviderIdentity, ProviderError> {
    let sources = crate::claims::Sources {
        documents: cx.documents,
        token: cx.token_members,
    };
    let mut identity = crate::claims::map_sources(sources, claims, key)?;
    if let (Some(emails), Some(token)) = (cx.emails, cx.access_token) {
        emails.apply(&mut identity, cx.http, token).await?;
    }
    let mut finish = Finish { identity, cx };
    quirks.finish(&mut finish).await?;
    let mut identity = finish.identity;
    identity.email_verified &= identity.email.is_some();
    Ok(identity)
}
