//! The simulated Discord, Facebook and X over real HTTP: the checks they make, as a
//! client sees them.

mod discord;
mod facebook;
mod support;
mod twitter;
