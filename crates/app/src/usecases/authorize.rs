//! GET authorize (docs/api.md#authorize): issue a state value and return the provider URL.
//!
//! Nothing is stored: the state travels sealed in the value itself, so a flood of authorize
//! requests costs CPU only and can never crowd out logins in progress.

use crate::EnabledProvider;
use crate::{AppError, AppResult, AuthService};
use sha2::{Digest, Sha256};
use social_login_domain::{OAuthState, Purpose, Scopes, SecretText, StateBinding};
use social_login_ports::AuthorizationRequest;
use tracing::instrument;

/// Longest list of extra scopes a connect may ask for, joined by spaces: they travel in the
/// state value, which must stay within what providers accept as `state`.
pub const MAX_EXTRA_SCOPES_BYTES: usize = 150;

/// What an authorize request asks for besides its provider.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthorizeOptions {
    /// `purpose=connect`: a connect, which then needs a valid bearer token.
    pub connect: bool,
    /// `scopes=a,b`: scopes a connect asks for beyond the provider's, each one of its
    /// `connect_scopes`.
    pub scopes: Vec<String>,
    /// `binding=…`: a secret only the client keeps; the callback (or connect) must present it.
    pub binding: Option<SecretText>,
}

impl AuthService {
    /// Starts a login flow, or a connect flow when `bearer` is a valid access token. An
    /// invalid token is not an error here: the request becomes a login (docs/api.md#authorize). A valid
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
        let binding = options.binding.as_ref().map(checked_binding).transpose()?;
        let adapter = provider.ready()?;
        let purpose = match bearer.and_then(|token| self.verify_bearer(token)) {
            Some(caller) => {
                self.require_recent_login(&caller)?;
                Purpose::Connect { user: caller.user }
            }
            None if options.connect => return Err(AppError::Unauthorized),
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

/// Shortest and longest binding secret: as many characters as a PKCE verifier may have
/// (RFC 7636 §4.1), at least 32 of them (about 190 bits from a random URL-safe source).
const BINDING_CHARS: std::ops::RangeInclusive<usize> = 32..=128;

/// The hash of a binding secret, if it is 32 to 128 unreserved URL characters; else 422.
fn checked_binding(secret: &SecretText) -> AppResult<StateBinding> {
    let text = secret.expose();
    let unreserved = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
    if !BINDING_CHARS.contains(&text.len()) || !text.bytes().all(unreserved) {
        return Err(AppError::Validation(
            "binding: 32 to 128 characters of A-Z, a-z, 0-9, `-`, `.`, `_` and `~`".into(),
        ));
    }
    Ok(binding_of(secret))
}

/// What a state value keeps of a binding secret: the first 128 bits of its SHA-256, labelled
/// so it is no other hash of the same text.
pub(crate) fn binding_of(secret: &SecretText) -> StateBinding {
    let digest = Sha256::new()
        .chain_update(b"social-login state binding\0")
        .chain_update(secret.expose().as_bytes())
        .finalize();
    let mut bytes = [0; 16];
    bytes.copy_from_slice(&digest[..16]);
    StateBinding::from_bytes(bytes)
}

/// `asked`, each once, if every one is among the provider's `connect_scopes` and they fit
/// the state value; else 422 naming the first that is not.
fn extra_scopes(provider: &EnabledProvider, asked: &[String]) -> AppResult<Scopes> {
    let allowed = provider.connect_scopes();
    if let Some(refused) = asked.iter().find(|scope| !allowed.contains(scope)) {
        return Err(AppError::Validation(format!(
            "scopes: `{}` is not one of this provider's connect_scopes",
            refused.escape_debug()
        )));
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
