//! The social-login server: configuration, HTTP API, CLI and the wiring of adapters to
//! use cases. `main.rs` only parses the command line; tests start exactly what production
//! starts through [`server::start`].

mod adapters;
pub mod catalogue_listing;
pub mod cli;
pub mod dead_letters;
#[cfg(feature = "demo")]
pub mod demo;
pub mod healthcheck;
pub mod housekeeping;
pub mod http;
pub mod risc_registration;
pub mod server;
pub mod settings;
#[cfg(feature = "demo")]
pub mod simulated;
pub mod startup_error;
pub mod telemetry;
pub mod webhook_delivery;
pub mod wiring;
