//! A provider login's writes on PostgreSQL as one statement: the link's write (an update
//! for a returning user; the link, and the user if new, inserted otherwise), the session's
//! family and first token, the audit events and their outbox rows, chained by
//! data-modifying CTEs. Every insert reads from the link's write (`FROM head`), so when the
//! returning user's link is gone or disabled since it was read, or an operator locked the
//! user, nothing is written and the login is decided again. One statement is one
//! transaction: all of it or none of it (a `kill -9` halfway leaves nothing), in one round
//! trip instead of `BEGIN`, five or more statements and `COMMIT`. The rows are the
//! adapter's usual mappings, so a column added to one of them is written here too.

use crate::audit;
use crate::mapping::{email_to_column, family_to_row, link_to_row, refresh_to_row, user_to_row};
use sea_orm::ActiveValue;
use sea_orm::{
    ActiveModelTrait, ConnectionTrait, DbBackend, DbErr, EntityName, EntityTrait, IdenStatic,
    Iterable, Statement, Value,
};
use social_login_domain::plan::{LinkRefresh, Write, WritePlan};
use social_login_ports::{RepoResult, RepositoryError};
use std::fmt::Write as _;

/// The statement being built: its text so far (the CTEs, comma-separated) and its values,
/// `$1` onwards. Written into one buffer: a login's statement costs a handful of
/// allocations, not two per column.
pub(crate) struct LoginStatement {
    sql: String,
    values: Vec<Value>,
    /// CTEs so far (each after the head is named by its position).
    ctes: usize,
}

/// Enough for a new user's statement (about 2 KiB of text, 40 values) without regrowing.
const TEXT: usize = 4096;
const VALUES: usize = 48;

impl LoginStatement {
    fn new() -> Self {
        let mut sql = String::with_capacity(TEXT);
        sql.push_str("WITH ");
        Self {
            sql,
            values: Vec::with_capacity(VALUES),
            ctes: 0,
        }
    }

    /// The statement of a login's plan (`domain::sign_in`): the link's write heads it,
    /// then the session and the events. A plan of other writes is not a login's.
    pub(crate) fn of_plan(plan: &WritePlan) -> RepoResult<Self> {
        let not_a_login = || RepositoryError::Internal("not a login's write plan".into());
        let mut statement = Self::new();
        let mut writes = plan.writes.iter();
        match writes.next() {
            Some(Write::RefreshLink(refresh)) => statement.refresh_link(refresh),
            Some(Write::InsertLink(link)) => {
                let user = link.user_id.as_uuid();
                statement.insert(link_to_row(link), Cte::LinkOfAUser(user));
            }
            Some(Write::InsertUser(user)) => {
                statement.insert(user_to_row(user), Cte::NewUser);
                let Some(Write::InsertLink(link)) = writes.next() else {
                    return Err(not_a_login());
                };
                statement.insert(link_to_row(link), Cte::Head);
            }
            _ => return Err(not_a_login()),
        }
        for write in writes {
            let Write::StartSession { session, first } = write else {
                return Err(not_a_login());
            };
            statement.insert(family_to_row(first, session), Cte::AfterHead);
            statement.insert(refresh_to_row(first), Cte::AfterHead);
        }
        for event in &plan.events {
            statement.insert(audit::to_row(event), Cte::AfterHead);
            if plan.outbox.contains(event.kind) {
                statement.insert(audit::outbox_row(event), Cte::AfterHead);
            }
        }
        Ok(statement)
    }

