//! Native sign-in (CONTRACT §6): an app posts the id_token it received on the device
//! (Sign in with Apple, Google Sign-In, MSAL) instead of a code. The adapter verifies it as
//! the code flow does; the login, registration and linking rules are the callback's and
//! connect's. No provider token comes with it, so a new link stores none
//! ([`SealedToken::none`]; docs/decisions.md), and a returning sign-in keeps the tokens a
//! code-flow login stored, which disconnect and deletion revoke the grant with.

use crate::{AppError, AuthService, LoginResult};
use social_login_domain::{LinkedAccount, Origin, ProviderKey, SealedToken, SecretText};
use social_login_ports::{IdTokenInput, PostBody, VerifiedAccess};
use tracing::instrument;

/// Longest id_token accepted. Real ones are 1–2 KiB; the bound keeps a hostile body from
/// reaching the base64 and JSON decoders at full request size.
pub const MAX_ID_TOKEN_BYTES: usize = 16 * 1024;
/// Longest raw nonce accepted; apps use 32–64 random characters.
pub const MAX_NONCE_BYTES: usize = 512;

/// A native sign-in or connect, parsed. `Debug` shows no token (they are `SecretText`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdTokenCommand {
    pub provider: ProviderKey,
    pub id_token: SecretText,
    pub nonce: Option<SecretText>,
    pub post_body: Option<PostBody>,
}

impl AuthService {
    /// Parses a native sign-in's raw input: an unknown or disabled provider first (404), then
    /// a missing or oversized id_token or nonce (422). Whether the provider has id_tokens at
    /// all is its adapter's answer (400 `IdTokenNotSupported`).
    pub fn id_token_command(
        &self,
        provider: &str,
        id_token: &str,
        nonce: Option<&str>,
        post_body: Option<PostBody>,
    ) -> Result<IdTokenCommand, AppError> {
        let provider = self.enabled_provider(provider)?;
        let id_token = bounded("id_token", id_token, MAX_ID_TOKEN_BYTES)?;
        let nonce = nonce
            .map(|nonce| bounded("nonce", nonce, MAX_NONCE_BYTES))
            .transpose()?;
        Ok(IdTokenCommand {
            provider,
            id_token,
            nonce,
            post_body,
        })
    }

    /// Logs in or registers the person the id_token is about (the callback's rules).
    #[instrument(skip_all, fields(provider = %command.provider))]
    pub async fn id_token_sign_in(
        &self,
        command: IdTokenCommand,
        origin: &Origin,
    ) -> Result<LoginResult, AppError> {
        let identity = self.verify_presented(command).await?;
        self.sign_in_identity(identity, SealedToken::none(), None, origin)
            .await
    }

    /// Links the account the id_token is about to `caller` (connect's rules, a recent
    /// login included: checked before the id_token is looked at).
    #[instrument(skip_all, fields(provider = %command.provider))]
    pub async fn id_token_connect(
        &self,
        caller: VerifiedAccess,
        command: IdTokenCommand,
        origin: &Origin,
    ) -> Result<LinkedAccount, AppError> {
        self.require_recent_login(&caller)?;
        let identity = self.verify_presented(command).await?;
        self.link_identity(caller.user, &identity, SealedToken::none(), None, origin)
            .await
    }

    async fn verify_presented(
        &self,
        command: IdTokenCommand,
    ) -> Result<social_login_domain::ProviderIdentity, AppError> {
        let provider = self.provider(command.provider)?.clone();
        let identity = provider
            .sign_in_with_id_token(IdTokenInput {
                id_token: command.id_token,
                nonce: command.nonce,
                post_body: command.post_body,
            })
            .await?;
        // An adapter answers for its own provider only; anything else is a bug, not a login.
        if identity.provider != command.provider {
            return Err(AppError::Internal(format!(
                "{} adapter verified an identity of {}",
                command.provider, identity.provider
            )));
        }
        Ok(identity)
    }
}

/// A required text field of at most `max` bytes; the message names the field only.
fn bounded(field: &str, value: &str, max: usize) -> Result<SecretText, AppError> {
    if value.is_empty() {
        return Err(AppError::Validation(format!("{field} must not be empty")));
    }
    if value.len() > max {
        return Err(AppError::Validation(format!(
            "{field} is longer than {max} bytes"
        )));
    }
    Ok(SecretText::new(value))
}
