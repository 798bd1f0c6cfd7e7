//! A provider login in one transaction: look up, decide with the domain's rule, write, and
//! start the session, so a login is all written or not at all (a `kill -9` halfway leaves
//! nothing), and takes one round of statements instead of several transactions.

use crate::SeaOrmRepository;
use crate::entity::{linked_account, refresh_family, refresh_token, user};
use crate::error::{UniqueIndex, repository_error, unique_violation};
use crate::mapping::{
    email_to_column, family_to_row, link_from_row, link_to_row, refresh_to_row, user_from_row,
    user_to_row,
};
use crate::queries;
use sea_orm::ActiveValue::Set;
use sea_orm::{DatabaseTransaction, DbErr, EntityTrait};
use social_login_domain::admin::check_not_locked;
use social_login_domain::linking::{EmailOwner, LoginDecision, decide_sign_in};
use social_login_domain::{
    AuditEventType, Email, LinkedAccount, NewLinkedAccount, NewUser, ProviderKey, ProviderSubject,
    User,
};
use social_login_ports::{ProviderSignIn, RepositoryError, SignInError, SignedIn};

pub(crate) async fn sign_in_with_provider(
    repo: &SeaOrmRepository,
    sign_in: ProviderSignIn,
) -> Result<SignedIn, SignInError> {
    let txn = repo.begin_write().await?;
    let identity = &sign_in.identity;
    let mut existing = link_with_user(&txn, identity.provider, &identity.subject).await?;
    let owner = match (&existing, &identity.email) {
        (None, Some(email)) => email_owner(&txn, email).await?,
        _ => None,
    };
    if existing.is_none() && owner.is_some() {
        // At READ COMMITTED each statement has its own snapshot: a concurrent first login
        // of this very account may have committed its user and link between the two reads.
        // A user is always committed with its first link, so a second look sees it if so.
        existing = link_with_user(&txn, identity.provider, &identity.subject).await?;
    }
    let (decision, events) = decide(&sign_in, existing.as_ref(), owner.as_ref())?;
    let (user, is_new_user) = match (decision, existing, owner) {
        (LoginDecision::SignIn { .. }, Some((link, user)), _) => {
            refuse_locked(&user)?;
            refresh_link(&txn, &link, &sign_in).await?;
            (user, false)
        }
        (LoginDecision::LinkThenSignIn { .. }, _, Some((user, _))) => {
            refuse_locked(&user)?;
            insert_link(&txn, new_link(&sign_in, &user)).await?;
            (user, false)
        }
        (LoginDecision::Register, _, _) => {
            let user = new_user(&sign_in);
            insert_user(&txn, &user).await?;
            let user = user.into_user();
            insert_link(&txn, new_link(&sign_in, &user)).await?;
            (user, true)
        }
        _ => {
            return Err(RepositoryError::Internal("login decided without its rows".into()).into());
        }
    };
    let first = sign_in.session.first_token(user.id, sign_in.now);
    refresh_family::Entity::insert(family_to_row(&first, &sign_in.session))
        .exec_without_returning(&txn)
        .await
        .map_err(repository_error)?;
    refresh_token::Entity::insert(refresh_to_row(&first))
        .exec_without_returning(&txn)
        .await
        .map_err(repository_error)?;
    let audit = &sign_in.audit;
    let recorded: Vec<_> = events
        .iter()
        .enumerate()
        .map(|(index, kind)| audit.event(index, *kind, user.id, Some(identity.provider)))
        .collect();
    crate::audit::record_all(&txn, recorded, audit.outbox).await?;
    txn.commit().await.map_err(repository_error)?;
    Ok(SignedIn { user, is_new_user })
}

/// The link of this provider account and its user, read in one query. A link its provider
/// reported disabled signs nobody in.
async fn link_with_user(
    txn: &DatabaseTransaction,
    provider: ProviderKey,
    subject: &ProviderSubject,
) -> Result<Option<(LinkedAccount, User)>, SignInError> {
    let found = queries::link_with_user(provider, subject)
        .one(txn)
        .await
        .map_err(repository_error)?;
    match found {
        None => Ok(None),
        Some((link, _)) if link.disabled => Err(SignInError::AccountDisabled),
        Some((link, Some(user))) => Ok(Some((link_from_row(link)?, user_from_row(user)?))),
        // The foreign key makes this impossible; a broken row is not the caller's fault.
        Some((_, None)) => Err(RepositoryError::Internal("a link without its user".into()).into()),
    }
}

/// The user who claims `email`, with that user's links (for the one-account-per-provider
/// rule).
async fn email_owner(
    txn: &DatabaseTransaction,
    email: &Email,
) -> Result<Option<(User, Vec<LinkedAccount>)>, RepositoryError> {
    let Some(row) = queries::user_by_email(&email.normalized())
        .one(txn)
        .await
        .map_err(repository_error)?
    else {
        return Ok(None);
    };
    let owner = user_from_row(row)?;
    let links = crate::users::links_of(txn, owner.id).await?;
    Ok(Some((owner, links)))
}

