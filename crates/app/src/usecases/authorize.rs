//! GET authorize (docs/api.md#authorize): issue a state value and return the provider URL.
//!
//! Nothing is stored: the state travels sealed in the value itself, so a flood of authorize
//! requests costs CPU only and can never crowd out logins in progress. (A connect's reads
//! the bearer's session by its key, one row.)

use crate::EnabledProvider;
use crate::{AppError, AppResult, AuthService};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use social_login_domain::{OAuthState, Purpose, Scopes, SecretText, StateBinding};
use social_login_ports::AuthorizationRequest;
use tracing::instrument;

/// Longest list of extra scopes a connect may ask for, joined by spaces: they travel in the
/// state value, which must stay within what providers accept as `state`.
pub const MAX_EXTRA_SCOPES_BYTES: usize = 150;

/// Which flow an authorize request asks for (`purpose`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AskedPurpose {
    /// No `purpose`: a connect with a valid bearer token, else a login.
    #[default]
    FromBearer,
    /// `purpose=login`: a login, whatever token comes with it.
    Login,
    /// `purpose=connect`: a connect, which then needs a valid bearer token.
    Connect,
}

/// What an authorize request asks for besides its provider.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthorizeOptions {
    pub purpose: AskedPurpose,
    /// `scopes=a,b`: scopes a connect asks for beyond the provider's, each one of its
    /// `connect_scopes`.
    pub scopes: Vec<String>,
    /// `binding_challenge=…`: the BASE64URL SHA-256 of a secret only the client keeps (as
    /// PKCE's S256 challenge); the callback (or connect) must present the secret.
    pub binding_challenge: Option<String>,
}

impl AuthService {
    /// Starts a login flow, or a connect flow when `bearer` is a valid access token (unless
    /// the request asks for a login). An invalid token is not an error here: the request
    /// becomes a login (docs/api.md#authorize). A valid
    /// token whose session's login is not recent is 401 `ReauthenticationRequired` now,
    /// rather than after the user has been through the provider: connect would refuse it.
    #[instrument(skip_all, fields(provider = %provider))]
    pub async fn authorize(
        &self,
        provider: EnabledProvider,
        bearer: Option<&str>,
        options: AuthorizeOptions,
    ) -> AppResult<String> {
        let extra_scopes = extra_scopes(&provider, &options.scopes)?;
        let binding = (options.binding_challenge.as_deref())
            .map(challenged_binding)
            .transpose()?;
        let adapter = provider.ready()?;
        let caller = match options.purpose {
            AskedPurpose::Login => None,
            _ => bearer.and_then(|token| self.verify_bearer(token)),
        };
        let purpose = match caller {
            Some(caller) => {
                self.require_recent_login(&caller).await?;
                Purpose::Connect { user: caller.user }
            }
            None if options.purpose == AskedPurpose::Connect => {
                return Err(AppError::Unauthorized);
            }
            None if !extra_scopes.as_str().is_empty() => {
                return Err(AppError::Validation(
                    "scopes: only a connect (with the user's bearer token) asks for more".into(),
                ));
            }
            None => Purpose::Login,
        };
        let now = self.ports.clock.now();
        let state = OAuthState::issue(
            self.random_state_id(),
            adapter.key(),
            purpose,
            SecretText::new(self.random_url_token()),
            SecretText::new(self.random_url_token()),
            now,
            self.policy.state_ttl,
        )
        .with_extra_scopes(extra_scopes)
        .bound_to(binding);
        let request = AuthorizationRequest {
            state: self.ports.state_sealer.seal(&state)?,
            pkce_verifier: state.pkce_verifier,
            nonce: state.nonce,
            extra_scopes: state.extra_scopes,
        };
        Ok(adapter.authorization_url(&request)?)
    }
}

/// The binding a challenge names: 43 characters, the BASE64URL (unpadded) SHA-256 of the
/// client's secret, as a PKCE S256 challenge is (RFC 7636 §4.2); else 422. Only the hash
/// travels in authorize's URL, so a log of it gives nobody the secret.
fn challenged_binding(challenge: &str) -> AppResult<StateBinding> {
    let decoded = URL_SAFE_NO_PAD.decode(challenge).ok();
    let digest =
        (decoded.and_then(|digest| <[u8; 32]>::try_from(digest).ok())).ok_or_else(|| {
            AppError::Validation(
                "binding_challenge: the BASE64URL SHA-256 of the secret (43 characters)".into(),
            )
        })?;
    Ok(StateBinding::of_digest(&digest))
}

/// The binding a presented secret proves: its SHA-256, as [`challenged_binding`] reads it.
pub(crate) fn binding_of(secret: &SecretText) -> StateBinding {
    StateBinding::of_digest(&Sha256::digest(secret.expose().as_bytes()).into())
}

/// `asked`, each once, if every one is among the provider's `connect_scopes` and they fit
/// the state value; else 422 (which never repeats what was asked: an error detail holds no
/// submitted value).
fn extra_scopes(provider: &EnabledProvider, asked: &[String]) -> AppResult<Scopes> {
    let allowed = provider.connect_scopes();
    if asked.iter().any(|scope| !allowed.contains(scope)) {
        return Err(AppError::Validation(
            "scopes: each must be one of this provider's connect_scopes".into(),
        ));
    }
    let mut unique: Vec<&str> = Vec::with_capacity(asked.len());
    for scope in asked {
        if !unique.contains(&scope.as_str()) {
            unique.push(scope);
        }
    }
    let scopes = Scopes::from_words(unique);
    if scopes.as_str().len() > MAX_EXTRA_SCOPES_BYTES {
        return Err(AppError::Validation(format!(
            "scopes: at most {MAX_EXTRA_SCOPES_BYTES} bytes of scopes"
        )));
    }
    Ok(scopes)
}
