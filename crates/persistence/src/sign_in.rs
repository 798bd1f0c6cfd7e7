//! A provider login in one transaction: look up, decide with the domain's rule, write, and
//! start the session, so a login is all written or not at all (a `kill -9` halfway leaves
//! nothing). On PostgreSQL the writes are one statement (`one_statement`), its own
//! transaction: a returning user costs two statements and no `BEGIN`/`COMMIT`.

use crate::SeaOrmRepository;
use crate::entity::{linked_account, user};
use crate::error::{UniqueIndex, repository_error, unique_violation};
use crate::held_connection::HeldConnection;
use crate::mapping::{
    email_to_column, family_to_row, link_from_row, link_to_row, refresh_to_row, user_from_row,
    user_to_row,
};
use crate::queries;
use one_statement::LoginStatement;
use sea_orm::ActiveValue::Set;
use sea_orm::{
    ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, EntityTrait,
};
use social_login_domain::admin::check_not_locked;
use social_login_domain::linking::{EmailOwner, LoginDecision, decide_sign_in};
use social_login_domain::{
    AuditEvent, AuditEventType, Email, LinkedAccount, NewLinkedAccount, NewUser, ProviderKey,
    ProviderSubject, User,
};
use social_login_ports::{ProviderSignIn, RepositoryError, SignInError, SignedIn};

mod one_statement;
#[cfg(test)]
mod tests;

pub(crate) async fn sign_in_with_provider(
    repo: &SeaOrmRepository,
    sign_in: ProviderSignIn,
) -> Result<SignedIn, SignInError> {
    if repo.connection().get_database_backend() == DbBackend::Postgres {
        return sign_in_in_one_statement(repo.connection(), &sign_in).await;
    }
    let txn = repo.begin_write().await?;
    let signed_in = sign_in_in_transaction(&txn, &sign_in).await?;
    txn.commit().await.map_err(repository_error)?;
    Ok(signed_in)
}

/// PostgreSQL: the reads, then every write in one statement (`one_statement`), on one held
/// connection: a returning user costs two statements, no `BEGIN`/`COMMIT`, one checkout.
async fn sign_in_in_one_statement(
    db: &DatabaseConnection,
    sign_in: &ProviderSignIn,
) -> Result<SignedIn, SignInError> {
    let held = HeldConnection::acquire(db.get_postgres_connection_pool())
        .await
        .map_err(repository_error)?;
    let (write, user, events) = plan(&held, sign_in).await?;
    let is_new_user = matches!(write, LinkWrite::Register(_));
    // No row: the link was removed or disabled since it was read; decide again.
    if !login_statement(&write, &user, events, sign_in)
        .run(&held)
        .await
        .map_err(raced_or_failed)?
    {
        return Err(SignInError::Raced);
    }
    Ok(SignedIn { user, is_new_user })
}

/// Every write of the login `plan` decided, as one statement.
fn login_statement(
    write: &LinkWrite,
    user: &User,
    events: &'static [AuditEventType],
    sign_in: &ProviderSignIn,
) -> LoginStatement {
    let mut statement = match write {
        LinkWrite::Refresh(link) => LoginStatement::refresh_link(link, sign_in),
        LinkWrite::Link => LoginStatement::insert_link(link_to_row(&sign_in.new_link(user.id))),
        LinkWrite::Register(new) => {
            LoginStatement::register(user_to_row(new), link_to_row(&sign_in.new_link(user.id)))
        }
    };
    let first = sign_in.session.first_token(user.id, sign_in.now);
    statement.then_insert(family_to_row(&first, &sign_in.session));
    statement.then_insert(refresh_to_row(&first));
    for event in audit_events(sign_in, events, user) {
        statement.then_record(&event, sign_in.audit.outbox);
    }
    statement
}

/// SQLite through sea-orm (tooling and the adapter's tests; the service serves SQLite with
/// rusqlite): one statement at a time inside the caller's transaction.
async fn sign_in_in_transaction(
    txn: &DatabaseTransaction,
    sign_in: &ProviderSignIn,
) -> Result<SignedIn, SignInError> {
    let (write, user, events) = plan(txn, sign_in).await?;
    let is_new_user = matches!(write, LinkWrite::Register(_));
    match write {
        LinkWrite::Refresh(link) => refresh_link(txn, &link, sign_in).await?,
        LinkWrite::Link => insert_link(txn, sign_in.new_link(user.id)).await?,
        LinkWrite::Register(new) => {
            insert_user(txn, &new).await?;
            insert_link(txn, sign_in.new_link(user.id)).await?;
        }
    }
    let first = sign_in.session.first_token(user.id, sign_in.now);
    crate::refresh_tokens::insert_session(txn, &first, &sign_in.session).await?;
    crate::audit::record_all(
        txn,
        audit_events(sign_in, events, &user),
        sign_in.audit.outbox,
    )
    .await?;
    Ok(SignedIn { user, is_new_user })
}

/// What a login writes to the link (and users) table.
enum LinkWrite {
    /// A returning user: the link's tokens and email.
    Refresh(LinkedAccount),
    /// A known user (by email) gets this provider's link.
    Link,
    /// A new user with its first link.
    Register(NewUser),
}

/// Looks up, decides with the domain's rule: what to write, for which user, and the audit
/// events it records.
async fn plan<C: ConnectionTrait>(
    db: &C,
    sign_in: &ProviderSignIn,
) -> Result<(LinkWrite, User, &'static [AuditEventType]), SignInError> {
    let identity = &sign_in.identity;
    let mut existing = link_with_user(db, identity.provider, &identity.subject).await?;
    let owner = match (&existing, &identity.email) {
        (None, Some(email)) => email_owner(db, email).await?,
        _ => None,
    };
    if existing.is_none() && owner.is_some() {
        // At READ COMMITTED each statement has its own snapshot: a concurrent first login
        // of this very account may have committed its user and link between the two reads.
        // A user is always committed with its first link, so a second look sees it if so.
        existing = link_with_user(db, identity.provider, &identity.subject).await?;
    }
    let (decision, events) = decide(sign_in, existing.as_ref(), owner.as_ref())?;
    match (decision, existing, owner) {
        (LoginDecision::SignIn { .. }, Some((link, user)), _) => {
            check_not_locked(&user)?;
            Ok((LinkWrite::Refresh(link), user, events))
        }
        (LoginDecision::LinkThenSignIn { .. }, _, Some((user, _))) => {
            check_not_locked(&user)?;
            Ok((LinkWrite::Link, user, events))
        }
        (LoginDecision::Register, _, _) => {
            let new = sign_in.new_user();
            let user = new.clone().into_user();
            Ok((LinkWrite::Register(new), user, events))
        }
        _ => Err(RepositoryError::Internal("login decided without its rows".into()).into()),
    }
}

/// The audit rows of `events`, for `user`.
fn audit_events(
    sign_in: &ProviderSignIn,
    events: &'static [AuditEventType],
    user: &User,
) -> impl Iterator<Item = AuditEvent> {
    let provider = sign_in.identity.provider;
    events
        .iter()
        .enumerate()
        .map(move |(index, kind)| sign_in.audit.event(index, *kind, user.id, Some(provider)))
}

/// The link of this provider account and its user, read in one query. A link its provider
/// reported disabled signs nobody in.
async fn link_with_user<C: ConnectionTrait>(
    txn: &C,
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
async fn email_owner<C: ConnectionTrait>(
    txn: &C,
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
    let links = crate::rows::links_of(txn, owner.id).await?;
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
