//! Every statement of the login, session, housekeeping and webhook paths uses an index:
//! `EXPLAIN QUERY PLAN` on the migrated schema shows no full scan and no sort of what it read.
//! (Inserts have no plan to check.)

use super::sql::*;
use crate::{DatabaseOptions, SqliteRepository};

const LOOKUPS: [(&str, &str); 39] = [
    ("USER_BY_ID", USER_BY_ID),
    ("USER_BY_EMAIL", USER_BY_EMAIL),
    ("DELETE_USER", DELETE_USER),
    ("LINK_BY_ACCOUNT", LINK_BY_ACCOUNT),
    ("LINK_WITH_USER", LINK_WITH_USER),
    ("LINKS_OF", LINKS_OF),
    ("GRANTS_OF", GRANTS_OF),
    ("GRANT_OF_LINK", GRANT_OF_LINK),
    ("REFRESH_LINK", REFRESH_LINK),
    ("DELETE_LINK", DELETE_LINK),
    ("TOKEN", TOKEN),
    ("FAMILY", FAMILY),
    ("MARK_USED", MARK_USED),
    ("DELETE_TOKEN", DELETE_TOKEN),
    ("REVOKE_FAMILY", REVOKE_FAMILY),
    ("ENDED_FAMILIES", ENDED_FAMILIES),
    ("DELETE_TOKENS_OF_FAMILY", DELETE_TOKENS_OF_FAMILY),
    ("DELETE_FAMILY", DELETE_FAMILY),
    ("DELETE_EXPIRED_TOKENS", DELETE_EXPIRED_TOKENS),
    ("EVENTS_OF", EVENTS_OF),
    ("EVENT_BY_ID", EVENT_BY_ID),
    ("DELETE_EVENTS_BEFORE", DELETE_EVENTS_BEFORE),
    ("RECEIPT", RECEIPT),
    ("DELETE_RECEIPTS_BEFORE", DELETE_RECEIPTS_BEFORE),
    ("SIGNALLED_LINK", SIGNALLED_LINK),
    ("REVOKE_SESSIONS_BEGUN_WITH", REVOKE_SESSIONS_BEGUN_WITH),
    ("REVOKE_SESSIONS_OF", REVOKE_SESSIONS_OF),
    ("FORGET_LINK_TOKENS", FORGET_LINK_TOKENS),
    ("FORGET_REFUSED_GRANT", FORGET_REFUSED_GRANT),
    ("SET_LINK_DISABLED", SET_LINK_DISABLED),
    ("USERS_AFTER", USERS_AFTER),
    ("USERS_BY_EMAIL_AFTER", USERS_BY_EMAIL_AFTER),
    ("LINKED_USERS_AFTER", LINKED_USERS_AFTER),
    ("LINKED_USER_OF_ACCOUNT_AFTER", LINKED_USER_OF_ACCOUNT_AFTER),
    ("COUNT_ACTIVE_SESSIONS", COUNT_ACTIVE_SESSIONS),
    ("SET_LOCKED", SET_LOCKED),
    ("USER_LOCKED", USER_LOCKED),
    ("SESSIONS_OF", SESSIONS_OF),
    ("TOKENS_ISSUED_OF", TOKENS_ISSUED_OF),
];

#[tokio::test]
async fn every_lookup_and_conditional_write_uses_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.db");
    let url = format!("sqlite://{}?mode=rwc", path.display());
    SqliteRepository::open(&DatabaseOptions::new(url))
        .await
        .unwrap()
        .migrate()
        .await
        .unwrap();
    let db = rusqlite::Connection::open(&path).unwrap();
    let relay = ("GRANT_FOR_RELAY", crate::relay_sql::GRANT_FOR_RELAY);
    for (name, sql) in LOOKUPS
        .into_iter()
        .chain([relay])
        .chain(crate::outbox_sql::ALL)
    {
        let mut plan = db.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        // Unbound parameters are NULL: the plan is the same.
        let mut rows = plan.raw_query();
        let mut details = Vec::new();
        while let Some(row) = rows.next().unwrap() {
            details.push(row.get::<_, String>("detail").unwrap());
        }
        crate::queries::explain::assert_sqlite_reads_by_index(name, &details, sql);
    }
}
