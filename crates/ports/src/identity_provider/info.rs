//! What a client is told about a provider (`GET /auth/oauth/providers`, docs/api.md): its key,
//! what a button says, its kind and whether apps may sign in with its id_tokens.

use social_login_domain::{ProviderKey, ProviderKind};

/// One enabled provider, as clients that list providers see it. Its adapter fills it in
/// from the provider's declaration (a built-in one's, or the one an operator configured).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderInfo {
    pub key: ProviderKey,
    /// What a sign-in button says ("GitHub", "X", or a configured provider's own name).
    pub display_name: String,
    pub kind: ProviderKind,
    /// Apps may sign in with an id_token of this provider (`/id-token`).
    pub id_token: bool,
}
