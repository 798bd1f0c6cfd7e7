//! Rows to domain types and back. Stored data that fails the domain's validation is an
//! `Internal` error, never a panic.

use crate::entity::{linked_account, refresh_family, refresh_token, user};
use crate::error::corrupt;
use sea_orm::ActiveValue::Set;
use social_login_domain::refresh::RefreshFamily;
use social_login_domain::{
    Email, FamilyId, LinkedAccount, LinkedAccountId, NewLinkedAccount, PageLimit, PasswordHash,
    ProviderKey, ProviderSubject, SealedToken, User, UserId,
};
use social_login_ports::{NewRefreshToken, RepoResult, SealedGrant, SessionStart, UserPage};
use time::OffsetDateTime;
use uuid::Uuid;

pub(crate) fn user_from_row(row: user::Model) -> RepoResult<User> {
    Ok(User {
        id: UserId::from_uuid(row.id),
        email: email_from_column(row.email)?,
        full_name: row.full_name,
        avatar_url: row.avatar_url,
        email_verified: row.email_verified,
        password_hash: row.password_hash.map(PasswordHash::new),
        created_at: row.created_at,
        locked: row.locked,
    })
}

/// The page of users out of `rows`, which were read one longer than a page.
pub(crate) fn user_page(rows: Vec<user::Model>, limit: PageLimit) -> RepoResult<UserPage> {
    let users = rows
        .into_iter()
        .map(user_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(UserPage::of_fetched(users, limit))
}

pub(crate) fn link_from_row(row: linked_account::Model) -> RepoResult<LinkedAccount> {
    link_from_columns(LinkColumns {
        id: row.id,
        user_id: row.user_id,
        provider: row.provider,
        subject: row.subject,
        email: row.email,
        scopes: row.scopes,
        created_at: row.created_at,
        disabled: row.disabled,
    })
}

/// The columns of a link that make a [`LinkedAccount`] (its sealed tokens stay behind).
pub(crate) struct LinkColumns {
    pub id: Uuid,
    pub user_id: Uuid,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    /// Space separated.
    pub scopes: String,
    pub created_at: OffsetDateTime,
    pub disabled: bool,
}

pub(crate) fn link_from_columns(row: LinkColumns) -> RepoResult<LinkedAccount> {
    Ok(LinkedAccount {
        id: LinkedAccountId::from_uuid(row.id),
        user_id: UserId::from_uuid(row.user_id),
        provider: provider_from_column(&row.provider)?,
        subject: ProviderSubject::parse(row.subject).map_err(|_| corrupt("provider subject"))?,
        email: email_from_column(row.email)?,
        scopes: social_login_domain::Scopes::from_stored(row.scopes),
        created_at: row.created_at,
        disabled: row.disabled,
    })
}

/// A removed link's sealed tokens, for revocation.
pub(crate) fn grant_from_columns(
    provider: &str,
    access_token: String,
    refresh_token: Option<String>,
    client_id: Option<String>,
) -> RepoResult<SealedGrant> {
    Ok(SealedGrant {
        provider: provider_from_column(provider)?,
        access_token: SealedToken::new(access_token),
        refresh_token: refresh_token.map(SealedToken::new),
        client_id,
    })
}

fn provider_from_column(provider: &str) -> RepoResult<ProviderKey> {
    provider
        .parse::<ProviderKey>()
        .map_err(|_| corrupt("provider key"))
}

/// A family row: revocation and the absolute end live on it.
pub(crate) fn family_from_row(family: &refresh_family::Model) -> RefreshFamily {
    RefreshFamily {
        id: FamilyId::from_uuid(family.id),
        user_id: UserId::from_uuid(family.user_id),
        revoked: family.revoked,
        expires_at: family.expires_at,
        auth_time: family.auth_time,
    }
}

pub(crate) fn user_to_row(user: &User) -> user::ActiveModel {
    user::ActiveModel {
        id: Set(user.id.as_uuid()),
        email: Set(user.email.as_ref().map(|e| e.as_str().to_owned())),
        email_normalized: Set(email_normalized_column(user)),
        full_name: Set(user.full_name.clone()),
        avatar_url: Set(user.avatar_url.clone()),
        email_verified: Set(user.email_verified),
        password_hash: Set(user.password_hash.as_ref().map(|h| h.as_str().to_owned())),
        created_at: Set(user.created_at),
        locked: Set(user.locked),
    }
}

/// Only a claimed email is matched and unique (docs/api.md#linking-rules): an unverified provider email
/// is kept for display in `email` and leaves `email_normalized` NULL.
pub(crate) fn email_normalized_column(user: &User) -> Option<String> {
    user.claimed_email().map(Email::normalized)
}

pub(crate) fn link_to_row(link: &NewLinkedAccount) -> linked_account::ActiveModel {
    let tokens = &link.tokens;
    linked_account::ActiveModel {
        id: Set(link.id.as_uuid()),
        user_id: Set(link.user_id.as_uuid()),
        provider: Set(link.provider.as_str().to_owned()),
        subject: Set(link.subject.as_str().to_owned()),
        email: Set(email_to_column(link.email.as_ref())),
        access_token: Set(tokens.access_token.as_str().to_owned()),
        refresh_token: Set(tokens.refresh_token.as_ref().map(|t| t.as_str().to_owned())),
        created_at: Set(link.created_at),
        updated_at: Set(link.created_at),
        disabled: Set(false),
        disabled_changed_ms: Set(None),
        grant_client_id: Set(tokens.client_id.clone()),
        scopes: Set(tokens.scopes.as_str().to_owned()),
        access_expires_ms: Set(tokens.access_expires_at.map(crate::audit::unix_ms)),
        refresh_lease_until_ms: Set(None),
    }
}

pub(crate) fn refresh_to_row(token: &NewRefreshToken) -> refresh_token::ActiveModel {
    refresh_token::ActiveModel {
        token_hash: Set(token.hash.0.to_vec()),
        user_id: Set(token.user_id.as_uuid()),
        family_id: Set(token.family.as_uuid()),
        created_at: Set(token.created_at),
        expires_at: Set(token.expires_at),
        used: Set(false),
    }
}

/// The family row of `session`, whose first token is `first`.
pub(crate) fn family_to_row(
    first: &NewRefreshToken,
    session: &SessionStart,
) -> refresh_family::ActiveModel {
    refresh_family::ActiveModel {
        id: Set(first.family.as_uuid()),
        user_id: Set(first.user_id.as_uuid()),
        created_at: Set(first.created_at),
        expires_at: Set(session.family_expires_at),
        revoked: Set(false),
        auth_time: Set(session.auth_time),
        began_with: Set(Some(session.began_with.as_str().to_owned())),
    }
}

pub(crate) fn email_to_column(email: Option<&Email>) -> Option<String> {
    email.map(|e| e.as_str().to_owned())
}

fn email_from_column(email: Option<String>) -> RepoResult<Option<Email>> {
    email
        .map(|raw| Email::parse(&raw).map_err(|_| corrupt("email")))
        .transpose()
}
