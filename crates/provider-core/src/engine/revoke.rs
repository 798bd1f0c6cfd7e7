//! Revoking a grant: the quirk's own request, else the RFC 7009 form the plan describes
//! (which token, a `token_type_hint`, the client authenticated as at the token endpoint).

use super::Engine;
use crate::grant_context::kept_apart;
use crate::quirks::RevocationCall;
use crate::revocation::{AlreadyGone, RevocationEndpoint, send_revocation, whole_grant_token};
use social_login_ports::{ProviderError, ProviderGrant, Revoked};
use social_login_provider_spec::RevocationRules;
use social_login_provider_spec::{RevocationAuth, RevokedToken, TokenAuth};

impl Engine {
    pub(super) async fn revoke_grant(
        &self,
        grant: ProviderGrant,
    ) -> Result<Revoked, ProviderError> {
        let (Some(rules), Some(endpoint)) = (&self.plan.spec.revocation, &self.revocation) else {
            return Ok(Revoked::NotSupported);
        };
        // A refresh token kept with its grant's context is sent alone, whoever builds the
        // request.
        let grant = ProviderGrant {
            refresh_token: grant.refresh_token.as_ref().map(|t| kept_apart(t).1),
            ..grant
        };
        let call = RevocationCall {
            to: endpoint,
            grant: &grant,
        };
        let request = match self.quirks.revocation_request(call) {
            Some(request) => request,
            None => self.rfc_7009(rules, endpoint, &grant)?,
        };
        let already_gone: Vec<AlreadyGone> = rules
            .already_gone
            .iter()
            .map(|gone| AlreadyGone {
                status: gone.status,
                error: &gone.error,
            })
            .collect();
        let what = self.plan.label("revocation endpoint");
        send_revocation(&what, endpoint.http(), request, &already_gone).await
    }

    fn rfc_7009(
        &self,
        rules: &RevocationRules,
        endpoint: &RevocationEndpoint,
        grant: &ProviderGrant,
    ) -> Result<reqwest::RequestBuilder, ProviderError> {
        let (token, hint) = match rules.sends {
            RevokedToken::RefreshFirst => whole_grant_token(grant),
            RevokedToken::AccessToken => (&grant.access_token, "access_token"),
        };
        let mut params = vec![("token", token.expose())];
        if rules.hint {
            params.push(("token_type_hint", hint));
        }
        if rules.client_auth == RevocationAuth::None {
            return Ok(endpoint.post_form(&params));
        }
        // A grant an app exchanged is revoked as the client it was issued to.
        let client_id = grant.client_id.as_deref().unwrap_or(endpoint.client_id());
        let minted = self
            .quirks
            .client_secret(client_id)
            .map_err(|_| ProviderError::Revocation("client secret could not be signed".into()))?;
        if minted.is_none() && client_id != endpoint.client_id() {
            return Err(ProviderError::Revocation(
                "no secret for the client the grant was issued to".into(),
            ));
        }
        Ok(match (self.plan.spec.token_auth, minted) {
            (_, Some(secret)) => {
                params.push(("client_id", client_id));
                params.push(("client_secret", secret.expose()));
                endpoint.post_form(&params)
            }
            // A public client (no secret) names itself in the body, as at the token endpoint.
            (TokenAuth::ClientSecretBasic, None)
                if endpoint.client_secret().expose().is_empty() =>
            {
                params.push(("client_id", endpoint.client_id()));
                endpoint.post_form(&params)
            }
            (TokenAuth::ClientSecretBasic, None) => endpoint.post_form_with_basic(&params),
            (_, None) => endpoint.post_form_with_body_credentials(&params),
        })
    }
}
