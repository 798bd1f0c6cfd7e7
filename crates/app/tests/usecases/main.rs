//! Use-case tests: every flow through `AuthService`, on the in-memory fakes of
//! `social-login-testing`, with mockall mocks where a port has to fail or be watched. They
//! live outside the crate on purpose: they use only its public API, as another team would.

mod world;

mod accounts;
mod audit;
mod authorize;
mod callback;
mod callback_linking;
mod connect;
mod deletion;
mod error_codes;
mod failures;
mod grants;
mod id_token;
mod id_token_once;
mod login_throttle;
mod native_codes;
mod passwords;
mod providers;
mod races;
mod readiness;
mod reauthentication;
mod sessions;
mod signals;
mod signup;
mod state_lifecycle;
mod webhooks;
