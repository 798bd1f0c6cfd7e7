//! The simulated Sign in with Apple over real HTTP: the checks it makes, as a client sees
//! them.

mod authorize;
mod support;
mod token;
mod token_lifecycle;
