//! GET authorize (docs/api.md#authorize): issue a state value and return the provider URL.
//!
//! Nothing is stored: the state travels sealed in the value itself, so a flood of authorize
//! requests costs CPU only and can never crowd out logins in progress.

use crate::EnabledProvider;
use crate::{AppError, AppResult, AuthService};
use social_login_domain::{OAuthState, Purpose, Scopes, SecretText};
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
        .with_extra_scopes(extra_scopes);
        let request = AuthorizationRequest {
            state: self.ports.state_sealer.seal(&state)?,
            pkce_verifier: state.pkce_verifier,
            nonce: state.nonce,
            extra_scopes: state.extra_scopes,
        };
        Ok(adapter.authorization_url(&request)?)
    }
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