    /// A returning user: the provider's new tokens (a stored one kept when none came) and
    /// the email as received, unless the link was removed or disabled since it was read.
    fn refresh_link(&mut self, refresh: &LinkRefresh) {
        let (access_token, client_id) = match &refresh.access_token {
            Some((token, client)) => (Some(token.as_str().to_owned()), client.clone()),
            None => (None, None),
        };
        self.values.extend([
            email_to_column(refresh.email.as_ref()).into(),
            access_token.into(),
            refresh
                .refresh_token
                .as_ref()
                .map(|token| token.as_str().to_owned())
                .into(),
            refresh.at.into(),
            refresh.link.as_uuid().into(),
            client_id.into(),
            refresh
                .scopes
                .as_ref()
                .map(|scopes| scopes.as_str().to_owned())
                .into(),
            refresh.access_expires_at.map(crate::audit::unix_ms).into(),
        ]);
        // The grant's client id goes with a new access token (an Apple grant an app
        // exchanged), and stays with the stored one when none came.
        self.sql.push_str(
            "head AS (UPDATE \"linked_accounts\" SET \"email\" = $1, \
             \"access_token\" = COALESCE($2, \"access_token\"), \
             \"refresh_token\" = COALESCE($3, \"refresh_token\"), \
             \"grant_client_id\" = CASE WHEN $2 IS NULL THEN \"grant_client_id\" ELSE $6 END, \
             \"scopes\" = COALESCE($7, \"scopes\"), \
             \"access_expires_ms\" = CASE WHEN $2 IS NULL THEN \"access_expires_ms\" ELSE $8 END, \
             \"refresh_lease_until_ms\" = CASE WHEN $2 IS NULL THEN \"refresh_lease_until_ms\" ELSE NULL END, \
             \"updated_at\" = $4 WHERE \"id\" = $5 AND NOT \"disabled\" AND ",
        );
        push_unlocked(&mut self.sql, "\"linked_accounts\".\"user_id\"");
        self.sql.push_str(" RETURNING \"user_id\")");
        self.ctes = 1;
    }

    /// Runs it; whether the head wrote its row (false: a returning user's link went away).
    pub(crate) async fn run<C: ConnectionTrait>(mut self, db: &C) -> Result<bool, DbErr> {
        self.sql.push_str(" SELECT 1 FROM head");
        let statement = Statement::from_sql_and_values(DbBackend::Postgres, self.sql, self.values);
        Ok(db.query_one_raw(statement).await?.is_some())
    }

    /// `name AS (INSERT INTO table (columns) SELECT values [FROM head] [RETURNING user_id])`
    /// for the columns `row` sets.
    fn insert<A: ActiveModelTrait>(&mut self, row: A, cte: Cte) {
        if self.ctes > 0 {
            self.sql.push_str(", ");
        }
        let _ = match cte {
            Cte::NewUser => write!(self.sql, "new_user"),
            Cte::Head | Cte::LinkOfAUser(_) => write!(self.sql, "head"),
            Cte::AfterHead => write!(self.sql, "w{}", self.ctes),
        };
        let table = <A::Entity as Default>::default();
        let _ = write!(self.sql, " AS (INSERT INTO \"{}\" (", table.table_name());
        let first_value = self.values.len();
        for column in <A::Entity as EntityTrait>::Column::iter() {
            if let ActiveValue::Set(value) | ActiveValue::Unchanged(value) = row.get(column) {
                if self.values.len() > first_value {
                    self.sql.push_str(", ");
                }
                let _ = write!(self.sql, "\"{}\"", column.as_str());
                self.values.push(value);
            }
        }
        self.sql.push_str(") SELECT ");
        for number in first_value + 1..=self.values.len() {
            if number > first_value + 1 {
                self.sql.push_str(", ");
            }
            let _ = write!(self.sql, "${number}");
        }
        match cte {
            Cte::NewUser => {}
            Cte::Head => self.sql.push_str(" RETURNING \"user_id\""),
            Cte::LinkOfAUser(user) => {
                self.values.push(user.into());
                let user = format!("${}", self.values.len());
                self.sql.push_str(" WHERE ");
                push_unlocked(&mut self.sql, &user);
                self.sql.push_str(" RETURNING \"user_id\"");
            }
            Cte::AfterHead => self.sql.push_str(" FROM head"),
        }
        self.sql.push(')');
        self.ctes += 1;
    }
}

/// The condition that the user `id` (an SQL expression) is there and not locked, read under
/// a share lock: it waits for an operator's lock in flight, and a later one waits for this
/// statement, whose session the lock then ends.
fn push_unlocked(sql: &mut String, id: &str) {
    let _ = write!(
        sql,
        "(SELECT NOT u.\"locked\" FROM \"users\" u WHERE u.\"id\" = {id} FOR SHARE)"
    );
}

/// Where an insert stands in the statement.
#[derive(Clone, Copy)]
enum Cte {
    /// A new user, before its link.
    NewUser,
    /// The link's write, which every later insert reads (and the final `SELECT`).
    Head,
    /// The head: a new link of an existing user, written only while the user is not locked.
    LinkOfAUser(uuid::Uuid),
    /// Written only if the head was.
    AfterHead,
}
