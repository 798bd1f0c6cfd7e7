//! A native sign-in: an id_token an app obtained on the device, verified like the code
//! flow's, mapped from its claims alone (no provider token comes with it).

use super::Engine;
use crate::claims;
use crate::quirks::FinishContext;
use serde_json::{Map, Value};
use social_login_domain::ProviderIdentity;
use social_login_ports::{IdTokenInput, ProviderError};

impl Engine {
    pub(super) async fn sign_in_natively(
        &self,
        input: IdTokenInput,
    ) -> Result<ProviderIdentity, ProviderError> {
        let native = self
            .plan
            .id_token
            .as_ref()
            .is_some_and(|r| r.native_sign_in);
        let Some(check) = self.id_token.as_ref().filter(|_| native) else {
            return Err(ProviderError::IdTokenNotSupported);
        };
        let token_claims = check
            .verify_presented(&input.id_token, input.nonce.as_ref())
            .await?;
        let documents: [&Map<String, Value>; 1] = [&token_claims];
        let mut identity = claims::map(&documents, &self.plan.claims)?;
        let cx = FinishContext {
            documents: &documents,
            access_token: None,
            post_body: input.post_body.as_ref(),
            scopes: &self.plan.scopes,
            http: self.flow.http(),
        };
        self.quirks.finish(&cx, &mut identity).await?;
        identity.into_identity(self.plan.key)
    }
}
