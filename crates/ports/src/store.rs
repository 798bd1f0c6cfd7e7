//! Every repository port over one database, as one store implements them all.

use crate::{
    AdminRepository, ProviderGrants, RefreshTokenRepository, SignalRepository, UserRepository,
    WebhookOutbox,
};

/// The repository ports, the operator's port and the webhook outbox, as one store implements
/// them over one database: what the service runs on, and what the repository contract of
/// `social-login-testing` holds every store to. A store says it is one with an empty `impl`.
pub trait Repository:
    UserRepository
    + RefreshTokenRepository
    + SignalRepository
    + AdminRepository
    + WebhookOutbox
    + ProviderGrants
{
}
