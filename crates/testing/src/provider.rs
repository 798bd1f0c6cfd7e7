//! A scripted identity provider: answers what the test told it and remembers what it got.

use async_trait::async_trait;
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, IdTokenInput, IdentityProvider, NativeCode,
    NativeExchange, PresentedIdToken, ProviderError, ProviderGrant, ProviderInfo, ProviderLogin,
    Revoked,
};
use social_login_provider_spec::{ProviderKind, built_in_spec};
use std::sync::Mutex;
use time::OffsetDateTime;

/// Until when the fake's id_tokens verify unless a test says otherwise: far enough that no
/// fake clock reaches it by accident (2100-01-01).
const FAKE_ID_TOKEN_USABLE_UNTIL: i64 = 4_102_444_800;
/// The client id a fake provider's id_tokens are issued to.
pub const FAKE_CLIENT_ID: &str = "fake";

/// One provider under a key chosen at construction. Until `answer` is called, every
/// completion fails, so a test cannot pass on an answer it never chose.
pub struct FakeProvider {
    key: ProviderKey,
    /// How clients list it: by default what the built-in declaration of this key says.
    info: ProviderInfo,
    /// What `ready` answers (by default ready).
    ready: Mutex<Result<(), ProviderError>>,
    answer: Mutex<Result<ProviderLogin, ProviderError>>,
    received: Mutex<Vec<CallbackInput>>,
    revoked: Mutex<Vec<ProviderGrant>>,
    revocation: Mutex<Result<Revoked, ProviderError>>,
    /// Native sign-in: an OAuth 2.0-only provider until `answer_id_token` is called.
    id_token_answer: Mutex<Result<ProviderIdentity, ProviderError>>,
    id_token_usable_until: Mutex<OffsetDateTime>,
    id_tokens_received: Mutex<Vec<IdTokenInput>>,
    /// What an app's authorization code is exchanged for (refused until a test says).
    native_code_answer: Mutex<Result<NativeExchange, ProviderError>>,
    native_codes_received: Mutex<Vec<NativeCode>>,
}

impl FakeProvider {
    pub fn new(key: ProviderKey) -> Self {
        Self {
            key,
            info: declared_info(key),
            ready: Mutex::new(Ok(())),
            answer: Mutex::new(Err(ProviderError::CodeExchange(
                "the test gave the fake provider no answer".into(),
            ))),
            received: Mutex::new(Vec::new()),
            revoked: Mutex::new(Vec::new()),
            revocation: Mutex::new(Ok(Revoked::Done)),
            id_token_answer: Mutex::new(Err(ProviderError::IdTokenNotSupported)),
            id_token_usable_until: Mutex::new(
                OffsetDateTime::from_unix_timestamp(FAKE_ID_TOKEN_USABLE_UNTIL)
                    .expect("a valid instant"),
            ),
            id_tokens_received: Mutex::new(Vec::new()),
            native_code_answer: Mutex::new(Err(ProviderError::CodeExchange(
                "the test gave the fake provider no native code answer".into(),
            ))),
            native_codes_received: Mutex::new(Vec::new()),
        }
    }

    /// A provider that describes itself as `info` (a provider from configuration); its key
    /// stays the one given to `new`.
    pub fn with_info(mut self, info: ProviderInfo) -> Self {
        self.info = ProviderInfo {
            key: self.key,
            ..info
        };
        self
    }

    /// What every later `ready` returns: `Err(ProviderError::Unavailable(..))` makes the
    /// provider one whose sign-ins cannot start yet.
    pub fn set_ready(&self, ready: Result<(), ProviderError>) {
        *self.ready.lock().unwrap() = ready;
    }

    /// What every later `revoke` returns (by default `Done`).
    pub fn answer_revocation(&self, outcome: Result<Revoked, ProviderError>) {
        *self.revocation.lock().unwrap() = outcome;
    }

