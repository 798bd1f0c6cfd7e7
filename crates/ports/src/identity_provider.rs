//! The identity provider port: one implementation per provider, all behind one trait.

mod api;
mod info;

pub use api::{ApiAnswer, ApiBody, ApiCall, RefreshFailure};
pub use info::ProviderInfo;

use async_trait::async_trait;
use social_login_domain::{
    ProviderIdentity, ProviderKey, ProviderSubject, ProviderTokens, RedeemedState, Scopes,
    SecretText, StateToken,
};
use std::fmt;
use time::OffsetDateTime;

/// What the authorization URL must carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationRequest {
    pub state: StateToken,
    /// The adapter sends only its S256 challenge (unless the provider has PKCE turned off).
    pub pkce_verifier: SecretText,
    /// Sent by providers that echo it in their id_token, and checked there.
    pub nonce: SecretText,
    /// Scopes a connect asks for beyond the provider's (empty for a login).
    pub extra_scopes: Scopes,
}

/// What came back to the callback, after the state value was redeemed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallbackInput {
    pub code: SecretText,
    pub redeemed: RedeemedState,
    /// The callback's `post_body`, untouched: only the adapter of the provider that sends
    /// one reads it (Apple's first form_post); the others ignore it.
    pub post_body: Option<PostBody>,
}

/// The callback's `post_body` as the client sent it (docs/api.md#callback), as JSON text: its shape
/// is the provider's business, so only that provider's adapter parses it. Its size is
/// bounded by the request body limit. `Debug` hides it: it may hold a name and an email.
#[derive(Clone, PartialEq, Eq)]
pub struct PostBody(String);

impl PostBody {
    pub fn new(json: impl Into<String>) -> Self {
        Self(json.into())
    }

    pub fn as_json(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for PostBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PostBody({} bytes)", self.0.len())
    }
}

/// What a native app posted (docs/api.md): the id_token it received on the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdTokenInput {
    pub id_token: SecretText,
    /// The raw nonce the app chose; the token must carry its hex SHA-256. `None` (allowed
    /// only where the provider's nonce is optional): the token must then carry no nonce.
    pub nonce: Option<SecretText>,
    /// Apple's first-authorization body as the app received it (the name); others ignore it.
    pub post_body: Option<PostBody>,
}

/// A verified id_token an app presented: who it is about, when it was issued (its `iat`), and
/// until when the token would still verify (its `exp` plus the clock leeway), which is how
/// long it is remembered as used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresentedIdToken {
    pub identity: ProviderIdentity,
    pub issued_at: OffsetDateTime,
    pub usable_until: OffsetDateTime,
    /// The client id it was issued to (its `aud`, one of the registration's client ids):
    /// the client an authorization code that came with it is exchanged as.
    pub audience: String,
}

/// An authorization code an app received together with its id_token (Sign in with Apple
/// on a device), to exchange as the client the id_token was issued to. `Debug` shows no
/// code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeCode {
    pub code: SecretText,
    /// The id_token's audience: the app's own client id (an iOS bundle id).
    pub client_id: String,
    /// Who the id_token is about: the grant must be theirs.
    pub subject: ProviderSubject,
}

/// What exchanging an app's authorization code gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NativeExchange {
    /// The grant of the person the id_token is about.
    Granted(ProviderTokens),
    /// The provider issued a grant about another person: the sign-in is refused, and the
    /// caller revokes this just-issued grant (as the app's client id) so it does not stay live.
    AnotherPerson(ProviderGrant),
}

/// A completed provider sign-in: who it is, and the provider's tokens (to be sealed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderLogin {
    pub identity: ProviderIdentity,
    pub tokens: ProviderTokens,
}

/// Why a provider sign-in failed. The message is for logs: it names what went wrong
/// (status, error code, claim) and never carries a code, token or secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// The token endpoint refused the code, answered an `error`, garbage, or timed out.
    #[error("code exchange failed: {0}")]
    CodeExchange(String),
    /// The profile, emails or id_token could not be fetched or did not verify.
    #[error("user info failed: {0}")]
    UserInfo(String),
    /// The provider has no id_tokens an app could present (the OAuth 2.0-only ones).
    #[error("this provider offers no sign-in with an id_token")]
    IdTokenNotSupported,
    /// The revocation endpoint refused, failed or timed out.
    #[error("revocation failed: {0}")]
    Revocation(String),
    /// A relayed call to the provider's API could not be made or its answer not read
    /// (unreachable, timed out, cut off): 502.
    #[error("provider API call failed: {0}")]
    ApiCall(String),
    /// The provider cannot serve sign-ins yet (a provider from configuration whose
    /// discovery document has not been read): 503, and nothing of the flow was used up.
    #[error("provider unavailable: {0}")]
    Unavailable(String),
}

