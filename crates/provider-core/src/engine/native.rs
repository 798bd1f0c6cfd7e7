//! A native sign-in: an id_token an app obtained on the device, verified like the code
//! flow's, mapped from its claims alone (no provider token comes with it).

use super::Engine;
use serde_json::{Map, Value};
use social_login_ports::{IdTokenInput, PresentedIdToken, ProviderError};

impl Engine {
    pub(super) async fn sign_in_natively(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        let native = self.plan.spec.native_sign_in();
        let Some(check) = self.id_token.as_ref().filter(|_| native) else {
            return Err(ProviderError::IdTokenNotSupported);
        };
        let presented = check
            .verify_presented(&input.id_token, input.nonce.as_ref())
            .await?;
        let documents: [&Map<String, Value>; 1] = [&presented.claims];
        let identity = self.identity(&documents, None, input.post_body.as_ref());
        Ok(PresentedIdToken {
            identity: identity.await?,
            usable_until: presented.usable_until,
        })
    }
}
