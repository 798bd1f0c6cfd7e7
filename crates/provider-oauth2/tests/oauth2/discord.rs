//! Discord's own behaviour: display names and avatars of migrated and legacy users, the
//! form it wants at the token endpoint, a refused bearer token.

mod identity;
mod requests;
mod support;
