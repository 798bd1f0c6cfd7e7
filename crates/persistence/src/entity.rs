//! sea-orm entities, one per table. Internal to the adapter: rows leave it only as domain
//! types, through [`crate::mapping`].

pub(crate) mod audit_event;
pub(crate) mod linked_account;
pub(crate) mod refresh_family;
pub(crate) mod refresh_token;
pub(crate) mod signal_receipt;
pub(crate) mod user;
pub(crate) mod webhook_outbox;
