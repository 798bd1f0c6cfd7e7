//! The authorization code an app received with its id_token (Sign in with Apple on a
//! device), exchanged as the app's own client id for a grant the service can later revoke.

use super::Engine;
use serde_json::{Map, Value};
use social_login_domain::SecretText;
use social_login_ports::{NativeCode, NativeExchange, ProviderError, ProviderGrant};

impl Engine {
    pub(super) async fn exchange_code_of_app(
        &self,
        native: NativeCode,
    ) -> Result<NativeExchange, ProviderError> {
        let refuse = |why: &str| Err(ProviderError::CodeExchange(why.to_owned()));
        let settings = &self.plan.settings;
        let registered = native.client_id == settings.client_id
            || settings.client_ids.contains(&native.client_id);
        if !registered {
            return refuse("the id_token's audience is not a configured client id");
        }
        // Only a secret minted per client (Apple's) can name an app's own client id.
        let Some(secret) = self.quirks.client_secret(&native.client_id)? else {
            return refuse("this provider takes no authorization_code from apps");
        };
        let tokens = self
            .flow
            .exchange_app_code(&native.code, &native.client_id, &secret)
            .await?;
        // The code must be the same person's as the id_token: else one person's grant could
        // be stored (and later revoked) under another's link. The answer came straight from
        // the token endpoint over TLS, which vouches for it (OIDC Core §3.1.3.7, 6).
        let claims = tokens
            .id_token
            .as_ref()
            .and_then(payload_of)
            .ok_or_else(|| {
                ProviderError::CodeExchange("token endpoint answered no readable id_token".into())
            })?;
        let identity = self.identity(&[&claims], None, None, None).await?;
        let tokens = tokens.into_provider_tokens(&self.plan.spec.scopes);
        if identity.subject != native.subject {
            // Refused, but Apple has just issued it: handed back to be revoked as the app.
            return Ok(NativeExchange::AnotherPerson(ProviderGrant {
                access_token: tokens.access_token,
                refresh_token: tokens.refresh_token,
                client_id: Some(native.client_id),
            }));
        }
        Ok(NativeExchange::Granted(tokens))
    }
}

/// The claims of a compact JWS, unverified (see above for why that is enough here).
fn payload_of(token: &SecretText) -> Option<Map<String, Value>> {
    use base64::Engine as _;
    let payload = token.expose().split('.').nth(1)?;
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    serde_json::from_slice(&json).ok()
}

#[cfg(test)]
mod tests {
    use super::payload_of;
    use social_login_domain::SecretText;

    #[test]
    fn the_payload_of_a_compact_token_is_read_and_anything_else_is_not() {
        // {"alg":"none"} . {"sub":"001.a.1"} . sig
        let token = "eyJhbGciOiJub25lIn0.eyJzdWIiOiIwMDEuYS4xIn0.c2ln";
        let claims = payload_of(&SecretText::new(token)).unwrap();
        assert_eq!(claims["sub"], "001.a.1");
        for junk in ["", "one-part", "a.!!!.c", "a.WzFd.c"] {
            assert!(payload_of(&SecretText::new(junk)).is_none(), "{junk}");
        }
    }
}
