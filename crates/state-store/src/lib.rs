//! State store adapters: where the ids of spent state values (and native id_tokens) are
//! remembered until they expire, and where password attempts are counted. The in-process
//! store serves one instance; Redis serves any number of them.

mod memory;
mod redis;

pub use memory::{DEFAULT_MAX_ATTEMPT_ENTRIES, DEFAULT_MAX_ENTRIES, MemoryStateStore};
pub use redis::{RedisStateStore, RedisStateStoreConfig};
