//! Applying the domain's write plans through sea-orm, inside the caller's transaction: the
//! one place this store writes what a rule decided. (A PostgreSQL login sends its plan as
//! one statement instead: `sign_in::one_statement`.)

use crate::audit::unix_ms;
use crate::entity::{linked_account, refresh_family, refresh_token, user};
use crate::error::{is_foreign_key_violation, repository_error, unique_violation};
use crate::mapping::{email_to_column, family_to_row, link_to_row, refresh_to_row, user_to_row};
use crate::queries;
use sea_orm::ActiveValue::Set;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait, QueryFilter, QueryTrait,
    UpdateMany,
};
use social_login_domain::plan::{LinkRefresh, Write, WritePlan};
use social_login_domain::relay::GrantRenewal;
use social_login_ports::{NewRefreshToken, PlanError, RepoResult, SessionStart};
use time::OffsetDateTime;

/// Applies `plan`'s writes in order, then records its events. The caller's transaction
/// makes it all or nothing.
pub(crate) async fn apply(txn: &DatabaseTransaction, plan: &WritePlan) -> Result<(), PlanError> {
    for write in &plan.writes {
        apply_write(txn, write).await?;
    }
    for event in &plan.events {
        crate::audit::record(txn, event, plan.outbox).await?;
    }
    Ok(())
}

async fn apply_write(txn: &DatabaseTransaction, write: &Write) -> Result<(), PlanError> {
    match write {
        Write::InsertUser(new) => {
            user::Entity::insert(user_to_row(new))
                .exec_without_returning(txn)
                .await
                .map_err(conflict_or_failed)?;
        }
        Write::InsertLink(link) => {
            linked_account::Entity::insert(link_to_row(link))
                .exec_without_returning(txn)
                .await
                .map_err(conflict_or_failed)?;
        }
        Write::RefreshLink(refresh) => refresh_link(txn, refresh).await?,
        Write::DeleteLink(link) => {
            execute(txn, linked_account::Entity::delete_by_id(link.as_uuid())).await?
        }
        Write::DeleteUser(id) => {
            // Links, sessions and tokens go with the user (ON DELETE CASCADE).
            execute(txn, user::Entity::delete_by_id(id.as_uuid())).await?;
        }
        Write::SetLocked { user, locked } => {
            execute(txn, queries::set_locked(*user, *locked)).await?
        }
        Write::ForgetProfile(user) => execute(txn, queries::forget_profile(*user)).await?,
        Write::RevokeSessions { user, began_with } => {
            execute(txn, queries::revoke_sessions_of(*user, *began_with)).await?
        }
        Write::RenewGrant(renewal) => renew_grant(txn, renewal).await?,
        Write::ForgetTokens { link, at } => {
            execute(txn, forget_tokens(queries::update_link(*link), *at)).await?;
        }
        Write::ForgetRefusedGrant { link, seen, at } => {
            let forget = forget_tokens(queries::release_lease(*link, seen), *at);
            let forgotten = forget.exec(txn).await.map_err(repository_error)?;
            if forgotten.rows_affected == 0 {
                return Err(PlanError::Gone);
            }
        }
        Write::SetDisabled { link, disabled, at } => {
            let set = queries::update_link(*link)
                .col_expr(linked_account::Column::Disabled, Expr::value(*disabled))
                .col_expr(
                    linked_account::Column::DisabledChangedMs,
                    Expr::value(Some(unix_ms(*at))),
                );
            execute(txn, set).await?;
        }
        Write::StartSession { session, first } => {
            insert_session(txn, first, session).await?;
        }
        Write::MarkTokenUsed(hash) => execute(txn, queries::mark_used(*hash)).await?,
        Write::DeleteToken(hash) => execute(txn, queries::delete_token(*hash)).await?,
        Write::InsertToken(token) => {
            refresh_token::Entity::insert(refresh_to_row(token))
                .exec_without_returning(txn)
                .await
                .map_err(repository_error)?;
        }
        Write::RevokeFamily(family) => execute(txn, queries::revoke_family(*family)).await?,
    }
    Ok(())
}

/// Runs one write whose count of changed rows says nothing here.
async fn execute(txn: &DatabaseTransaction, write: impl QueryTrait) -> RepoResult<()> {
    txn.execute(write.as_query())
        .await
        .map_err(repository_error)?;
    Ok(())
}

