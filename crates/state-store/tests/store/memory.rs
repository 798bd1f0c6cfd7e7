//! The state store contract of `social-login-testing` on the in-process store.

use social_login_ports::SystemClock;
use social_login_state_store::MemoryStateStore;
use social_login_testing::contract::state_store::Rule;
use std::sync::Arc;

async fn in_memory(rule: Rule) {
    rule(Arc::new(MemoryStateStore::new(Arc::new(SystemClock)))).await;
}

social_login_testing::state_store_contract!(in_memory);
