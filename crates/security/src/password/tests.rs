//! Tests of `Argon2PasswordHasher`, on cheap parameters so they run fast.

use super::*;

fn hasher() -> Argon2PasswordHasher {
    Argon2PasswordHasher::with_params(64, 1, 1).unwrap()
}

fn password(text: &str) -> SecretText {
    SecretText::new(text)
}

/// `hasher`'s hash of `text`.
async fn hash_of(hasher: &Argon2PasswordHasher, text: &str) -> PasswordHash {
    hasher.hash(password(text)).await.unwrap()
}

/// Whether `text` verifies against the stored `hash` under `hasher`.
async fn verifies(hasher: &Argon2PasswordHasher, text: &str, hash: PasswordHash) -> bool {
    hasher.verify(password(text), Some(hash)).await.unwrap()
}

#[tokio::test]
async fn a_hashed_password_verifies() {
    let hasher = hasher();
    let hash = hash_of(&hasher, "correct horse battery").await;
    assert!(verifies(&hasher, "correct horse battery", hash).await);
}

#[tokio::test]
async fn a_wrong_password_does_not_verify() {
    let hasher = hasher();
    let hash = hash_of(&hasher, "correct horse battery").await;
    assert!(!verifies(&hasher, "correct horse battery!", hash).await);
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
    let hash = hash_of(&hasher(), "correct horse battery").await;
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
    let first = hash_of(&hasher, "correct horse battery").await;
    let second = hash_of(&hasher, "correct horse battery").await;
    assert_ne!(first, second);
}

#[tokio::test]
async fn a_hash_made_with_other_costs_still_verifies_a_higher_memory_cost_too() {
    for (memory, time, lanes) in [(32, 2, 1), (256, 1, 1)] {
        let other = Argon2PasswordHasher::with_params(memory, time, lanes).unwrap();
        let hash = hash_of(&other, "correct horse battery").await;
        let case = format!("m={memory},t={time},p={lanes}");
        assert!(
            verifies(&hasher(), "correct horse battery", hash).await,
            "{case}"
        );
    }
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
    assert!(
        debug.starts_with(
            "Argon2PasswordHasher { memory_kib: 19456, iterations: 2, parallelism: 1, "
        ),
        "{debug}"
    );
}

fn limited(max_concurrent: usize, max_wait_ms: u64) -> Argon2PasswordHasher {
    hasher().with_limits(HashLimits {
        max_concurrent,
        max_wait: Duration::from_millis(max_wait_ms),
    })
}

#[test]
fn by_default_there_is_one_slot_per_cpu() {
    let cpus = std::thread::available_parallelism().unwrap().get();
    let limits = HashLimits::for_this_machine();
    assert_eq!(limits.max_concurrent, cpus);
    assert_eq!(hasher().slots.available_permits(), cpus);
}

#[tokio::test]
async fn with_every_slot_taken_a_hash_waits_its_bounded_time_then_is_busy() {
    let hasher = limited(2, 100);
    let _running = Arc::clone(&hasher.slots).try_acquire_many_owned(2).unwrap();
    let started = std::time::Instant::now();
    let hashed = hasher.hash(password("correct horse battery")).await;
    assert_eq!(hashed.unwrap_err(), HashError::Busy);
    let verified = hasher.verify(password("correct horse battery"), None).await;
    assert_eq!(verified.unwrap_err(), HashError::Busy);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(200), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
}

#[tokio::test]
async fn a_waiting_hash_runs_as_soon_as_a_slot_frees() {
    let hasher = limited(1, 5_000);
    let running = Arc::clone(&hasher.slots).try_acquire_owned().unwrap();
    let waiting = tokio::spawn({
        let hasher = hasher.clone();
        async move { hasher.hash(password("correct horse battery")).await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!waiting.is_finished(), "waits while the only slot is taken");
    drop(running);
    assert!(waiting.await.unwrap().is_ok());
}

#[tokio::test]
async fn slots_are_given_back_after_each_hash() {
    let hasher = limited(1, 100);
    for _ in 0..5 {
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
        assert!(!hasher.verify(password("x"), None).await.unwrap());
    }
    assert_eq!(hasher.slots.available_permits(), 1);
}

#[tokio::test]
async fn hashes_are_the_argon2_crates_phc_strings_both_ways() {
    use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
    // One slot: every hash reuses the same workspace, whatever the previous one left in it.
    let hasher = limited(1, 1_000);
    let stock = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(64, 1, 1, None).unwrap(),
    );
    for text in ["correct horse battery", "another password", ""] {
        let ours = hash_of(&hasher, text).await;
        stock
            .verify_password(text.as_bytes(), ours.as_str())
            .expect("the argon2 crate verifies our hash");
        let theirs = stock.hash_password(text.as_bytes()).unwrap().to_string();
        let theirs = PasswordHash::new(theirs);
        assert!(verifies(&hasher, text, theirs.clone()).await);
        assert!(!verifies(&hasher, "wrong", theirs).await);
    }
}

#[tokio::test]
async fn memory_is_kept_for_at_most_as_many_hashes_as_there_are_slots() {
    let hasher = limited(2, 10_000);
    let mut hashes = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let hasher = hasher.clone();
        hashes.spawn(async move { hasher.hash(password("correct horse battery")).await });
    }
    while let Some(hash) = hashes.join_next().await {
        hash.unwrap().unwrap();
    }
    let workspaces = hasher.inner.idle_workspaces().len();
    assert!((1..=2).contains(&workspaces), "{workspaces} workspaces");
}

#[test]
fn zero_slots_means_one() {
    assert_eq!(limited(0, 10).limits.max_concurrent, 1);
}

#[test]
fn invalid_costs_are_refused() {
    assert!(Argon2PasswordHasher::with_params(64, 0, 1).is_err());
    assert!(Argon2PasswordHasher::with_params(64, 1, 0).is_err());
}
