//! Use-case tests: every flow through `AuthService`, on the in-memory fakes, with mockall
//! mocks where a port has to fail or be watched.

mod world;

mod accounts;
mod authorize;
mod callback;
mod callback_linking;
mod connect;
mod error_codes;
mod failures;
mod passwords;
mod races;
mod sessions;
mod state_lifecycle;
