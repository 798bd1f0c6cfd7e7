//! A code-flow sign-in: the exchange (with a minted secret where the provider needs one),
//! the id_token (`oidc`), the userinfo answer, the claims, the quirk's finish.

use super::Engine;
use crate::fetch::fetch_json;
use crate::grant_context::keep;
use crate::http_client::CallKind;
use crate::plan::Endpoint;
use crate::quirks::UserinfoCall;
use crate::token_set::TokenSet;
use serde_json::{Map, Value};
use social_login_ports::{CallbackInput, ProviderError, ProviderLogin};
use url::Url;

impl Engine {
    pub(super) async fn sign_in(
        &self,
        callback: CallbackInput,
    ) -> Result<ProviderLogin, ProviderError> {
        let tokens = self.exchange(&callback).await?;
        let id_token = match &self.id_token {
            Some(check) => {
                // An OIDC sign-in without its id_token proves nothing.
                let token = tokens.id_token.as_ref().ok_or_else(|| {
                    ProviderError::UserInfo("token endpoint answered no id_token".into())
                })?;
                Some(check.verify(token, &callback.redeemed.nonce).await?)
            }
            None => None,
        };
        let userinfo = match self.plan.urls.get(Endpoint::Userinfo) {
            Some(url) => Some(self.userinfo(url, &tokens).await?),
            None => None,
        };
        if let (Some(claims), Some(userinfo)) = (&id_token, &userinfo) {
            same_subject(claims, userinfo)?;
        }
        let documents: Vec<&Map<String, Value>> = id_token.iter().chain(&userinfo).collect();
        let access_token = Some(&tokens.access_token);
        let post_body = callback.post_body.as_ref();
        let members = Some(&tokens.members);
        let identity = self
            .identity(&documents, access_token, post_body, members)
            .await?;
        let extra = &callback.redeemed.extra_scopes;
        let tokens = if extra.as_str().is_empty() {
            tokens.into_provider_tokens(&self.plan.spec.scopes)
        } else {
            let asked: Vec<String> = (self.plan.spec.scopes.iter().map(String::as_str))
                .chain(extra.iter())
                .map(str::to_owned)
                .collect();
            tokens.into_provider_tokens(&asked)
        };
        Ok(ProviderLogin { identity, tokens })
    }

    async fn exchange(&self, callback: &CallbackInput) -> Result<TokenSet, ProviderError> {
        let mut tokens = self.exchange_code(callback).await?;
        if let Some(context) = self.quirks.grant_context(callback.post_body.as_ref()) {
            keep(&context, &mut tokens);
        }
        Ok(tokens)
    }

    async fn exchange_code(&self, callback: &CallbackInput) -> Result<TokenSet, ProviderError> {
        let (code, verifier) = (&callback.code, &callback.redeemed.pkce_verifier);
        match self.quirks.client_secret(&self.plan.settings.client_id)? {
            Some(secret) => {
                self.flow
                    .exchange_code_with_secret(code, verifier, &secret)
                    .await
            }
            None => {
                let extra = self.quirks.token_params(callback.post_body.as_ref());
                self.flow.exchange_code(code, verifier, &extra).await
            }
        }
    }

    /// The userinfo answer, which must be a JSON object and no failure in the provider's
    /// own shape.
    async fn userinfo(
        &self,
        url: &Url,
        tokens: &TokenSet,
    ) -> Result<Map<String, Value>, ProviderError> {
        let what = self.plan.label("userinfo endpoint");
        let request = self.quirks.userinfo_request(UserinfoCall {
            url,
            access_token: &tokens.access_token,
            scopes: &self.plan.spec.scopes,
            http: self.flow.http(),
            shape: self.api_shape(),
            token_members: &tokens.members,
        });
        let Value::Object(document) =
            fetch_json(&what, self.flow.http(), request, CallKind::Userinfo).await?
        else {
            let message = format!("{what} answered JSON that is not an object");
            return Err(ProviderError::UserInfo(message));
        };
        match self.quirks.userinfo_failure(&document) {
            Some(failure) => Err(failure),
            None => Ok(document),
        }
    }
}

/// OIDC Core §5.3.2: the userinfo answer must be about the id_token's subject, whatever
/// pointer the subject is read from.
fn same_subject(
    claims: &Map<String, Value>,
    userinfo: &Map<String, Value>,
) -> Result<(), ProviderError> {
    match (claims.get("sub"), userinfo.get("sub")) {
        (Some(Value::String(signed)), Some(Value::String(answered))) if signed == answered => {
            Ok(())
        }
        _ => Err(ProviderError::UserInfo(
            "userinfo subject differs from the id_token subject".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn same(claims: Value, userinfo: Value) -> bool {
        let (claims, userinfo) = (claims.as_object().unwrap(), userinfo.as_object().unwrap());
        same_subject(claims, userinfo).is_ok()
    }

    #[test]
    fn a_userinfo_answer_about_someone_else_is_refused() {
        assert!(same(
            json!({"sub": "1"}),
            json!({"sub": "1", "email": "a@b.c"})
        ));
        assert!(!same(json!({"sub": "1"}), json!({"sub": "2"})));
        assert!(
            !same(json!({"sub": "1"}), json!({"id": "1"})),
            "no sub is no match"
        );
        assert!(
            !same(json!({"sub": "1"}), json!({"sub": 1})),
            "another type"
        );
        let error = same_subject(&Map::new(), &Map::new()).unwrap_err();
        assert!(matches!(error, ProviderError::UserInfo(m) if m.contains("subject")));
    }
}
