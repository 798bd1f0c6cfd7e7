//! argon2id as PHC strings, computed in memory the caller provides and keeps.
//!
//! argon2's `hash_password`/`verify_password` allocate the whole cost (19 MiB) for each call
//! and free it after. glibc keeps such freed blocks in the arena of the thread that used them
//! (its mmap threshold rises to the block size after the first free), and the blocking pool
//! runs hashes on ever other threads, so a process that never ran more than two hashes at once
//! was seen holding 140 MiB after a burst. A [`Workspace`] per hashing slot, reused, makes the
//! memory exactly slots × cost.

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash as PhcHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use social_login_ports::HashError;

/// The memory of one hash, kept between hashes.
pub(super) struct Workspace(Vec<Block>);

impl Workspace {
    /// Enough for hashes with `params` (allocated and touched now).
    pub(super) fn for_params(params: &Params) -> Self {
        Self(vec![Block::default(); params.block_count()])
    }

    /// Runs `hash` on at least `count` blocks: this workspace's, or, for a stored hash made
    /// with a higher memory cost than today's, a one-off buffer freed right after.
    fn with_blocks<T>(&mut self, count: usize, hash: impl FnOnce(&mut [Block]) -> T) -> T {
        if count <= self.0.len() {
            hash(&mut self.0)
        } else {
            hash(&mut vec![Block::default(); count])
        }
    }
}

/// `password` hashed with `params` and a fresh random salt, as
/// `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
pub(super) fn hash(
    params: &Params,
    password: &[u8],
    workspace: &mut Workspace,
) -> Result<String, HashError> {
    let salt_bytes = crate::random::random_bytes::<{ Salt::RECOMMENDED_LENGTH }>();
    let mut output = vec![0u8; params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN)];
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    workspace
        .with_blocks(params.block_count(), |blocks| {
            argon2.hash_password_into_with_memory(password, &salt_bytes, &mut output, blocks)
        })
        .map_err(|e| HashError::Failed(format!("argon2 hashing failed: {e}")))?;
    let phc = PhcHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(params).map_err(encoding)?,
        salt: Some(Salt::new(&salt_bytes).map_err(encoding)?),
        hash: Some(Output::new(&output).map_err(encoding)?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches `phc`, recomputed with the algorithm, version, costs and salt
/// the string names (hashes made with older costs keep verifying), compared in constant time.
pub(super) fn verify(
    password: &[u8],
    phc: &str,
    workspace: &mut Workspace,
) -> Result<bool, HashError> {
    let parsed = PhcHash::new(phc)
        .map_err(|_| HashError::Failed("the stored password hash is not a PHC string".into()))?;
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
        return Ok(false);
    };
    let algorithm = Algorithm::try_from(parsed.algorithm.as_str()).map_err(unusable)?;
    let version = parsed
        .version
        .map(Version::try_from)
        .transpose()
        .map_err(unusable)?
        .unwrap_or_default();
    let params = Params::try_from(&parsed).map_err(unusable)?;
    let mut output = vec![0u8; expected.len()];
    let argon2 = Argon2::new(algorithm, version, params.clone());
    workspace
        .with_blocks(params.block_count(), |blocks| {
            argon2.hash_password_into_with_memory(password, salt.as_ref(), &mut output, blocks)
        })
        .map_err(|e| HashError::Failed(format!("argon2 verification failed: {e}")))?;
    let computed = Output::new(&output).map_err(unusable)?;
    // `Output`'s equality is constant-time.
    Ok(computed == *expected)
}

fn encoding(error: impl std::fmt::Display) -> HashError {
    HashError::Failed(format!("argon2 hash encoding failed: {error}"))
}

fn unusable(error: impl std::fmt::Display) -> HashError {
    HashError::Failed(format!("unusable stored password hash: {error}"))
}
