//! The Discord adapter against the simulated Discord over real HTTP.

#[path = "../shared/flow.rs"]
mod flow;

mod authorization;
mod failures;
mod identity;
mod support;