/// A returning login: the provider's new tokens and the email as received. A stored token
/// is never replaced by none: the old refresh token stays when none came (most providers
/// send one only on the first consent), and both stay after a native sign-in, which brings
/// no token (they are what revokes the grant on disconnect and deletion).
async fn refresh_link(
    txn: &DatabaseTransaction,
    link: &LinkedAccount,
    sign_in: &ProviderSignIn,
) -> Result<(), SignInError> {
    let mut changes = linked_account::ActiveModel {
        email: Set(email_to_column(sign_in.identity.email.as_ref())),
        updated_at: Set(sign_in.now),
        ..Default::default()
    };
    if let Some(access_token) = new_access_token(sign_in) {
        changes.access_token = Set(access_token.to_owned());
        changes.grant_client_id = Set(sign_in.grant_client_id.clone());
    }
    if let Some(refresh_token) = &sign_in.refresh_token {
        changes.refresh_token = Set(Some(refresh_token.as_str().to_owned()));
    }
    let updated = queries::update_link(link.id)
        .set(changes)
        .exec(txn)
        .await
        .map_err(repository_error)?;
    // Zero rows: disconnected since it was read (PostgreSQL); decide again.
    if updated.rows_affected == 0 {
        return Err(SignInError::Raced);
    }
    Ok(())
}

/// The access token a returning login stores: none when it brought none (a native sign-in),
/// so the one stored stays. Both adapters' logins go through here.
pub(crate) fn new_access_token(sign_in: &ProviderSignIn) -> Option<&str> {
    (!sign_in.access_token.is_none()).then(|| sign_in.access_token.as_str())
}

/// The domain's decision on what was read, under the provider's sign-up policy, and the
/// audit events it records; both adapters' logins go through here.
pub(crate) fn decide(
    sign_in: &ProviderSignIn,
    existing: Option<&(LinkedAccount, User)>,
    owner: Option<&(User, Vec<LinkedAccount>)>,
) -> Result<(LoginDecision, &'static [AuditEventType]), SignInError> {
    let decision = decide_sign_in(
        &sign_in.identity,
        existing.map(|(link, _)| link),
        owner.map(|(user, links)| EmailOwner { user, links }),
        sign_in.auto_link_by_email,
        &sign_in.signup,
    )?;
    let events = social_login_domain::audit::sign_in_events(&decision);
    Ok((decision, events))
}

/// A locked user is signed in by no provider account, linked or matched by email; both
/// adapters' logins go through here before they write.
pub(crate) fn refuse_locked(user: &User) -> Result<(), SignInError> {
    check_not_locked(user).map_err(|_| SignInError::UserLocked)
}

pub(crate) fn new_user(sign_in: &ProviderSignIn) -> NewUser {
    let identity = &sign_in.identity;
    NewUser {
        id: sign_in.new_user_id,
        email: identity.email.clone(),
        full_name: identity.full_name.clone(),
        avatar_url: identity.avatar_url.clone(),
        email_verified: identity.verified_email().is_some(),
        password_hash: None,
        created_at: sign_in.now,
    }
}

pub(crate) fn new_link(sign_in: &ProviderSignIn, user: &User) -> NewLinkedAccount {
    let identity = &sign_in.identity;
    NewLinkedAccount {
        id: sign_in.new_link_id,
        user_id: user.id,
        provider: identity.provider,
        subject: identity.subject.clone(),
        email: identity.email.clone(),
        access_token: sign_in.access_token.clone(),
        refresh_token: sign_in.refresh_token.clone(),
        grant_client_id: sign_in.grant_client_id.clone(),
        created_at: sign_in.now,
    }
}

async fn insert_user(txn: &DatabaseTransaction, user: &NewUser) -> Result<(), SignInError> {
    user::Entity::insert(user_to_row(user))
        .exec_without_returning(txn)
        .await
        .map(|_| ())
        .map_err(raced_or_failed)
}

async fn insert_link(txn: &DatabaseTransaction, link: NewLinkedAccount) -> Result<(), SignInError> {
    linked_account::Entity::insert(link_to_row(&link))
        .exec_without_returning(txn)
        .await
        .map(|_| ())
        .map_err(raced_or_failed)
}

/// A unique constraint lost to a concurrent request (same email, same provider account,
/// same user and provider) is a race to decide again; anything else is a failure.
fn raced_or_failed(err: DbErr) -> SignInError {
    match unique_violation(&err) {
        Some(
            UniqueIndex::UserEmail
            | UniqueIndex::LinkProviderSubject
            | UniqueIndex::LinkUserProvider,
        ) => SignInError::Raced,
        None => repository_error(err).into(),
    }
}