/// A link's grant at its provider, with the stored tokens opened: what revocation sends.
/// `Debug` shows no token.
#[derive(derive_more::Debug, Clone, PartialEq, Eq)]
pub struct ProviderGrant {
    #[debug(skip)]
    pub access_token: SecretText,
    #[debug("{}", refresh_token.is_some())]
    pub refresh_token: Option<SecretText>,
    /// The client the grant was issued to when not the provider's configured `client_id`
    /// (an Apple grant an app exchanged: its bundle id); the revocation names it.
    pub client_id: Option<String>,
}

impl ProviderGrant {
    /// The grant `tokens` are of, issued to `client_id` (`None`: the configured one).
    pub fn issued(tokens: ProviderTokens, client_id: Option<String>) -> Self {
        Self {
            access_token: tokens.access_token,
            refresh_token: tokens.refresh_token,
            client_id,
        }
    }
}

/// What a revocation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revoked {
    /// The provider confirmed it (or already had no such grant).
    Done,
    /// The provider has no revocation endpoint (Microsoft): nothing was sent.
    NotSupported,
}

/// One external identity provider.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait IdentityProvider: Send + Sync {
    fn key(&self) -> ProviderKey;

    /// How clients list this provider: the name and kind its declaration gives it.
    fn info(&self) -> ProviderInfo;

    /// Whether sign-ins can start now. Asked before any state value is minted or spent
    /// (authorize, callback, connect, id-token); accounts, disconnect and deletion do not
    /// ask. The default is always ready; a provider that must first learn where it is
    /// (discovery) answers `Unavailable` until it knows.
    fn ready(&self) -> Result<(), ProviderError> {
        Ok(())
    }

    /// The URL to send the browser to; `Unavailable` while the provider is not ready.
    fn authorization_url(&self, request: &AuthorizationRequest) -> Result<String, ProviderError>;

    /// Exchanges the code (with the PKCE verifier) and fetches the normalised identity.
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError>;

    /// Revokes the grant at the provider (on disconnect and account deletion). Callers
    /// treat it as best effort: a failure is logged and counted, never blocks anything.
    /// The default is a provider without a revocation endpoint.
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        let _ = grant;
        Ok(Revoked::NotSupported)
    }

    /// Verifies an id_token an app obtained natively (signature, issuer, expiry, one of the
    /// registration's client ids as audience, the hashed nonce) and returns who it is about.
    /// No provider token comes with it. Providers without id_tokens keep this default.
    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        let _ = input;
        Err(ProviderError::IdTokenNotSupported)
    }

    /// Exchanges the authorization code an app received with its id_token, as the client
    /// the id_token was issued to, for tokens of the same person: a grant that disconnect
    /// and deletion can revoke. A grant about another person is handed back to be revoked
    /// ([`NativeExchange::AnotherPerson`]). Only Sign in with Apple hands apps such a code;
    /// the default refuses it.
    /// Trades a link's refresh token for new tokens (a relayed call's server-side refresh).
    /// The default is a provider that refreshes nothing.
    async fn refresh(&self, grant: ProviderGrant) -> Result<ProviderTokens, RefreshFailure> {
        let _ = grant;
        Err(RefreshFailure::Refused(
            "this provider refreshes no token".into(),
        ))
    }

    /// Sends a relayed call to the provider's API with the user's access token where the
    /// provider expects it, without following a redirect, within `call.timeout`; the
    /// answer's body is read by the caller, chunk by chunk.
    async fn call_api(&self, call: ApiCall) -> Result<ApiAnswer, ProviderError> {
        let _ = call;
        Err(ProviderError::ApiCall(
            "this provider has no API to call".into(),
        ))
    }

    /// Whether the provider still honours `token`, asked at its userinfo endpoint: `false`
    /// only where that answers 401. Asked when a relayed call got a 401 and no refresh token
    /// is stored to try: one endpoint's 401 (a wrong path, a scope not granted) is no proof
    /// the grant is gone. The default: it does.
    async fn honours(&self, token: SecretText) -> Result<bool, ProviderError> {
        let _ = token;
        Ok(true)
    }

    async fn exchange_native_code(
        &self,
        code: NativeCode,
    ) -> Result<NativeExchange, ProviderError> {
        let _ = code;
        Err(ProviderError::CodeExchange(
            "this provider takes no authorization_code from apps".into(),
        ))
    }
}
