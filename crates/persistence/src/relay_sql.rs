//! A relayed call's read, written once for both adapters: SQLite's text as is, PostgreSQL's
//! with `$n` placeholders (`crate::raw_sql`). It is in the `EXPLAIN` tests.

/// The user's lock with its link of a provider, in one row of the user; the link's columns
/// are NULL when it has none, and there is no row when there is no such user.
pub(crate) const GRANT_FOR_RELAY: &str = "SELECT u.locked, l.id, l.access_token, \
     l.refresh_token, l.scopes, l.grant_client_id, l.access_expires_ms, \
     l.refresh_lease_until_ms, l.disabled FROM users u \
     LEFT JOIN linked_accounts l ON l.user_id = u.id AND l.provider = ?2 WHERE u.id = ?1";
