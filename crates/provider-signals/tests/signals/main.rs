//! The JWS verifiers over real HTTP: Apple's notifications and Google's Security Event Tokens
//! checked against the key sets the simulator publishes, with tokens crafted here from the
//! simulator's fixture keys: each signal and event type, and each forgery (wrong key, wrong
//! audience, wrong issuer, wrong algorithm, truncated, oversized), refused with its reason.

mod apple;
mod bench;
mod properties;
mod risc;
