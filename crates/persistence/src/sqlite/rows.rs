//! The reads and inserts several of the SQLite store's transactions share: a user by id or
//! address, a user's links in time order, whether an operator locked one, and the rows a
//! new user, link or session is.

use super::columns::{execute, execute_raw, link_at, query_all, query_one, time_text, user_at};
use super::sql;
use super::statements::Db;
use crate::audit::unix_ms;
use crate::mapping::{email_normalized_column, email_to_column, link_from_columns, user_from_row};
use rusqlite::params;
use social_login_domain::{Email, LinkedAccount, NewLinkedAccount, User, UserId};
use social_login_ports::{NewRefreshToken, RepoResult, RepositoryError, SessionStart};

pub(super) fn find_user(db: &Db, id: UserId) -> RepoResult<Option<User>> {
    query_one(db, sql::USER_BY_ID, [id.as_uuid().into_bytes()], |row| {
        user_at(row, 0)
    })?
    .map(user_from_row)
    .transpose()
}

pub(super) fn user_by_email(db: &Db, normalized: &str) -> RepoResult<Option<User>> {
    query_one(db, sql::USER_BY_EMAIL, [normalized], |row| user_at(row, 0))?
        .map(user_from_row)
        .transpose()
}

/// All links of `user`, oldest first (sorted here: RFC 3339 text order is not time order).
pub(super) fn links_of(db: &Db, user: UserId) -> RepoResult<Vec<LinkedAccount>> {
    let mut links = query_all(db, sql::LINKS_OF, [user.as_uuid().into_bytes()], link_at)?
        .into_iter()
        .map(link_from_columns)
        .collect::<Result<Vec<_>, _>>()?;
    links.sort_by_key(|link| (link.created_at, link.id));
    Ok(links)
}

/// Kept raw: the caller decides what a violated constraint means.
pub(super) fn insert_user(db: &Db, user: &User) -> rusqlite::Result<usize> {
    let created_at = time_text(user.created_at).map_err(to_sql_error)?;
    execute_raw(
        db,
        sql::INSERT_USER,
        params![
            user.id.as_uuid().into_bytes(),
            user.email.as_ref().map(Email::as_str),
            email_normalized_column(user),
            user.full_name,
            user.avatar_url,
            user.email_verified,
            user.password_hash.as_ref().map(|hash| hash.as_str()),
            created_at,
            user.locked,
        ],
    )
}

/// Kept raw: the caller decides what a violated constraint means.
pub(super) fn insert_link(db: &Db, link: &NewLinkedAccount) -> rusqlite::Result<usize> {
    let created_at = time_text(link.created_at).map_err(to_sql_error)?;
    let tokens = &link.tokens;
    execute_raw(
        db,
        sql::INSERT_LINK,
        params![
            link.id.as_uuid().into_bytes(),
            link.user_id.as_uuid().into_bytes(),
            link.provider.as_str(),
            link.subject.as_str(),
            email_to_column(link.email.as_ref()),
            tokens.access_token.as_str(),
            tokens.refresh_token.as_ref().map(|token| token.as_str()),
            created_at,
            tokens.client_id.as_deref(),
            tokens.scopes.as_str(),
            tokens.access_expires_at.map(unix_ms),
        ],
    )
}

fn to_sql_error(error: RepositoryError) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(error.to_string().into())
}

/// Whether an operator locked the user (a missing user is not locked).
pub(super) fn user_is_locked(db: &Db, user: UserId) -> RepoResult<bool> {
    let locked = query_one(db, sql::USER_LOCKED, [user.as_uuid().into_bytes()], |row| {
        row.get::<_, bool>(0)
    })?;
    Ok(locked.unwrap_or(false))
}

/// The family row of `session` and its first token `first` (a new session, or a login's).
pub(super) fn insert_session(
    db: &Db,
    first: &NewRefreshToken,
    session: &SessionStart,
) -> RepoResult<()> {
    execute(
        db,
        sql::INSERT_FAMILY,
        params![
            first.family.as_uuid().into_bytes(),
            first.user_id.as_uuid().into_bytes(),
            time_text(first.created_at)?,
            time_text(session.family_expires_at)?,
            time_text(session.auth_time)?,
            session.began_with.as_str(),
        ],
    )?;
    insert_token(db, first)?;
    Ok(())
}

pub(super) fn insert_token(db: &Db, token: &NewRefreshToken) -> RepoResult<usize> {
    execute(
        db,
        sql::INSERT_TOKEN,
        params![
            token.hash.0,
            token.user_id.as_uuid().into_bytes(),
            token.family.as_uuid().into_bytes(),
            time_text(token.created_at)?,
            time_text(token.expires_at)?,
        ],
    )
}
