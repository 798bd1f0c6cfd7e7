//! The simulated Discord, Facebook and X.

mod discord;
mod facebook;
mod support;
mod twitter;
