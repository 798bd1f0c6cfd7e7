//! Security adapters: the token cipher, the state sealer, the password hasher and the
//! session tokens.
//!
//! Every key is derived from the configured `secret_key` with HKDF-SHA256 (see [`keys`]),
//! once, when an adapter is built; the access-token key is an Ed25519 pair from a derived
//! seed, whose public half other services verify with. Previous secret keys keep opening and verifying what they
//! produced, so `secret_key` can be rotated without logging everybody out or losing the
//! stored provider tokens.

pub mod admin_keys;
mod aead_blob;
pub mod cipher;
pub mod keys;
pub mod password;
pub mod random;
pub mod session_tokens;
pub mod state_sealer;

pub use admin_keys::{AdminKeyHash, AdminKeys, BadAdminKeyHash, generate_admin_key};
pub use cipher::AesGcmTokenCipher;
pub use keys::{KeyId, key_id};
pub use password::{Argon2PasswordHasher, HashLimits};
pub use random::{ThreadRandomness, generate_secret_key, os_random_fill, random_url_token};
pub use session_tokens::{JwtSessionTokens, PublicJwk};
pub use state_sealer::AeadStateSealer;
