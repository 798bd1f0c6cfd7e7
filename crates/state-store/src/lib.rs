//! State store adapters. The in-process store is the default for single-process deployments.

mod memory;

pub use memory::MemoryStateStore;
