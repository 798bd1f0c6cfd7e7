//! The Facebook adapter against the simulated Facebook over real HTTP.

#[path = "../shared/flow.rs"]
mod flow;

mod authorization;
mod failures;
mod identity;
mod support;
