//! Poison-tolerant locking: a panicked handler must not take the whole simulator down.

use std::sync::{Mutex, MutexGuard, PoisonError};

pub fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
