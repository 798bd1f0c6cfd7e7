//! State store adapters: where the ids of spent state values are remembered until they expire.
//! The in-process store serves one instance; Redis serves any number of them.

mod memory;
mod redis;

pub use memory::{DEFAULT_MAX_SPENT, MemoryStateStore};
pub use redis::{RedisStateStore, RedisStateStoreConfig};
