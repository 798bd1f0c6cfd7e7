//! A provider login inside one SQLite transaction: read what the decision needs, let the
//! domain plan the login (`domain::sign_in`), apply the plan.

use super::columns::{link_at, query_one, user_at};
use super::rows::{links_of, user_by_email};
use super::statements::Db;
use super::{plan, sql};
use crate::mapping::{link_from_columns, user_from_row};
use rusqlite::params;
use social_login_domain::sign_in::{SignInRead, StoredLink};
use social_login_ports::{ProviderSignIn, SignInError, SignedIn};

pub(super) fn sign_in(db: &Db, sign_in: &ProviderSignIn) -> Result<SignedIn, SignInError> {
    // One connection runs one transaction at a time: no concurrent login can commit between
    // these reads, so they need no second look.
    let linked = stored_link(db, sign_in)?;
    let email_owner = match sign_in.email_to_look_up(linked.as_ref()) {
        Some(email) => match user_by_email(db, &email.normalized())? {
            Some(user) => {
                let links = links_of(db, user.id)?;
                Some((user, links))
            }
            None => None,
        },
        None => None,
    };
    let plan = sign_in.plan(SignInRead {
        linked,
        email_owner,
    })?;
    plan::apply(db, &plan.writes)?;
    Ok(SignedIn {
        user: plan.user,
        is_new_user: plan.is_new_user,
    })
}

/// The link of this login's provider account with its user, read in one query.
fn stored_link(db: &Db, sign_in: &ProviderSignIn) -> Result<Option<StoredLink>, SignInError> {
    let identity = &sign_in.identity;
    let found = query_one(
        db,
        sql::LINK_WITH_USER,
        params![identity.provider.as_str(), identity.subject.as_str()],
        |row| Ok((link_at(row)?, user_at(row, 8)?)),
    )?;
    let Some((link, user)) = found else {
        return Ok(None);
    };
    Ok(Some(StoredLink {
        link: link_from_columns(link)?,
        user: user_from_row(user)?,
    }))
}
