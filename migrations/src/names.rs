//! Names of the indexes and foreign keys, shared with the adapter that maps violations.
//!
//! PostgreSQL reports a unique violation by index name; SQLite reports the indexed columns
//! (`UNIQUE constraint failed: users.email_normalized`), so the adapter matches either.

/// Unique index on `users.email_normalized` (lowercase email): one user per address.
pub const UX_USERS_EMAIL_NORMALIZED: &str = "ux_users_email_normalized";
/// Unique index on `linked_accounts (provider, subject)`: a provider account links once.
pub const UX_LINKED_ACCOUNTS_PROVIDER_SUBJECT: &str = "ux_linked_accounts_provider_subject";
/// Unique index on `linked_accounts (user_id, provider)`: one link per provider and user.
pub const UX_LINKED_ACCOUNTS_USER_PROVIDER: &str = "ux_linked_accounts_user_provider";
/// Index on `linked_accounts.user_id`, dropped again by the fourteenth migration: the unique
/// index on `(user_id, provider)` serves a user's links and cascading deletes.
pub const IX_LINKED_ACCOUNTS_USER_ID: &str = "ix_linked_accounts_user_id";
/// Index on `refresh_tokens.family_id` (revoking a family).
pub const IX_REFRESH_TOKENS_FAMILY_ID: &str = "ix_refresh_tokens_family_id";
/// Index on `refresh_tokens.user_id` (cascading deletes).
pub const IX_REFRESH_TOKENS_USER_ID: &str = "ix_refresh_tokens_user_id";
/// Foreign key `linked_accounts.user_id → users.id`, on delete cascade.
pub const FK_LINKED_ACCOUNTS_USER: &str = "fk_linked_accounts_user";
/// Foreign key `refresh_tokens.user_id → users.id`, on delete cascade.
pub const FK_REFRESH_TOKENS_USER: &str = "fk_refresh_tokens_user";
/// Index on `refresh_families.user_id`, replaced by [`IX_REFRESH_FAMILIES_USER_CREATED`].
pub const IX_REFRESH_FAMILIES_USER_ID: &str = "ix_refresh_families_user_id";
/// Index on `refresh_families (user_id, created_at)`: a user's newest sessions without a sort,
/// cascading deletes, revocations.
pub const IX_REFRESH_FAMILIES_USER_CREATED: &str = "ix_refresh_families_user_created";
/// Foreign key `refresh_families.user_id → users.id`, on delete cascade.
pub const FK_REFRESH_FAMILIES_USER: &str = "fk_refresh_families_user";
/// Index on `refresh_tokens.expires_at` (housekeeping).
pub const IX_REFRESH_TOKENS_EXPIRES_AT: &str = "ix_refresh_tokens_expires_at";
/// Index on `refresh_families.expires_at` (housekeeping).
pub const IX_REFRESH_FAMILIES_EXPIRES_AT: &str = "ix_refresh_families_expires_at";
/// Index on `audit_events (user_id, id)`: a user's events, newest first.
pub const IX_AUDIT_EVENTS_USER_ID: &str = "ix_audit_events_user_id";
/// Unique index on `webhook_outbox.event_id`: an event is queued once.
pub const UX_WEBHOOK_OUTBOX_EVENT_ID: &str = "ux_webhook_outbox_event_id";
/// Index on `webhook_outbox (next_attempt_ms, seq)`: the claim, soonest due first.
pub const IX_WEBHOOK_OUTBOX_DUE: &str = "ix_webhook_outbox_due";
/// Index on `webhook_outbox (dead_at_ms, event_id)`: pending and dead counts, the age and size
/// bounds, the dead-letter list.
pub const IX_WEBHOOK_OUTBOX_DEAD: &str = "ix_webhook_outbox_dead";
/// Index on `signal_receipts.received_ms` (housekeeping). The receipts' primary key
/// `(source, signal_id)` is the constraint that makes a signal act once.
pub const IX_SIGNAL_RECEIPTS_RECEIVED: &str = "ix_signal_receipts_received";
/// Index on `linked_accounts (provider, user_id)`: the users with a link of one provider, by
/// user id (the operator's search, a page at a time).
pub const IX_LINKED_ACCOUNTS_PROVIDER_USER: &str = "ix_linked_accounts_provider_user";