    /// Every grant this provider was asked to revoke, in order.
    pub fn revoked(&self) -> Vec<ProviderGrant> {
        self.revoked.lock().unwrap().clone()
    }

    /// What every later `complete` returns.
    pub fn answer(&self, outcome: Result<ProviderLogin, ProviderError>) {
        *self.answer.lock().unwrap() = outcome;
    }

    /// Every callback input this provider was asked to complete, in order.
    pub fn received(&self) -> Vec<CallbackInput> {
        self.received.lock().unwrap().clone()
    }

    /// What every later native sign-in (`sign_in_with_id_token`) returns.
    pub fn answer_id_token(&self, outcome: Result<ProviderIdentity, ProviderError>) {
        *self.id_token_answer.lock().unwrap() = outcome;
    }

    /// Until when the id_tokens of later native sign-ins verify (their `exp` plus leeway).
    pub fn id_tokens_usable_until(&self, until: OffsetDateTime) {
        *self.id_token_usable_until.lock().unwrap() = until;
    }

    /// Every native sign-in input this provider was asked to verify, in order.
    pub fn id_tokens_received(&self) -> Vec<IdTokenInput> {
        self.id_tokens_received.lock().unwrap().clone()
    }

    /// What every later exchange of an app's authorization code returns.
    pub fn answer_native_code(&self, outcome: Result<NativeExchange, ProviderError>) {
        *self.native_code_answer.lock().unwrap() = outcome;
    }

    /// Every app authorization code this provider was asked to exchange, in order.
    pub fn native_codes_received(&self) -> Vec<NativeCode> {
        self.native_codes_received.lock().unwrap().clone()
    }
}

#[async_trait]
impl IdentityProvider for FakeProvider {
    fn key(&self) -> ProviderKey {
        self.key
    }

    fn info(&self) -> ProviderInfo {
        self.info.clone()
    }

    fn ready(&self) -> Result<(), ProviderError> {
        self.ready.lock().unwrap().clone()
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> Result<String, ProviderError> {
        self.ready()?;
        Ok(format!(
            "https://{}.idp.test/authorize?client_id={FAKE_CLIENT_ID}&state={}",
            self.key,
            request.state.as_str()
        ))
    }

    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        self.received.lock().unwrap().push(callback);
        self.answer.lock().unwrap().clone()
    }

    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        self.revoked.lock().unwrap().push(grant);
        self.revocation.lock().unwrap().clone()
    }

    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        self.id_tokens_received.lock().unwrap().push(input);
        let identity = self.id_token_answer.lock().unwrap().clone()?;
        let usable_until = *self.id_token_usable_until.lock().unwrap();
        Ok(PresentedIdToken {
            identity,
            // An hour's token, as providers issue them.
            issued_at: usable_until - time::Duration::HOUR,
            usable_until,
            audience: FAKE_CLIENT_ID.to_owned(),
        })
    }

    async fn exchange_native_code(
        &self,
        code: NativeCode,
    ) -> Result<NativeExchange, ProviderError> {
        self.native_codes_received.lock().unwrap().push(code);
        self.native_code_answer.lock().unwrap().clone()
    }
}

/// How a provider of `key` is listed: as its built-in declaration says, else (a provider
/// from configuration the test did not describe) an OAuth 2.0 provider named by its key.
fn declared_info(key: ProviderKey) -> ProviderInfo {
    match built_in_spec(key) {
        Some(spec) => ProviderInfo {
            key,
            display_name: spec.display_name.clone(),
            kind: spec.kind,
            id_token: spec.native_sign_in(),
        },
        None => ProviderInfo {
            key,
            display_name: key.to_string(),
            kind: ProviderKind::OAuth2,
            id_token: false,
        },
    }
}

/// The `state` query parameter of an authorization URL (state values need no decoding).
pub fn state_in(url: &str) -> String {
    let (_, query) = url.split_once('?').expect("the URL has a query");
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("state="))
        .expect("the URL carries a state")
        .to_owned()
}
