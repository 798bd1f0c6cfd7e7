//! A provider login inside one SQLite transaction (see `crate::sign_in` for the rules): look
//! up, decide with the domain's rule, write, start the session.

use super::columns::{
    Violation, execute, failed, link_at, query_one, time_text, user_at, violation,
};
use super::rows::{insert_link, insert_session, insert_user, links_of, user_by_email};
use super::statements::Db;
use super::{audit, sql};
use crate::error::UniqueIndex;
use crate::mapping::{email_to_column, link_from_columns, user_from_row};
use crate::sign_in::{decide, new_access_token};
use rusqlite::params;
use social_login_domain::admin::check_not_locked;
use social_login_domain::linking::LoginDecision;
use social_login_domain::{LinkedAccount, ProviderKey, ProviderSubject, User};
use social_login_ports::{ProviderSignIn, RepositoryError, SignInError, SignedIn};

pub(super) fn sign_in(db: &Db, sign_in: &ProviderSignIn) -> Result<SignedIn, SignInError> {
    let identity = &sign_in.identity;
    // One connection runs one transaction at a time: no concurrent login can commit between
    // these reads, so they need no second look.
    let existing = link_with_user(db, identity.provider, &identity.subject)?;
    let owner = match (&existing, &identity.email) {
        (None, Some(email)) => match user_by_email(db, &email.normalized())? {
            Some(user) => {
                let links = links_of(db, user.id)?;
                Some((user, links))
            }
            None => None,
        },
        _ => None,
    };
    let (decision, events) = decide(sign_in, existing.as_ref(), owner.as_ref())?;
    let (user, is_new_user) = match (decision, existing, owner) {
        (LoginDecision::SignIn { .. }, Some((link, user)), _) => {
            check_not_locked(&user)?;
            refresh_link(db, &link, sign_in)?;
            (user, false)
        }
        (LoginDecision::LinkThenSignIn { .. }, _, Some((user, _))) => {
            check_not_locked(&user)?;
            insert_link(db, &sign_in.new_link(user.id)).map_err(raced_or_failed)?;
            (user, false)
        }
        (LoginDecision::Register, _, _) => {
            let user = sign_in.new_user();
            insert_user(db, &user).map_err(raced_or_failed)?;
            let user = user.into_user();
            insert_link(db, &sign_in.new_link(user.id)).map_err(raced_or_failed)?;
            (user, true)
        }
        _ => {
            return Err(RepositoryError::Internal("login decided without its rows".into()).into());
        }
    };
    let first = sign_in.session.first_token(user.id, sign_in.now);
    insert_session(db, &first, &sign_in.session)?;
    for (index, kind) in events.iter().enumerate() {
        let event = sign_in
            .audit
            .event(index, *kind, user.id, Some(identity.provider));
        audit::record(db, &event, sign_in.audit.outbox)?;
    }
    Ok(SignedIn { user, is_new_user })
}

/// The link of this provider account and its user, read in one query. A link its provider
/// reported disabled signs nobody in.
fn link_with_user(
    db: &Db,
    provider: ProviderKey,
    subject: &ProviderSubject,
) -> Result<Option<(LinkedAccount, User)>, SignInError> {
    let found = query_one(
        db,
        sql::LINK_WITH_USER,
        params![provider.as_str(), subject.as_str()],
        |row| Ok((link_at(row)?, user_at(row, 6)?, row.get::<_, bool>(15)?)),
    )?;
    match found {
        None => Ok(None),
        Some((_, _, true)) => Err(SignInError::AccountDisabled),
        Some((link, user, false)) => Ok(Some((link_from_columns(link)?, user_from_row(user)?))),
    }
}

/// A returning login: the provider's new tokens (a stored one kept when none came, see
/// `crate::sign_in::refresh_link`) and the email as received.
fn refresh_link(
    db: &Db,
    link: &LinkedAccount,
    sign_in: &ProviderSignIn,
) -> Result<(), SignInError> {
    let updated = execute(
        db,
        sql::REFRESH_LINK,
        params![
            link.id.as_uuid().into_bytes(),
            email_to_column(sign_in.identity.email.as_ref()),
            new_access_token(sign_in),
            sign_in.refresh_token.as_ref().map(|token| token.as_str()),
            time_text(sign_in.now)?,
            sign_in.grant_client_id.as_deref(),
        ],
    )?;
    if updated == 0 {
        return Err(SignInError::Raced);
    }
    Ok(())
}

/// A unique constraint lost to another writer of the file is a race to decide again;
/// anything else is a failure.
fn raced_or_failed(error: rusqlite::Error) -> SignInError {
    match violation(&error) {
        Some(Violation::Unique(
            UniqueIndex::UserEmail
            | UniqueIndex::LinkProviderSubject
            | UniqueIndex::LinkUserProvider,
        )) => SignInError::Raced,
        _ => failed(error).into(),
    }
}
