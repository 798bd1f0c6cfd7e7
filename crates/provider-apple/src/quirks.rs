//! Apple's quirks: the client secret signed for each request, and the name of the first
//! login from its form_post.

use crate::client_secret::ClientSecretSigner;
use crate::post_body;
use async_trait::async_trait;
use social_login_domain::{PersonName, SecretText};
use social_login_ports::ProviderError;
use social_login_provider_core::{Finish, Quirks};

/// The signer of one Services ID's client secrets.
#[derive(Debug, Clone)]
pub struct AppleQuirks {
    signer: ClientSecretSigner,
}

impl AppleQuirks {
    pub fn new(signer: ClientSecretSigner) -> Self {
        Self { signer }
    }
}

#[async_trait]
impl Quirks for AppleQuirks {
    fn client_secret(&self, client_id: &str) -> Result<Option<SecretText>, ProviderError> {
        self.signer.sign_as(client_id).map(Some)
    }

    /// The name is never in the token: it is the one the client posted from Apple's first
    /// form_post (or the app from its credential), and absent on later logins.
    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let posted = post_body::name_in(finish.cx.post_body);
        finish.identity.full_name = posted.as_ref().and_then(PersonName::full_name);
        Ok(())
    }
}
