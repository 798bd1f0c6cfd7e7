//! `Argon2PasswordHasher`: argon2id PHC strings, computed off the async worker threads, a
//! bounded number at a time, in memory reserved for them.

mod phc;

use argon2::Params;
use async_trait::async_trait;
use phc::Workspace;
use social_login_domain::{PasswordHash, SecretText};
use social_login_ports::{HashError, PasswordHasher};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// OWASP Password Storage Cheat Sheet, argon2id option 2: 19 MiB, 2 passes, 1 lane.
pub const OWASP_MEMORY_KIB: u32 = 19 * 1024;
pub const OWASP_ITERATIONS: u32 = 2;
pub const OWASP_PARALLELISM: u32 = 1;

/// Hashes passwords with argon2id into PHC strings (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`),
/// with a fresh random salt each time.
///
/// Hashing takes tens of milliseconds of CPU on purpose, so it runs in
/// `spawn_blocking`: on the async workers it would stall every other request.
///
/// Each hash also needs `memory_kib` of memory (19 MiB with the OWASP costs), and tokio's
/// blocking pool would run up to 512 at once: a burst of logins could take gigabytes. So a
/// hash first takes one of [`HashLimits::max_concurrent`] slots, waiting at most
/// [`HashLimits::max_wait`] for one, and answers [`HashError::Busy`] past that. Each running
/// hash uses one of at most that many workspaces, allocated on first need and reused, so
/// hashing never holds more than `max_concurrent × memory_kib`. Clones share slots and memory.
#[derive(Clone)]
pub struct Argon2PasswordHasher {
    inner: Arc<Inner>,
    slots: Arc<Semaphore>,
    limits: HashLimits,
}

/// How many hashes run at once, and how long a caller waits for a free slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashLimits {
    /// Hashes running at the same time (at least 1).
    pub max_concurrent: usize,
    /// Longest wait for a slot before [`HashError::Busy`]. Waiters queue in arrival order;
    /// their number is bounded by the requests the server lets in.
    pub max_wait: Duration,
}

impl HashLimits {
    /// How long a caller waits for a slot by default: a short burst is absorbed, a long one
    /// turns into quick "retry later" answers instead of a queue that only grows.
    pub const DEFAULT_MAX_WAIT: Duration = Duration::from_secs(2);

    /// One slot per CPU this process may use (cgroup quotas included). A hash keeps one CPU
    /// busy, so more slots would add memory and latency but no throughput.
    pub fn for_this_machine() -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            max_concurrent: cpus,
            max_wait: Self::DEFAULT_MAX_WAIT,
        }
    }
}

struct Inner {
    params: Params,
    /// Hash of a random password, made on first need, so that a login for an unknown
    /// email spends the same work as one for a known email.
    dummy: OnceLock<String>,
    /// Idle workspaces. A running hash holds a slot, so at most `max_concurrent` exist.
    workspaces: Mutex<Vec<Workspace>>,
}

impl Argon2PasswordHasher {
    /// The OWASP parameters: m=19456 KiB, t=2, p=1.
    pub fn new() -> Self {
        Self::with_params(OWASP_MEMORY_KIB, OWASP_ITERATIONS, OWASP_PARALLELISM)
            .expect("the OWASP argon2 parameters are valid")
    }

    /// Custom cost parameters, e.g. cheap ones in tests (`with_params(8, 1, 1)`).
    /// Fails for values argon2 refuses (memory below 8 KiB per lane, zero passes or lanes).
    pub fn with_params(
        memory_kib: u32,
        iterations: u32,
        parallelism: u32,
    ) -> Result<Self, HashError> {
        let params = Params::new(memory_kib, iterations, parallelism, None)
            .map_err(|e| HashError::Failed(format!("invalid argon2 parameters: {e}")))?;
        Ok(Self::build(params, HashLimits::for_this_machine()))
    }

