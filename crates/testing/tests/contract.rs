//! The fakes hold to the same contracts as the real adapters.

use social_login_testing::InMemoryRepository;
use social_login_testing::contract::repository::Rule;
use std::sync::Arc;

async fn on_the_in_memory_repository(rule: Rule) {
    rule(Arc::new(InMemoryRepository::default())).await;
}

social_login_testing::repository_contract!(on_the_in_memory_repository);
