//! The social-login server: configuration, HTTP API, CLI and the wiring of adapters to
//! use cases. `main.rs` only parses the command line; tests start exactly what production
//! starts through [`server::start`].

pub mod cli;
pub mod demo;
pub mod housekeeping;
pub mod http;
pub mod server;
pub mod settings;
pub mod simulated;
pub mod telemetry;
pub mod wiring;
