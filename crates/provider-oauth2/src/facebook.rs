//! Facebook (docs/providers.md#facebook): the declaration reads the Graph API's `/me`; the
//! quirks sign every Graph call with `appsecret_proof` (hex HMAC-SHA256 of the access token,
//! keyed with the app secret, so an app with "Require App Secret" on works and a stolen token
//! alone is useless), ask for the fields sign-in reads, name Graph errors, and drop the
//! default silhouette picture, which is not the person's.

mod graph;
mod proof;

use async_trait::async_trait;
use reqwest::RequestBuilder;
use serde_json::{Map, Value};
use social_login_domain::SecretText;
use social_login_ports::ProviderError;
use social_login_provider_core::{
    Finish, ProviderConfigError, ProviderPlan, Quirks, RevocationCall, UserinfoCall,
    require_non_empty,
};

/// The `/me` fields sign-in reads.
const ME_FIELDS: &str = "id,name,email,picture";

/// Facebook's quirks: the app secret every Graph call is signed with.
#[derive(Debug, Clone)]
pub struct FacebookQuirks {
    app_secret: SecretText,
}

impl FacebookQuirks {
    /// The client secret is required: every Graph call is signed with it.
    pub fn new(plan: &ProviderPlan) -> Result<Self, ProviderConfigError> {
        require_non_empty("client_secret", plan.settings.client_secret.expose())?;
        Ok(Self {
            app_secret: plan.settings.client_secret.clone(),
        })
    }

    fn proof(&self, access_token: &SecretText) -> String {
        proof::appsecret_proof(&self.app_secret, access_token)
    }
}

#[async_trait]
impl Quirks for FacebookQuirks {
    /// `/me?fields=…&appsecret_proof=…`; the token goes in the header, not the URL, where
    /// proxies and logs could see it.
    fn userinfo_request(&self, call: UserinfoCall<'_>) -> RequestBuilder {
        let proof = self.proof(call.access_token);
        let url = graph::signed(call.url, &proof, Some(ME_FIELDS));
        call.http.get(url).bearer_auth(call.access_token.expose())
    }

    fn userinfo_failure(&self, document: &Map<String, Value>) -> Option<ProviderError> {
        graph::failure(document)
    }

    async fn finish(&self, finish: &mut Finish<'_>) -> Result<(), ProviderError> {
        let me = finish.cx.first();
        let picture = me.and_then(|me| me.get("picture")?.get("data")?.get("is_silhouette"));
        if picture == Some(&Value::Bool(true)) {
            finish.identity.avatar_url = None;
        }
        Ok(())
    }

    /// `DELETE /me/permissions` with the user's token de-authorizes the app for that user,
    /// every token with it; signed like every Graph call.
    fn revocation_request(&self, call: RevocationCall<'_>) -> Option<RequestBuilder> {
        let token = &call.grant.access_token;
        let url = graph::signed(call.to.url(), &self.proof(token), None);
        Some(
            call.to
                .http()
                .reqwest()
                .delete(url)
                .bearer_auth(token.expose()),
        )
    }
}

#[cfg(test)]
mod tests;
