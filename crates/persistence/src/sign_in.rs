//! A provider login in one transaction: read what the decision needs, let the domain plan
//! the login (`domain::sign_in`), apply the plan, so a login is all written or not at all
//! (a `kill -9` halfway leaves nothing). On PostgreSQL the plan is one statement
//! (`one_statement`), its own transaction: a returning user costs two statements and no
//! `BEGIN`/`COMMIT`.

use crate::SeaOrmRepository;
use crate::error::repository_error;
use crate::held_connection::HeldConnection;
use crate::mapping::{link_from_row, user_from_row};
use crate::queries;
use one_statement::LoginStatement;
use sea_orm::{ConnectionTrait, DbBackend};
use social_login_domain::sign_in::{SignInPlan, SignInRead, StoredLink};
use social_login_domain::{Email, LinkedAccount, User};
use social_login_ports::{ProviderSignIn, RepoResult, RepositoryError, SignInError, SignedIn};
use tracing::Instrument;

mod one_statement;
#[cfg(test)]
mod tests;

pub(crate) async fn sign_in_with_provider(
    repo: &SeaOrmRepository,
    sign_in: ProviderSignIn,
) -> Result<SignedIn, SignInError> {
    let db = repo.connection();
    if db.get_database_backend() == DbBackend::Postgres {
        // The reads, then every write in one statement, on one held connection: a
        // returning user costs two statements, no `BEGIN`/`COMMIT`, one checkout.
        let traced = crate::traced::transaction_span("postgresql", std::panic::Location::caller());
        let outcome = crate::traced::Outcome::of(traced.clone());
        let held = HeldConnection::acquire(db.get_postgres_connection_pool())
            .instrument(traced.clone())
            .await
            .map_err(repository_error)?;
        let plan = plan(&held, &sign_in).await?;
        // No row: the link was removed or disabled since it was read; decide again.
        let statement = LoginStatement::of_plan(&plan.writes)?;
        let run = statement.run(&held);
        let written = outcome.commit(run, |run| matches!(run, Ok(true))).await;
        if !written.map_err(crate::plan::conflict_or_failed)? {
            return Err(SignInError::Raced);
        }
        return Ok(signed_in(plan));
    }
    // SQLite through sea-orm (tooling and the adapter's tests; the service serves SQLite
    // with rusqlite): one statement at a time inside a transaction.
    let txn = repo.begin_write().await?;
    let plan = plan(&*txn, &sign_in).await?;
    crate::plan::apply(&txn, &plan.writes).await?;
    txn.commit().await.map_err(repository_error)?;
    Ok(signed_in(plan))
}

fn signed_in(plan: SignInPlan) -> SignedIn {
    SignedIn {
        user: plan.user,
        is_new_user: plan.is_new_user,
    }
}

/// Reads what the decision needs, and has the domain plan the login.
async fn plan<C: ConnectionTrait>(
    db: &C,
    sign_in: &ProviderSignIn,
) -> Result<SignInPlan, SignInError> {
    let mut linked = stored_link(db, sign_in).await?;
    let email_owner = match sign_in.email_to_look_up(linked.as_ref()) {
        Some(email) => email_owner(db, email).await?,
        None => None,
    };
    if linked.is_none() && email_owner.is_some() {
        // At READ COMMITTED each statement has its own snapshot: a concurrent first login
        // of this very account may have committed its user and link between the two reads.
        // A user is always committed with its first link, so a second look sees it if so.
        linked = stored_link(db, sign_in).await?;
    }
    Ok(sign_in.plan(SignInRead {
        linked,
        email_owner,
    })?)
}

/// The link of this login's provider account with its user, read in one query.
async fn stored_link<C: ConnectionTrait>(
    db: &C,
    sign_in: &ProviderSignIn,
) -> RepoResult<Option<StoredLink>> {
    let identity = &sign_in.identity;
    let found = queries::link_with_user(identity.provider, &identity.subject)
        .one(db)
        .await
        .map_err(repository_error)?;
    match found {
        None => Ok(None),
        Some((link, Some(user))) => Ok(Some(StoredLink {
            link: link_from_row(link)?,
            user: user_from_row(user)?,
        })),
        // The foreign key makes this impossible; a broken row is not the caller's fault.
        Some((_, None)) => Err(RepositoryError::Internal("a link without its user".into())),
    }
}

/// The user who claims `email`, with that user's links (for the one-account-per-provider
/// rule).
async fn email_owner<C: ConnectionTrait>(
    db: &C,
    email: &Email,
) -> RepoResult<Option<(User, Vec<LinkedAccount>)>> {
    let Some(row) = queries::user_by_email(&email.normalized())
        .one(db)
        .await
        .map_err(repository_error)?
    else {
        return Ok(None);
    };
    let owner = user_from_row(row)?;
    let links = crate::rows::links_of(db, owner.id).await?;
    Ok(Some((owner, links)))
}
