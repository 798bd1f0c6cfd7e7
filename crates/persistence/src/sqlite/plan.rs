//! Applying the domain's write plans on SQLite, inside the caller's transaction: the one
//! place this store writes what a rule decided.

use super::columns::{Violation, execute, failed, time_text, violation};
use super::rows::{insert_link, insert_session, insert_token, insert_user};
use super::statements::Db;
use super::{audit, sql};
use crate::audit::unix_ms;
use crate::mapping::email_to_column;
use rusqlite::params;
use social_login_domain::Scopes;
use social_login_domain::plan::{LinkRefresh, Write, WritePlan};
use social_login_domain::relay::GrantRenewal;
use social_login_ports::PlanError;

/// Applies `plan`'s writes in order, then records its events. The caller's transaction
/// makes it all or nothing.
pub(super) fn apply(db: &Db, plan: &WritePlan) -> Result<(), PlanError> {
    for write in &plan.writes {
        apply_write(db, write)?;
    }
    for event in &plan.events {
        audit::record(db, event, plan.outbox)?;
    }
    Ok(())
}

fn apply_write(db: &Db, write: &Write) -> Result<(), PlanError> {
    match write {
        Write::InsertUser(user) => {
            insert_user(db, user).map_err(conflict_or_failed)?;
        }
        Write::InsertLink(link) => {
            insert_link(db, link).map_err(conflict_or_failed)?;
        }
        Write::RefreshLink(refresh) => refresh_link(db, refresh)?,
        Write::RenewGrant(renewal) => renew_grant(db, renewal)?,
        Write::DeleteLink(link) => {
            execute(db, sql::DELETE_LINK, [link.as_uuid().into_bytes()])?;
        }
        Write::DeleteUser(user) => {
            execute(db, sql::DELETE_USER, [user.as_uuid().into_bytes()])?;
        }
        Write::SetLocked { user, locked } => {
            let id = user.as_uuid().into_bytes();
            execute(db, sql::SET_LOCKED, params![id, locked])?;
        }
        Write::ForgetProfile(user) => {
            execute(db, sql::FORGET_PROFILE, [user.as_uuid().into_bytes()])?;
        }
        Write::RevokeSessions { user, began_with } => {
            let id = user.as_uuid().into_bytes();
            match began_with {
                Some(method) => execute(
                    db,
                    sql::REVOKE_SESSIONS_BEGUN_WITH,
                    params![id, method.as_str()],
                )?,
                None => execute(db, sql::REVOKE_SESSIONS_OF, [id])?,
            };
        }
        Write::ForgetTokens { link, at } => {
            let id = link.as_uuid().into_bytes();
            execute(db, sql::FORGET_LINK_TOKENS, params![id, time_text(*at)?])?;
        }
        Write::ForgetRefusedGrant { link, seen, at } => {
            let id = link.as_uuid().into_bytes();
            let forget = params![id, time_text(*at)?, seen.as_str()];
            if execute(db, sql::FORGET_REFUSED_GRANT, forget)? == 0 {
                return Err(PlanError::Gone);
            }
        }
        Write::SetDisabled { link, disabled, at } => {
            let id = link.as_uuid().into_bytes();
            let at = unix_ms(*at);
            execute(db, sql::SET_LINK_DISABLED, params![id, disabled, at])?;
        }
        Write::StartSession { session, first } => insert_session(db, first, session)?,
        Write::MarkTokenUsed(hash) => {
            execute(db, sql::MARK_USED, [hash.0])?;
        }
        Write::DeleteToken(hash) => {
            execute(db, sql::DELETE_TOKEN, [hash.0])?;
        }
        Write::InsertToken(token) => {
            insert_token(db, token)?;
        }
        Write::RevokeFamily(family) => {
            execute(db, sql::REVOKE_FAMILY, [family.as_uuid().into_bytes()])?;
        }
    }
    Ok(())
}

/// A link's new tokens and email: no row updated means the link went, or its provider
/// disabled it, since it was read.
fn refresh_link(db: &Db, refresh: &LinkRefresh) -> Result<(), PlanError> {
    let (access_token, client_id) = match &refresh.access_token {
        Some((token, client)) => (Some(token.as_str()), client.as_deref()),
        None => (None, None),
    };
    let updated = execute(
        db,
        sql::REFRESH_LINK,
        params![
            refresh.link.as_uuid().into_bytes(),
            email_to_column(refresh.email.as_ref()),
            access_token,
            refresh.refresh_token.as_ref().map(|token| token.as_str()),
            time_text(refresh.at)?,
            client_id,
            refresh.scopes.as_ref().map(Scopes::as_str),
            refresh.access_expires_at.map(unix_ms),
        ],
    )?;
    if updated == 0 {
        return Err(PlanError::Gone);
    }
    Ok(())
}

/// A relay refresh's tokens, only over the access token it began from (which ends its
/// lease): no row updated means another writer replaced the tokens, or the link went or was
/// disabled, since.
fn renew_grant(db: &Db, renewal: &GrantRenewal) -> Result<(), PlanError> {
    let tokens = &renewal.tokens;
    let scopes = tokens.scopes.as_str();
    let updated = execute(
        db,
        sql::RENEW_GRANT,
        params![
            renewal.link.as_uuid().into_bytes(),
            renewal.seen.as_str(),
            tokens.access_token.as_str(),
            tokens.refresh_token.as_ref().map(|token| token.as_str()),
            (!scopes.is_empty()).then_some(scopes),
            tokens.access_expires_at.map(unix_ms),
            time_text(renewal.at)?,
        ],
    )?;
    if updated == 0 {
        return Err(PlanError::Gone);
    }
    Ok(())
}

/// A unique constraint lost to another writer of the file, or a user deleted meanwhile, is a
/// conflict the caller decides on; anything else is a failure.
fn conflict_or_failed(error: rusqlite::Error) -> PlanError {
    match violation(&error) {
        Some(Violation::Unique(index)) => PlanError::Taken(index.into()),
        Some(Violation::ForeignKey) => PlanError::Gone,
        None => failed(error).into(),
    }
}
