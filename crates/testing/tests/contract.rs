//! The fakes hold to the same contracts as the real adapters.

use social_login_testing::InMemoryRepository;
use social_login_testing::contract::repository::Rule;
use std::sync::Arc;

async fn on_the_in_memory_repository(rule: Rule) {
    rule(Arc::new(InMemoryRepository::default())).await;
}

mod repository {
    use super::*;
    social_login_testing::repository_contract!(on_the_in_memory_repository);
}

async fn on_the_fake_state_store(rule: social_login_testing::contract::state_store::Rule) {
    rule(Arc::new(social_login_testing::FakeStateStore::default())).await;
}

mod state_store {
    use super::*;
    social_login_testing::state_store_contract!(on_the_fake_state_store);
}

#[test]
fn the_fake_cipher_and_sealer_hold_their_contracts() {
    use social_login_testing::contract::token_cipher::*;
    token_cipher_holds_its_contract(&social_login_testing::ReversingCipher);
    state_sealer_holds_its_contract(&social_login_testing::FakeStateSealer::default());
}
