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
        let identity = self.identity(&documents, None, input.post_body.as_ref(), None);
        let audience = self.registered_audience(&presented.claims).ok_or_else(|| {
            ProviderError::UserInfo("id_token audience is not this client".into())
        })?;
        Ok(PresentedIdToken {
            identity: identity.await?,
            issued_at: presented.issued_at,
            usable_until: presented.usable_until,
            audience,
        })
    }

    /// Which of the registration's client ids the verified token was issued to (its `aud`,
    /// a string or a list; the check already made sure one of them is ours).
    fn registered_audience(&self, claims: &Map<String, Value>) -> Option<String> {
        let settings = &self.plan.settings;
        let ours =
            |id: &&str| *id == settings.client_id || settings.client_ids.iter().any(|c| c == id);
        match claims.get("aud")? {
            Value::String(one) => Some(one.as_str()).filter(ours),
            Value::Array(many) => many.iter().filter_map(Value::as_str).find(ours),
            _ => None,
        }
        .map(str::to_owned)
    }
}
