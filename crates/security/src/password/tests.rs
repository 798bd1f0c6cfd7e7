//! Tests of `Argon2PasswordHasher`, on cheap parameters so they run fast.

use super::*;

fn hasher() -> Argon2PasswordHasher {
    Argon2PasswordHasher::with_params(64, 1, 1).unwrap()
}

fn password(text: &str) -> SecretText {
    SecretText::new(text)
}

#[tokio::test]
async fn a_hashed_password_verifies() {
    let hasher = hasher();
    let hash = hasher
        .hash(password("correct horse battery"))
        .await
        .unwrap();
    assert!(
        hasher
            .verify(password("correct horse battery"), Some(hash))
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn a_wrong_password_does_not_verify() {
    let hasher = hasher();
    let hash = hasher
        .hash(password("correct horse battery"))
        .await
        .unwrap();
    assert!(
        !hasher
            .verify(password("correct horse battery!"), Some(hash))
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn verifying_without_a_stored_hash_is_always_false() {
    let hasher = hasher();
    for attempt in ["", "correct horse battery", "password"] {
        assert!(!hasher.verify(password(attempt), None).await.unwrap());
    }
    assert!(
        hasher.inner.dummy.get().is_some(),
        "the dummy hash is reused"
    );
}

#[tokio::test]
async fn the_hash_is_an_argon2id_phc_string_with_the_configured_costs() {
    let hash = hasher()
        .hash(password("correct horse battery"))
        .await
        .unwrap();
    assert!(
        hash.as_str().starts_with("$argon2id$v=19$m=64,t=1,p=1$"),
        "{}",
        hash.as_str()
    );
    assert!(!hash.as_str().contains("correct horse battery"));
}

#[tokio::test]
async fn the_same_password_hashes_differently_each_time() {
    let hasher = hasher();
    let first = hasher
        .hash(password("correct horse battery"))
        .await
        .unwrap();
    let second = hasher
        .hash(password("correct horse battery"))
        .await
        .unwrap();
    assert_ne!(first, second);
}

#[tokio::test]
async fn a_hash_made_with_other_costs_still_verifies() {
    let old = Argon2PasswordHasher::with_params(32, 2, 1).unwrap();
    let hash = old.hash(password("correct horse battery")).await.unwrap();
    assert!(
        hasher()
            .verify(password("correct horse battery"), Some(hash))
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn a_malformed_stored_hash_is_an_error_that_hides_the_password() {
    let error = hasher()
        .verify(
            password("correct horse battery"),
            Some(PasswordHash::new("not-a-phc-string")),
        )
        .await
        .unwrap_err();
    assert!(!error.to_string().contains("correct horse battery"));
}

#[test]
fn the_default_costs_are_the_owasp_ones() {
    let debug = format!("{:?}", Argon2PasswordHasher::new());
    assert_eq!(
        debug,
        "Argon2PasswordHasher { memory_kib: 19456, iterations: 2, parallelism: 1 }"
    );
}

#[test]
fn invalid_costs_are_refused() {
    assert!(Argon2PasswordHasher::with_params(64, 0, 1).is_err());
    assert!(Argon2PasswordHasher::with_params(64, 1, 0).is_err());
}
