//! Native sign-in (docs/api.md): an app posts the id_token it received on the device
//! (Sign in with Apple, Google Sign-In, MSAL) instead of a code. The adapter verifies it as
//! the code flow does; the login, registration and linking rules are the callback's and
//! connect's. No provider token comes with the id_token, so a new link stores none
//! ([`SealedToken::none`]; docs/decisions.md), and a returning sign-in keeps the tokens a
//! code-flow login stored, which disconnect and deletion revoke the grant with. Each token is
//! accepted once: its id is spent in the state store until the token expires.
//!
//! Sign in with Apple also gives the app an authorization code: posted with the id_token,
//! it is exchanged (after the id_token is verified and spent) as the client the id_token was
//! issued to, and the tokens are stored like a code flow's, so disconnect and deletion
//! revoke the grant at Apple (docs/api.md#native-sign-in). A refused code signs nobody in.
//! Lock, sign-up policy and linking are decided from what is stored before the code is
//! exchanged, so a refused sign-in creates no grant. One refused after the exchange (a
//! concurrent change, a disabled link, an outage) revokes the grant it got under the
//! callback's rule: only when the Apple account is linked to nobody, since Apple's
//! revocation ends the person's whole authorization of the app, the stored grant with it.
//! A connect refused after the exchange revokes nothing for the same reason (the account
//! may have been linked to another user meanwhile).

use crate::EnabledProvider;
use crate::usecases::callback::sign_in_refused;
use crate::usecases::connect::Connected;
use crate::{AppError, AppResult, AuthService, LoginResult};
use sha2::{Digest, Sha256};
use social_login_domain::SealedTokens;
use social_login_domain::admin::check_not_locked;
use social_login_domain::linking::{EmailOwner, LoginDecision, LoginRefused, decide_sign_in};
use social_login_domain::sign_in::SignInRefused;
use social_login_domain::{Origin, ProviderIdentity, ProviderKey, SecretText, Spend, StateId};
use social_login_ports::{
    IdTokenInput, NativeCode, NativeExchange, PostBody, PresentedIdToken, ProviderError,
    ProviderGrant, VerifiedAccess,
};
use tracing::instrument;

/// Longest id_token accepted. Real ones are 1–2 KiB; the bound keeps a hostile body from
/// reaching the base64 and JSON decoders at full request size.
pub const MAX_ID_TOKEN_BYTES: usize = 16 * 1024;
/// Longest raw nonce accepted; apps use 32–64 random characters.
pub const MAX_NONCE_BYTES: usize = 512;
/// Longest authorization code accepted; Apple's are under 100 characters.
pub const MAX_AUTHORIZATION_CODE_BYTES: usize = 2048;

/// A native sign-in or connect, parsed. `Debug` shows no token (they are `SecretText`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdTokenCommand {
    pub provider: EnabledProvider,
    pub id_token: SecretText,
    pub nonce: Option<SecretText>,
    pub post_body: Option<PostBody>,
    /// The authorization code Sign in with Apple gave the app with the id_token.
    pub authorization_code: Option<SecretText>,
}

/// The provider tokens a native sign-in stores: none, or the grant its code was exchanged
/// for, with the client it was issued to.
struct NativeGrant {
    tokens: SealedTokens,
    /// The grant as exchanged, to revoke if the sign-in is refused after all.
    exchanged: Option<ProviderGrant>,
}

impl AuthService {
    /// Parses a native sign-in's raw input: an unknown or disabled provider first (404), then
    /// a missing or oversized id_token or nonce (422; the nonce may be left out only where
    /// the provider's `id_token_nonce` is "optional"). Whether the provider has id_tokens at
    /// all is its adapter's answer (400 `IdTokenNotSupported`).
    pub fn id_token_command(
        &self,
        provider: EnabledProvider,
        id_token: &str,
        nonce: Option<&str>,
        post_body: Option<PostBody>,
    ) -> AppResult<IdTokenCommand> {
        let id_token = bounded("id_token", id_token, MAX_ID_TOKEN_BYTES)?;
        let nonce = match nonce {
            Some(nonce) => Some(bounded("nonce", nonce, MAX_NONCE_BYTES)?),
            None if provider.nonce_required() => {
                return Err(AppError::Validation("nonce is required".into()));
            }
            None => None,
        };
        Ok(IdTokenCommand {
            provider,
            id_token,
            nonce,
            post_body,
            authorization_code: None,
        })
    }

