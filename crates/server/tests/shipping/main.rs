//! What ships, checked without docker or a cluster:
//! - the workspace's dependency rules, on `cargo metadata` (`architecture`);
//! - the deployment files of `deploy/`: every YAML file parses, every command they run is
//!   one the CLI accepts, every configuration they ship loads and validates the way the
//!   container would load it, every probe they point at is answered 200 by the real server,
//!   and the image's health check works against it;
//! - `social-login migrate` from several replicas at once (`migrate`);
//! - what the code and docs cite is in the repository (`citations`).

mod architecture;
mod check_config;
mod citations;
mod commands;
mod compose;
mod configs;
mod crate_table;
mod dockerfile;
mod files;
mod gen_admin_key;
mod healthcheck;
mod kubernetes;
mod migrate;
mod probes;
mod providers_command;
