//! Every statement the SQLite adapter runs, in one place so a test can show that the ones
//! on the login, session and housekeeping paths use an index (`EXPLAIN QUERY PLAN`).
//!
//! Values are stored as sea-orm stores them on SQLite (migrations and seeding go through
//! it): UUIDs as 16-byte blobs, times as RFC 3339 text, booleans as 0/1.

/// A user's columns, in the order `columns::user_at` reads them; `(u)` qualifies each with
/// the alias `u`.
macro_rules! user_columns {
    () => {
        "id, email, email_normalized, full_name, avatar_url, email_verified, password_hash, \
         created_at, locked"
    };
    (u) => {
        "u.id, u.email, u.email_normalized, u.full_name, u.avatar_url, u.email_verified, \
         u.password_hash, u.created_at, u.locked"
    };
}

/// `SELECT` of a user's columns, then `$rest`; `u.` before `$rest` qualifies them.
macro_rules! select_user {
    ($rest:literal) => {
        concat!("SELECT ", user_columns!(), " ", $rest)
    };
    (u. $rest:literal) => {
        concat!("SELECT ", user_columns!(u), " ", $rest)
    };
}

pub(crate) const USER_BY_ID: &str = select_user!("FROM users WHERE id = ?1");
pub(crate) const USER_BY_EMAIL: &str = select_user!("FROM users WHERE email_normalized = ?1");
/// The operator's search (`?n` last id, `?m` how many): users by id after the last one
/// listed; every form one index range.
pub(crate) const USERS_AFTER: &str = select_user!("FROM users WHERE id > ?1 ORDER BY id LIMIT ?2");
pub(crate) const USERS_BY_EMAIL_AFTER: &str =
    select_user!("FROM users WHERE email_normalized = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
pub(crate) const LINKED_USERS_AFTER: &str = select_user!(
    u."FROM linked_accounts l JOIN users u ON u.id = l.user_id \
     WHERE l.provider = ?1 AND l.user_id > ?2 ORDER BY l.user_id LIMIT ?3"
);
pub(crate) const LINKED_USER_OF_ACCOUNT_AFTER: &str = select_user!(
    u."FROM linked_accounts l JOIN users u ON u.id = l.user_id \
     WHERE l.provider = ?1 AND l.subject = ?2 AND l.user_id > ?3 ORDER BY l.user_id LIMIT ?4"
);
/// Text order of RFC 3339 times is time order to the second: enough for a count.
pub(crate) const COUNT_ACTIVE_SESSIONS: &str = "SELECT count(*) FROM refresh_families \
     WHERE user_id = ?1 AND revoked = 0 AND expires_at > ?2";
pub(crate) const SET_LOCKED: &str = "UPDATE users SET locked = ?2 WHERE id = ?1";
/// `User::forget_profile`.
pub(crate) const FORGET_PROFILE: &str = "UPDATE users SET email = NULL, email_normalized = NULL, \
     email_verified = 0, full_name = NULL, avatar_url = NULL WHERE id = ?1";
pub(crate) const USER_LOCKED: &str = "SELECT locked FROM users WHERE id = ?1";
pub(crate) const INSERT_USER: &str = concat!(
    "INSERT INTO users (",
    user_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
);
pub(crate) const DELETE_USER: &str = "DELETE FROM users WHERE id = ?1";

pub(crate) const LINK_BY_ACCOUNT: &str = "SELECT id, user_id, provider, subject, email, \
     created_at, scopes, disabled FROM linked_accounts WHERE provider = ?1 AND subject = ?2";
/// The link of a provider account with its user: the eight link columns, then the user's.
pub(crate) const LINK_WITH_USER: &str = concat!(
    "SELECT l.id, l.user_id, l.provider, l.subject, l.email, l.created_at, l.scopes, \
     l.disabled, ",
    user_columns!(u),
    " FROM linked_accounts l JOIN users u ON u.id = l.user_id \
     WHERE l.provider = ?1 AND l.subject = ?2"
);
pub(crate) const LINKS_OF: &str = "SELECT id, user_id, provider, subject, email, created_at, \
     scopes, disabled FROM linked_accounts WHERE user_id = ?1";
pub(crate) const GRANTS_OF: &str = "SELECT provider, access_token, refresh_token, \
     grant_client_id FROM linked_accounts WHERE user_id = ?1";
pub(crate) const GRANT_OF_LINK: &str = "SELECT provider, access_token, refresh_token, \
     grant_client_id FROM linked_accounts WHERE id = ?1";
pub(crate) const INSERT_LINK: &str = "INSERT INTO linked_accounts (id, user_id, provider, \
     subject, email, access_token, refresh_token, created_at, updated_at, grant_client_id, \
     scopes, access_expires_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11)";
/// A returning login: new tokens and email; a stored token stays when no new one came (the
/// refresh token most providers send only on the first consent; both after a native sign-in).
/// The client the grant was issued to goes with a new access token.
pub(crate) const REFRESH_LINK: &str = "UPDATE linked_accounts SET email = ?2, \
     access_token = COALESCE(?3, access_token), refresh_token = COALESCE(?4, refresh_token), \
     grant_client_id = CASE WHEN ?3 IS NULL THEN grant_client_id ELSE ?6 END, \
     scopes = COALESCE(?7, scopes), \
     access_expires_ms = CASE WHEN ?3 IS NULL THEN access_expires_ms ELSE ?8 END, \
     refresh_lease_until_ms = CASE WHEN ?3 IS NULL THEN refresh_lease_until_ms ELSE NULL END, \
     updated_at = ?5 WHERE id = ?1 AND NOT disabled";
/// A relay refresh's tokens over the access token it began from; its lease ends.
pub(crate) const RENEW_GRANT: &str = "UPDATE linked_accounts SET access_token = ?3, \
     refresh_token = COALESCE(?4, refresh_token), scopes = COALESCE(?5, scopes), \
     access_expires_ms = ?6, refresh_lease_until_ms = NULL, updated_at = ?7 \
     WHERE id = ?1 AND access_token = ?2 AND NOT disabled";
/// Takes a link's refresh lease when its tokens are still those seen and no lease is live.
pub(crate) const CLAIM_REFRESH: &str = "UPDATE linked_accounts SET refresh_lease_until_ms = ?4 \
     WHERE id = ?1 AND access_token = ?2 AND NOT disabled \
     AND (refresh_lease_until_ms IS NULL OR refresh_lease_until_ms < ?3)";
/// Gives a lease back after a failed refresh, only while it is still the caller's (`?3`, its
/// claim's `until`): one another caller took once it ran out stays theirs.
pub(crate) const RELEASE_OWN_LEASE: &str = "UPDATE linked_accounts \
     SET refresh_lease_until_ms = NULL \
     WHERE id = ?1 AND access_token = ?2 AND refresh_lease_until_ms = ?3";
pub(crate) const DELETE_LINK: &str = "DELETE FROM linked_accounts WHERE id = ?1";

pub(crate) const INSERT_FAMILY: &str = "INSERT INTO refresh_families (id, user_id, created_at, \
     expires_at, revoked, auth_time, began_with) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6)";
pub(crate) const INSERT_TOKEN: &str = "INSERT INTO refresh_tokens (token_hash, user_id, \
     family_id, created_at, expires_at, used) VALUES (?1, ?2, ?3, ?4, ?5, 0)";
pub(crate) const TOKEN: &str =
    "SELECT family_id, expires_at, used FROM refresh_tokens WHERE token_hash = ?1";
pub(crate) const FAMILY: &str =
    "SELECT id, user_id, expires_at, revoked, auth_time FROM refresh_families WHERE id = ?1";
/// The newest `?2` unrevoked sessions of a user (text order of RFC 3339 times is time order
/// to the second: enough for a bound), and their tokens.
pub(crate) const SESSIONS_OF: &str = "SELECT id, created_at, expires_at, began_with \
     FROM refresh_families WHERE user_id = ?1 AND revoked = 0 ORDER BY created_at DESC LIMIT ?2";
pub(crate) const TOKENS_ISSUED_OF: &str = "SELECT family_id, created_at FROM refresh_tokens \
     WHERE family_id IN (SELECT id FROM refresh_families WHERE user_id = ?1 AND revoked = 0 \
     ORDER BY created_at DESC LIMIT ?2)";
pub(crate) const MARK_USED: &str = "UPDATE refresh_tokens SET used = 1 WHERE token_hash = ?1";
pub(crate) const DELETE_TOKEN: &str = "DELETE FROM refresh_tokens WHERE token_hash = ?1";
pub(crate) const REVOKE_FAMILY: &str = "UPDATE refresh_families SET revoked = 1 WHERE id = ?1";
/// Text order of RFC 3339 times is time order to the second, as on the sea-orm adapter:
/// enough for housekeeping.
pub(crate) const ENDED_FAMILIES: &str =
    "SELECT id FROM refresh_families WHERE expires_at < ?1 LIMIT ?2";
pub(crate) const DELETE_TOKENS_OF_FAMILY: &str = "DELETE FROM refresh_tokens WHERE family_id = ?1";
pub(crate) const DELETE_FAMILY: &str = "DELETE FROM refresh_families WHERE id = ?1";
pub(crate) const DELETE_EXPIRED_TOKENS: &str = "DELETE FROM refresh_tokens WHERE token_hash IN \
     (SELECT token_hash FROM refresh_tokens WHERE expires_at < ?1 LIMIT ?2)";

pub(crate) const INSERT_EVENT: &str = "INSERT INTO audit_events (id, user_id, type, provider, \
     ip, user_agent, request_id, created_at, admin_key_id, via) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
pub(crate) const EVENTS_OF: &str = "SELECT id, user_id, type, provider, ip, user_agent, \
     request_id, created_at, admin_key_id, via FROM audit_events WHERE user_id = ?1 \
     AND (?3 IS NULL OR type <> ?3) ORDER BY id DESC LIMIT ?2";
pub(crate) const EVENT_BY_ID: &str = "SELECT id, user_id, type, provider, ip, user_agent, \
     request_id, created_at, admin_key_id, via FROM audit_events WHERE id = ?1";
/// Ids are time-ordered UUIDv7 blobs: "older" is "smaller id". An event the webhook outbox
/// still holds (pending, or a dead letter) stays until the outbox lets it go.
pub(crate) const DELETE_EVENTS_BEFORE: &str = "DELETE FROM audit_events WHERE id IN \
     (SELECT id FROM audit_events WHERE id < ?1 AND NOT EXISTS \
     (SELECT 1 FROM webhook_outbox o WHERE o.event_id = audit_events.id) LIMIT ?2)";

/// A signal's receipt, unless it exists (the primary key): one row changed when it is new.
pub(crate) const INSERT_RECEIPT: &str = "INSERT INTO signal_receipts (source, signal_id, \
     received_ms) VALUES (?1, ?2, ?3) ON CONFLICT (source, signal_id) DO NOTHING";
pub(crate) const RECEIPT: &str =
    "SELECT received_ms FROM signal_receipts WHERE source = ?1 AND signal_id = ?2";
pub(crate) const DELETE_RECEIPTS_BEFORE: &str = "DELETE FROM signal_receipts WHERE rowid IN \
     (SELECT rowid FROM signal_receipts WHERE received_ms < ?1 LIMIT ?2)";
/// The link a signal names, with its user and disabled state.
pub(crate) const SIGNALLED_LINK: &str = "SELECT id, user_id, disabled_changed_ms \
     FROM linked_accounts WHERE provider = ?1 AND subject = ?2";
/// Ends the live sessions of a user that one login method began.
pub(crate) const REVOKE_SESSIONS_BEGUN_WITH: &str = "UPDATE refresh_families SET revoked = 1 \
     WHERE user_id = ?1 AND began_with = ?2 AND revoked = 0";
/// Ends every live session of a user.
pub(crate) const REVOKE_SESSIONS_OF: &str =
    "UPDATE refresh_families SET revoked = 1 WHERE user_id = ?1 AND revoked = 0";
/// The link stays; its provider tokens go (the empty access token is "none").
/// The start of an `UPDATE` that forgets a link's tokens (at `?2`), as the sea-orm store's
/// `forget_tokens` does.
macro_rules! forget_tokens {
    ($rest:literal) => {
        concat!(
            "UPDATE linked_accounts SET access_token = '', refresh_token = NULL, \
             grant_client_id = NULL, scopes = '', access_expires_ms = NULL, updated_at = ?2",
            $rest
        )
    };
}

pub(crate) const FORGET_LINK_TOKENS: &str = forget_tokens!(" WHERE id = ?1");
/// A refused grant's tokens and lease go, only while the link holds the access token the
/// refresh began from (`?3`).
pub(crate) const FORGET_REFUSED_GRANT: &str =
    forget_tokens!(", refresh_lease_until_ms = NULL WHERE id = ?1 AND access_token = ?3");
pub(crate) const SET_LINK_DISABLED: &str = "UPDATE linked_accounts SET disabled = ?2, \
     disabled_changed_ms = ?3 WHERE id = ?1";