    /// Adds the authorization code the app received with the id_token: 422 when it is
    /// empty or oversized, or for a provider other than Apple (only Sign in with Apple
    /// hands apps one).
    pub fn with_authorization_code(
        &self,
        command: IdTokenCommand,
        code: &str,
    ) -> AppResult<IdTokenCommand> {
        if command.provider.key() != ProviderKey::APPLE {
            return Err(AppError::Validation(
                "authorization_code is taken with apple's id_tokens only".into(),
            ));
        }
        let code = bounded("authorization_code", code, MAX_AUTHORIZATION_CODE_BYTES)?;
        Ok(IdTokenCommand {
            authorization_code: Some(code),
            ..command
        })
    }

    /// Logs in or registers the person the id_token is about (the callback's rules).
    #[instrument(skip_all, fields(provider = %command.provider))]
    pub async fn id_token_sign_in(
        &self,
        command: IdTokenCommand,
        origin: &Origin,
    ) -> AppResult<LoginResult> {
        let code = command.authorization_code.clone();
        let provider = command.provider.clone();
        let presented = self.verify_presented(command).await?;
        if code.is_some() {
            self.decide_native_sign_in(&provider, &presented.identity)
                .await?;
        }
        let grant = self.native_grant(&provider, &presented, code).await?;
        let signed_in = self
            .sign_in_identity(&provider, presented.identity, grant.tokens, origin)
            .await;
        if let Some(exchanged) = grant.exchanged {
            self.revoke_if_unkept(&signed_in, &provider, exchanged)
                .await;
        }
        signed_in
    }

    /// Links the account the id_token is about to `caller` (connect's rules, a recent
    /// login included: checked before the id_token is looked at).
    #[instrument(skip_all, fields(provider = %command.provider))]
    pub async fn id_token_connect(
        &self,
        caller: VerifiedAccess,
        command: IdTokenCommand,
        origin: &Origin,
    ) -> AppResult<Connected> {
        self.require_recent_login(&caller).await?;
        let code = command.authorization_code.clone();
        let provider = command.provider.clone();
        let presented = self.verify_presented(command).await?;
        let identity = &presented.identity;
        if code.is_some() {
            self.decide_connect(caller.user, &identity.account())
                .await?;
        }
        let grant = self.native_grant(&provider, &presented, code).await?;
        self.link_identity(caller.user, identity, grant.tokens, origin)
            .await
    }

    /// The callback's decision about `identity` from what is stored now, written nowhere:
    /// lock, linking and sign-up policy refuse here, before a code is exchanged. The sign-in's
    /// own transaction decides again.
    async fn decide_native_sign_in(
        &self,
        provider: &EnabledProvider,
        identity: &ProviderIdentity,
    ) -> AppResult<()> {
        let users = &self.ports.users;
        let link = users.find_link(&identity.account()).await?;
        let owner = match (&link, &identity.email) {
            (None, Some(email)) => users.find_user_by_email(email).await?,
            _ => None,
        };
        let owner_links = match &owner {
            Some(owner) => users.list_links(owner.id).await?,
            None => Vec::new(),
        };
        let email_owner = owner.as_ref().map(|user| EmailOwner {
            user,
            links: &owner_links,
        });
        let signup = provider.signup();
        let linking = provider.linking(self.policy.auto_link_by_email);
        let decision = match decide_sign_in(identity, link.as_ref(), email_owner, linking, signup) {
            Ok(decision) => decision,
            // A link the owner may confirm: the exchange goes ahead, so the link token
            // carries the grant (the sign-in's transaction answers with it).
            Err(LoginRefused::EmailAlreadyRegistered(refused))
                if refused.confirm_with.is_some() =>
            {
                return Ok(());
            }
            Err(refused) => return Err(sign_in_refused(SignInRefused::from(refused).into())),
        };
        let user = match decision {
            LoginDecision::SignIn { user } | LoginDecision::LinkThenSignIn { user } => {
                users.find_user(user).await?
            }
            LoginDecision::Register => None,
        };
        match user {
            Some(user) => check_not_locked(&user).map_err(|_| AppError::UserLocked),
            None => Ok(()),
        }
    }

