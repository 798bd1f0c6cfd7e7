//! Use cases of social-login, written against the ports only.
//!
//! `AuthService` holds the adapters behind `Arc<dyn Port>` and exposes one method per use
//! case: authorize, callback, connect, native id_token sign-in and connect, accounts,
//! disconnect, register, password login, refresh, logout, me, provider signals. The HTTP
//! layer calls these and nothing else.

pub mod admin;
mod batches;
mod error;
mod input;
mod lone_event;
mod outliving;
mod providers;
mod random;
mod revocation;
mod service;
mod session;
mod signal_verifiers;
mod usecases;
pub mod webhooks;

pub use admin::{AdminService, UserDetails};
pub use error::{AppError, AppResult, Cause};
pub use input::ProviderReturn;
pub use providers::{EnabledProvider, ProviderApi, ProviderRegistry};
pub use service::{AuthPolicy, AuthService, Ports, RelayPolicy};
pub use session::LoginResult;
pub use signal_verifiers::SignalVerifiers;
pub use usecases::authenticate::Caller;
pub use usecases::authorize::{AskedPurpose, AuthorizeOptions, MAX_EXTRA_SCOPES_BYTES};
pub use usecases::connect::Connected;
pub use usecases::export::{MAX_EXPORTED_EVENTS, UserExport};
pub use usecases::id_token::{IdTokenCommand, MAX_ID_TOKEN_BYTES, MAX_NONCE_BYTES};
pub use usecases::register::{PacedLogin, Registration};
pub use usecases::relay::{BoundedBody, RelayCaller, RelayRequest, Relayed};
pub use usecases::sessions::SessionListed;
pub use usecases::signals::SignalEndpoint;
pub use webhooks::{DeadLetters, DeliveryLimits, DeliveryPace, DeliveryStep, WebhookDelivery};
