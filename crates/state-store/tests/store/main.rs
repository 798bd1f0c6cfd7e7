//! The state store adapters: the in-process store and Redis, each against the state store
//! contract and its own facts.

mod memory;
mod redis;
