//! Listing the enabled providers (`GET /auth/oauth/providers`, docs/api.md).

use crate::AuthService;
use social_login_ports::ProviderInfo;

impl AuthService {
    /// The enabled providers, in configuration order: what sign-in buttons are made from.
    pub fn providers(&self) -> Vec<ProviderInfo> {
        self.ports.providers.infos()
    }
}
