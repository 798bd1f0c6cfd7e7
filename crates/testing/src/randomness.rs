//! Randomness that repeats: the same seed gives the same ids and values, run after run.

use social_login_ports::Randomness;
use std::sync::atomic::{AtomicU64, Ordering};

/// splitmix64 from a seed. Not for production (predictable by design); distinct enough that
/// ids and state values never collide within a test.
pub struct SeededRandomness {
    state: AtomicU64,
}

impl SeededRandomness {
    pub fn new(seed: u64) -> Self {
        Self {
            state: AtomicU64::new(seed),
        }
    }

    fn next(&self) -> u64 {
        let mut z = self
            .state
            .fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl Default for SeededRandomness {
    fn default() -> Self {
        Self::new(0x5eed)
    }
}

impl Randomness for SeededRandomness {
    fn fill(&self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}
