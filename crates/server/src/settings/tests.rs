//! Tests of loading and validating `Settings` through their public entry points.

mod environment;
pub(crate) mod fixtures;
mod fuzz;
mod generic;
mod loading;
mod presets;
mod signup;
mod state_store;
mod validation;
