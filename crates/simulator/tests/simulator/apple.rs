//! The simulated Sign in with Apple.

mod authorize;
mod support;
mod token;
mod token_lifecycle;
