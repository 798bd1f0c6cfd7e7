//! The id_token check the engine runs for an `oidc` provider. The `id-token` crate
//! implements it, so the engine needs no JWT library and no adapter depends on another.

use async_trait::async_trait;
use serde_json::{Map, Value};
use social_login_domain::SecretText;
use social_login_ports::ProviderError;
use std::fmt;
use time::OffsetDateTime;

/// Verifies one provider's id_tokens; both return the token's claims.
#[async_trait]
pub trait IdTokenCheck: Send + Sync + fmt::Debug {
    /// The code flow's token: issued to `client_id`, carrying `nonce` as the plan says.
    async fn verify(
        &self,
        token: &SecretText,
        nonce: &SecretText,
    ) -> Result<Map<String, Value>, ProviderError>;

    /// A token an app presented: any of the registration's client ids as audience, the hex
    /// SHA-256 of `raw_nonce` as its nonce when the app sent one (and no nonce at all when it
    /// sent none).
    async fn verify_presented(
        &self,
        token: &SecretText,
        raw_nonce: Option<&SecretText>,
    ) -> Result<Presented, ProviderError>;
}

/// The claims of a token an app presented, when it was issued, and until when it would still
/// verify (how long it must be remembered as used).
#[derive(Debug, Clone)]
pub struct Presented {
    pub claims: Map<String, Value>,
    pub issued_at: OffsetDateTime,
    pub usable_until: OffsetDateTime,
}