/// A link's new tokens and email; no row updated means the link went, or its provider
/// disabled it, since it was read.
async fn refresh_link(txn: &DatabaseTransaction, refresh: &LinkRefresh) -> Result<(), PlanError> {
    let mut changes = linked_account::ActiveModel {
        email: Set(email_to_column(refresh.email.as_ref())),
        updated_at: Set(refresh.at),
        ..Default::default()
    };
    if let Some((access_token, client_id)) = &refresh.access_token {
        changes.access_token = Set(access_token.as_str().to_owned());
        changes.grant_client_id = Set(client_id.clone());
        // New tokens end any refresh in flight: its waiters read these.
        changes.access_expires_ms = Set(refresh.access_expires_at.map(unix_ms));
        changes.refresh_lease_until_ms = Set(None);
    }
    if let Some(refresh_token) = &refresh.refresh_token {
        changes.refresh_token = Set(Some(refresh_token.as_str().to_owned()));
    }
    if let Some(scopes) = &refresh.scopes {
        changes.scopes = Set(scopes.as_str().to_owned());
    }
    let update = queries::update_link(refresh.link);
    write_enabled_link(txn, update, changes).await
}

/// `changes` to the link `update` selects if it is still enabled: no row updated means it
/// went, was disabled or (for a filtered update) changed since it was read.
async fn write_enabled_link(
    txn: &DatabaseTransaction,
    update: UpdateMany<linked_account::Entity>,
    changes: linked_account::ActiveModel,
) -> Result<(), PlanError> {
    let updated = update
        .filter(linked_account::Column::Disabled.eq(false))
        .set(changes)
        .exec(txn)
        .await
        .map_err(repository_error)?;
    if updated.rows_affected == 0 {
        return Err(PlanError::Gone);
    }
    Ok(())
}

/// A relay refresh's tokens, only over the access token it began from (which ends its
/// lease); no row updated means another writer replaced the tokens, or the link went or was
/// disabled, since.
async fn renew_grant(txn: &DatabaseTransaction, renewal: &GrantRenewal) -> Result<(), PlanError> {
    let tokens = &renewal.tokens;
    let mut changes = linked_account::ActiveModel {
        access_token: Set(tokens.access_token.as_str().to_owned()),
        access_expires_ms: Set(tokens.access_expires_at.map(unix_ms)),
        refresh_lease_until_ms: Set(None),
        updated_at: Set(renewal.at),
        ..Default::default()
    };
    if let Some(refresh_token) = &tokens.refresh_token {
        changes.refresh_token = Set(Some(refresh_token.as_str().to_owned()));
    }
    if !tokens.scopes.as_str().is_empty() {
        changes.scopes = Set(tokens.scopes.as_str().to_owned());
    }
    let update = queries::update_link(renewal.link)
        .filter(linked_account::Column::AccessToken.eq(renewal.seen.as_str()));
    write_enabled_link(txn, update, changes).await
}

/// A unique constraint lost to a concurrent request, or a user deleted meanwhile, is a
/// conflict the caller decides on; anything else is a failure.
pub(crate) fn conflict_or_failed(err: DbErr) -> PlanError {
    match unique_violation(&err) {
        Some(index) => PlanError::Taken(index.into()),
        None if is_foreign_key_violation(&err) => PlanError::Gone,
        None => repository_error(err).into(),
    }
}

/// The family row of `session` and its first token `first` (a new session, or a login's).
async fn insert_session(
    txn: &DatabaseTransaction,
    first: &NewRefreshToken,
    session: &SessionStart,
) -> RepoResult<()> {
    refresh_family::Entity::insert(family_to_row(first, session))
        .exec_without_returning(txn)
        .await
        .map_err(repository_error)?;
    refresh_token::Entity::insert(refresh_to_row(first))
        .exec_without_returning(txn)
        .await
        .map_err(repository_error)?;
    Ok(())
}

/// `update` forgetting the link's provider tokens at `at` (the empty access token is "none").
pub(crate) fn forget_tokens(
    update: UpdateMany<linked_account::Entity>,
    at: OffsetDateTime,
) -> UpdateMany<linked_account::Entity> {
    update
        .col_expr(linked_account::Column::AccessToken, Expr::value(""))
        .col_expr(
            linked_account::Column::RefreshToken,
            Expr::value(Option::<String>::None),
        )
        .col_expr(
            linked_account::Column::GrantClientId,
            Expr::value(Option::<String>::None),
        )
        .col_expr(linked_account::Column::Scopes, Expr::value(""))
        .col_expr(
            linked_account::Column::AccessExpiresMs,
            Expr::value(Option::<i64>::None),
        )
        .col_expr(linked_account::Column::UpdatedAt, Expr::value(at))
}