    /// With a code: the grant it is exchanged for, as the client the id_token was issued to
    /// (a refusal is 502 and nothing is written; a grant about another person is revoked
    /// first); without: no tokens.
    async fn native_grant(
        &self,
        provider: &EnabledProvider,
        presented: &PresentedIdToken,
        code: Option<SecretText>,
    ) -> AppResult<NativeGrant> {
        let Some(code) = code else {
            return Ok(NativeGrant {
                tokens: SealedTokens::none(),
                exchanged: None,
            });
        };
        let identity = &presented.identity;
        let provider = provider.ready()?;
        let exchanged = provider
            .exchange_native_code(NativeCode {
                code,
                client_id: presented.audience.clone(),
                subject: identity.subject.clone(),
            })
            .await?;
        let tokens = match exchanged {
            NativeExchange::Granted(tokens) => tokens,
            NativeExchange::AnotherPerson(grant) => {
                // Refused and nothing stored, but Apple's grant is live: revoked, best effort.
                self.revoke_unkept_grant(provider, grant).await;
                return Err(ProviderError::CodeExchange(
                    "the code was issued for another person than the id_token".into(),
                )
                .into());
            }
        };
        let client_id = Some(presented.audience.clone());
        let sealed = self.seal(&tokens, client_id.clone());
        let exchanged = ProviderGrant::issued(tokens, client_id);
        let sealed = match sealed {
            Ok(sealed) => sealed,
            Err(error) => {
                self.revoke_unkept_grant(provider, exchanged).await;
                return Err(error);
            }
        };
        Ok(NativeGrant {
            tokens: sealed,
            exchanged: Some(exchanged),
        })
    }

    /// The adapter's verification, then the token spent: of any number of uses of one token,
    /// on any number of instances, one goes on; the others are 502 like any token that fails
    /// a check. Spent after verifying, so only tokens the provider signed take room.
    async fn verify_presented(&self, command: IdTokenCommand) -> AppResult<PresentedIdToken> {
        let provider = command.provider.ready()?.clone();
        let spent_id = spent_id_of(&command.id_token);
        let presented = provider
            .sign_in_with_id_token(IdTokenInput {
                id_token: command.id_token,
                nonce: command.nonce,
                post_body: command.post_body,
            })
            .await?;
        let identity = &presented.identity;
        // An adapter answers for its own provider only; anything else is a bug, not a login.
        if identity.provider != command.provider.key() {
            return Err(AppError::Internal(
                format!(
                    "{} adapter verified an identity of {}",
                    command.provider, identity.provider
                )
                .into(),
            ));
        }
        if self
            .policy
            .id_tokens_issued_since
            .is_some_and(|since| presented.issued_at < since)
        {
            return Err(AppError::UserInfoFailed(
                "id_token was issued before the service started".into(),
            ));
        }
        match self
            .ports
            .states
            .spend(spent_id, presented.usable_until)
            .await?
        {
            Spend::First => Ok(presented),
            Spend::Again => Err(AppError::UserInfoFailed("id_token was already used".into())),
        }
    }
}

/// What the state store records for a used id_token: the first 128 bits of a labelled
/// SHA-256 of its signed part (header and claims, before the last `.`), as unpredictable as
/// a state value's random id, so the two never meet. The signature is left out: it is not
/// signed itself, so another encoding of it (spare base64 bits, an ECDSA `s` turned into
/// `n - s`) would verify too and must not make the same token new. The token itself is never
/// stored.
fn spent_id_of(id_token: &SecretText) -> StateId {
    let token = id_token.expose();
    let signed = token.rsplit_once('.').map_or(token, |(signed, _)| signed);
    let digest = Sha256::new()
        .chain_update(b"social-login id_token\0")
        .chain_update(signed.as_bytes())
        .finalize();
    let mut id = [0; 16];
    id.copy_from_slice(&digest[..16]);
    StateId::from_bytes(id)
}

/// A required text field of at most `max` bytes; the message names the field only.
fn bounded(field: &str, value: &str, max: usize) -> AppResult<SecretText> {
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