    /// The same costs with other limits, and slots and memory of its own.
    pub fn with_limits(self, limits: HashLimits) -> Self {
        Self::build(self.inner.params.clone(), limits)
    }

    fn build(params: Params, limits: HashLimits) -> Self {
        let limits = HashLimits {
            max_concurrent: limits.max_concurrent.clamp(1, Semaphore::MAX_PERMITS),
            ..limits
        };
        Self {
            inner: Arc::new(Inner {
                params,
                dummy: OnceLock::new(),
                workspaces: Mutex::new(Vec::new()),
            }),
            slots: Arc::new(Semaphore::new(limits.max_concurrent)),
            limits,
        }
    }

    /// Waits up to `max_wait` for a free slot. The permit is moved into the blocking task,
    /// so a slot stays taken while the hash runs even if the request was abandoned.
    async fn slot(&self) -> Result<OwnedSemaphorePermit, HashError> {
        let acquire = Arc::clone(&self.slots).acquire_owned();
        match tokio::time::timeout(self.limits.max_wait, acquire).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_closed)) => Err(HashError::Failed("the hashing slots are closed".into())),
            Err(_elapsed) => Err(HashError::Busy),
        }
    }

    /// Runs `work` on the blocking pool, holding a slot and a workspace.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Inner, &mut Workspace) -> Result<T, HashError> + Send + 'static,
    ) -> Result<T, HashError> {
        let slot = self.slot().await?;
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            inner.with_workspace(|workspace| work(&inner, workspace))
        })
        .await
        .map_err(|_| HashError::Failed("the hashing task did not complete".into()))?
    }
}

impl Default for Argon2PasswordHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Argon2PasswordHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.inner.params;
        f.debug_struct("Argon2PasswordHasher")
            .field("memory_kib", &p.m_cost())
            .field("iterations", &p.t_cost())
            .field("parallelism", &p.p_cost())
            .field("max_concurrent", &self.limits.max_concurrent)
            .finish()
    }
}

impl Inner {
    /// An idle workspace (or a new one), given back when `work` is done.
    fn with_workspace<T>(&self, work: impl FnOnce(&mut Workspace) -> T) -> T {
        let idle = self.idle_workspaces().pop();
        let mut workspace = idle.unwrap_or_else(|| Workspace::for_params(&self.params));
        let result = work(&mut workspace);
        self.idle_workspaces().push(workspace);
        result
    }

    /// A panic elsewhere cannot leave the list itself inconsistent.
    fn idle_workspaces(&self) -> std::sync::MutexGuard<'_, Vec<Workspace>> {
        self.workspaces
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn dummy_hash(&self, workspace: &mut Workspace) -> Result<&str, HashError> {
        if let Some(dummy) = self.dummy.get() {
            return Ok(dummy);
        }
        let password = crate::random::random_url_token(32);
        let fresh = phc::hash(&self.params, password.as_bytes(), workspace)?;
        Ok(self.dummy.get_or_init(|| fresh))
    }
}

#[async_trait]
impl PasswordHasher for Argon2PasswordHasher {
    async fn hash(&self, password: SecretText) -> Result<PasswordHash, HashError> {
        let phc = self
            .run(move |inner, workspace| {
                phc::hash(&inner.params, password.expose().as_bytes(), workspace)
            })
            .await?;
        Ok(PasswordHash::new(phc))
    }

    async fn verify(
        &self,
        password: SecretText,
        hash: Option<PasswordHash>,
    ) -> Result<bool, HashError> {
        self.run(move |inner, workspace| {
            let password = password.expose().as_bytes();
            match hash {
                Some(hash) => phc::verify(password, hash.as_str(), workspace),
                None => {
                    // Same work as a real check, then refuse whatever the outcome.
                    let dummy = inner.dummy_hash(workspace)?;
                    phc::verify(password, dummy, workspace)?;
                    Ok(false)
                }
            }
        })
        .await
    }
}

#[cfg(test)]
mod tests;
