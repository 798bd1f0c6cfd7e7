//! The randomness port: where the use cases get unguessable values (state ids, PKCE
//! verifiers, nonces, the random part of new ids), so tests can make them deterministic.

/// A source of random bytes. The real one is the operating system's CSPRNG; a seeded one
/// makes a test's ids and values repeat run after run.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait Randomness: Send + Sync {
    /// Fills `dest`. There is no error: a failing OS generator is not something to go on
    /// from, so an implementation panics rather than hand out guessable values.
    fn fill(&self, dest: &mut [u8]);
}
