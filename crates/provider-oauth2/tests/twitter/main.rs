//! The X (Twitter) adapter against the simulated X over real HTTP.

#[path = "../shared/flow.rs"]
mod flow;

mod authorization;
mod failures;
mod identity;
mod support;
