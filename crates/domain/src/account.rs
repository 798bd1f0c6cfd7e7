//! Linked accounts: one provider account tied to one user.

use crate::{
    Email, LinkedAccountId, ProviderAccount, ProviderKey, ProviderSubject, SecretText, UserId,
};
use time::OffsetDateTime;

/// A provider token after encryption: `{key_id}.{base64url(nonce || ciphertext || tag)}`. Safe to store,
/// still never shown, because it is only ever useful to someone who also has the key.
#[derive(Clone, PartialEq, Eq)]
pub struct SealedToken(String);

impl SealedToken {
    pub fn new(sealed: impl Into<String>) -> Self {
        Self(sealed.into())
    }

    /// What a link stores when the provider issued no token: a native id_token sign-in
    /// (docs/api.md#native-sign-in) brings an identity and nothing to call the provider with. The empty
    /// string is no sealed value (no cipher opens it), so it cannot pass for a token.
    pub fn none() -> Self {
        Self(String::new())
    }

    /// True for [`SealedToken::none`]: there is no provider token to open or revoke.
    pub fn is_none(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

redacted_debug!(SealedToken);

/// The scopes a provider granted, as OAuth writes them: one string, space separated (a
/// scope token holds no space, RFC 6749 §3.3). Kept as written, so a login copies one string
/// and a store keeps it as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(String);

impl Scopes {
    /// The scopes of `words`, each a scope token.
    pub fn from_words<W: AsRef<str>>(words: impl IntoIterator<Item = W>) -> Self {
        let mut text = String::new();
        for word in words {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(word.as_ref());
        }
        Self(text)
    }

    /// Scopes as a store keeps them (space separated).
    pub fn from_stored(text: String) -> Self {
        Self(text)
    }

    /// Space separated, as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.split_whitespace()
    }
}

/// The tokens a provider issued for one login, in plaintext, on their way to the cipher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderTokens {
    pub access_token: SecretText,
    pub refresh_token: Option<SecretText>,
    /// The scopes the provider granted: those its answer names, else those asked for
    /// (RFC 6749 §5.1: an answer leaves `scope` out when it granted what was asked).
    pub scopes: Scopes,
    /// How long the access token lives, when the provider said (`expires_in`).
    pub expires_in: Option<std::time::Duration>,
}

/// A stored link, as the API may show it: no tokens here at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedAccount {
    pub id: LinkedAccountId,
    pub user_id: UserId,
    pub provider: ProviderKey,
    pub subject: ProviderSubject,
    /// The email the provider gave, stored as received.
    pub email: Option<Email>,
    /// The scopes its stored tokens were granted (empty when unknown: a native sign-in).
    pub scopes: Scopes,
    pub created_at: OffsetDateTime,
    /// Its provider reported the account disabled (an `account-disabled` signal not yet
    /// followed by `account-enabled`): it signs nobody in and nothing is called for it.
    pub disabled: bool,
}

/// A provider's tokens as a link stores them: sealed, with the scopes they were granted and
/// the client they were issued to when it is not the provider's configured one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedTokens {
    pub access_token: SealedToken,
    pub refresh_token: Option<SealedToken>,
    pub scopes: Scopes,
    /// When the access token stops working, when the provider said.
    pub access_expires_at: Option<OffsetDateTime>,
    pub client_id: Option<String>,
}

impl SealedTokens {
    /// What a login that brought no token stores: nothing replaces what is stored.
    pub fn none() -> Self {
        Self {
            access_token: SealedToken::none(),
            refresh_token: None,
            scopes: Scopes::default(),
            access_expires_at: None,
            client_id: None,
        }
    }
}

/// A link about to be stored, with its tokens already sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLinkedAccount {
    pub id: LinkedAccountId,
    pub user_id: UserId,
    pub provider: ProviderKey,
    pub subject: ProviderSubject,
    pub email: Option<Email>,
    /// The client they were issued to is kept when it is not the provider's configured one
    /// (an app's own, for a grant it exchanged): revocation names it.
    pub tokens: SealedTokens,
    pub created_at: OffsetDateTime,
}

impl NewLinkedAccount {
    /// The provider account it links.
    pub fn account(&self) -> ProviderAccount {
        ProviderAccount {
            provider: self.provider,
            subject: self.subject.clone(),
        }
    }

    pub fn to_linked_account(&self) -> LinkedAccount {
        LinkedAccount {
            id: self.id,
            user_id: self.user_id,
            provider: self.provider,
            subject: self.subject.clone(),
            email: self.email.clone(),
            scopes: self.tokens.scopes.clone(),
            created_at: self.created_at,
            disabled: false,
        }
    }
}

#[cfg(test)]
mod scopes_tests {
    use super::Scopes;

    #[test]
    fn scopes_are_one_space_separated_string_read_back_word_by_word() {
        let scopes = Scopes::from_words(["read:user", "user:email"]);
        assert_eq!(scopes.as_str(), "read:user user:email");
        assert_eq!(
            scopes.iter().collect::<Vec<_>>(),
            ["read:user", "user:email"]
        );
        assert_eq!(Scopes::from_words(Vec::<String>::new()).iter().count(), 0);
        assert_eq!(
            Scopes::from_stored("openid email".into()),
            Scopes::from_words(["openid", "email"])
        );
    }
}
