//! The Apple adapter: authorization URL with `response_mode=form_post`, PKCE S256 and a
//! nonce; code exchange with a client secret minted for it; identity from the id_token.

use crate::client_secret::{ClientSecretSigner, KEY_FIELD, read_team_key};
use crate::identity;
use crate::post_body;
use crate::revoke::{self, APPLE_REVOCATION_URL};
use async_trait::async_trait;
use social_login_domain::{ProviderKey, SecretText};
use social_login_id_token::{IdTokenVerifier, IssuerPolicy, KeySetCache};
use social_login_ports::{
    AuthorizationRequest, CallbackInput, Clock, IdTokenInput, IdentityProvider, PresentedIdToken,
    ProviderError, ProviderGrant, ProviderLogin, Revoked, SystemClock,
};
use social_login_provider_core::{
    ClientAuth, CodeFlow, FlowDefaults, ProviderConfigError, ProviderSettings, RevocationEndpoint,
    SettingsProblem, SettingsRules, check_settings, require_non_empty, resolve_endpoint,
};
use std::sync::Arc;

/// Apple's endpoints (PROVIDERS.md §8.1) and the scopes for a sign-in with name and email.
pub const APPLE_DEFAULTS: FlowDefaults = FlowDefaults {
    authorization: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    scopes: &["name", "email"],
    // Apple supports `client_secret_post` only.
    client_auth: ClientAuth::RequestBody,
};
pub const APPLE_JWKS_URL: &str = "https://appleid.apple.com/auth/keys";
/// Hard-coded rather than discovered: in June 2025 Apple's discovery document briefly
/// named another issuer while its tokens kept this one (PROVIDERS.md §8.1).
pub const APPLE_ISSUER: &str = "https://appleid.apple.com";

/// The Sign in with Apple adapter (spec 4.7).
#[derive(Debug, Clone)]
pub struct AppleProvider {
    flow: CodeFlow,
    secret: ClientSecretSigner,
    verifier: IdTokenVerifier,
    revocation: RevocationEndpoint,
}

/// What a missing signing setting is told.
const SIGNING_REQUIRED: &str = "required when oauth_providers.apple is enabled";

impl AppleProvider {
    /// Every problem of the settings [`Self::new`] takes, for `check-config`: the table's
    /// (no static secret needed), then the team, key id and `.p8` key, which are settings
    /// of the service (`apple_team_id`…); a blank one counts as missing.
    pub fn check_settings(
        settings: &ProviderSettings,
        team_id: &str,
        key_id: &str,
        private_key_pem: &SecretText,
    ) -> Vec<SettingsProblem> {
        let rules = SettingsRules {
            client_secret: false,
            ..SettingsRules::STANDARD
        };
        let mut problems = check_settings(settings, rules);
        for (field, value) in [("apple_team_id", team_id), ("apple_key_id", key_id)] {
            if value.trim().is_empty() {
                problems.push(SettingsProblem::service(field, SIGNING_REQUIRED));
            }
        }
        let pem = private_key_pem.expose();
        if pem.trim().is_empty() {
            problems.push(SettingsProblem::service(KEY_FIELD, SIGNING_REQUIRED));
        } else if let Err(reason) = read_team_key(pem) {
            problems.push(SettingsProblem::service(KEY_FIELD, reason));
        }
        problems
    }

    /// Builds the adapter on the shared client; fails naming the first invalid setting.
    /// `settings.client_secret` is ignored (spec 4.7.1): the secret is signed per exchange
    /// with `private_key_pem` (Apple's `.p8`), `team_id` and `key_id`. `endpoints.issuer`
    /// and `endpoints.jwks` replace Apple's when set.
    pub fn new(
        settings: ProviderSettings,
        team_id: String,
        key_id: String,
        private_key_pem: SecretText,
        http: reqwest::Client,
    ) -> Result<Self, ProviderConfigError> {
        Self::with_clock(
            settings,
            team_id,
            key_id,
            private_key_pem,
            http,
            Arc::new(SystemClock),
        )
    }

    /// Like [`Self::new`], reading the time from `clock`: the client secret's `iat`/`exp`,
    /// the id_token checks and the key-set cache's timing.
    pub fn with_clock(
        mut settings: ProviderSettings,
        team_id: String,
        key_id: String,
        private_key_pem: SecretText,
        http: reqwest::Client,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, ProviderConfigError> {
        settings.client_secret = SecretText::new("");
        let jwks_url = resolve_endpoint(
            "endpoints.jwks",
            settings.endpoints.jwks.as_deref(),
            APPLE_JWKS_URL,
        )?;
        let issuer = match settings.endpoints.issuer.as_deref() {
            Some(issuer) => {
                require_non_empty("endpoints.issuer", issuer)?;
                issuer.trim()
            }
            None => APPLE_ISSUER,
        };
        let revocation = RevocationEndpoint::new(&settings, APPLE_REVOCATION_URL, &http)?;
        let flow = CodeFlow::new(&settings, &APPLE_DEFAULTS, http)?;
        let secret = ClientSecretSigner::new(
            &team_id,
            &key_id,
            &private_key_pem,
            &settings.client_id,
            clock.clone(),
        )?;
        let keys = KeySetCache::shared(&jwks_url, flow.http());
        let verifier = IdTokenVerifier::new(
            keys,
            IssuerPolicy::one_of([issuer]),
            settings.client_id.clone(),
            clock,
        );
        Ok(Self {
            flow,
            secret,
            verifier,
            revocation,
        })
    }

    /// Accepts `client_ids` (`[oauth_providers.apple] client_ids`: the app's bundle id, which
    /// is the audience of tokens Sign in with Apple issues on iOS) besides the Services ID
    /// as the audience of id_tokens an app presents natively.
    pub fn with_client_ids(mut self, client_ids: &[String]) -> Self {
        self.verifier = self
            .verifier
            .with_other_client_ids(client_ids.iter().cloned());
        self
    }
}

#[async_trait]
impl IdentityProvider for AppleProvider {
    fn key(&self) -> ProviderKey {
        ProviderKey::APPLE
    }

    fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        // form_post is mandatory once a scope is asked for (PROVIDERS.md §8.2).
        self.flow.authorization_url(
            request,
            &[
                ("response_mode", "form_post"),
                ("nonce", request.nonce.expose()),
            ],
        )
    }

    #[tracing::instrument(skip_all, fields(provider = "apple"))]
    async fn complete(&self, callback: CallbackInput) -> Result<ProviderLogin, ProviderError> {
        let client_secret = self.secret.sign()?;
        let tokens = self
            .flow
            .exchange_code_with_secret(
                &callback.code,
                &callback.redeemed.pkce_verifier,
                &client_secret,
            )
            .await?;
        let id_token = tokens
            .id_token
            .as_ref()
            .ok_or_else(|| ProviderError::UserInfo("token endpoint answered no id_token".into()))?;
        let claims = self
            .verifier
            .verify(id_token, &callback.redeemed.nonce)
            .await?;
        let name = post_body::name_in(callback.post_body.as_ref());
        let identity = identity::to_identity(claims, name.as_ref())?;
        Ok(ProviderLogin {
            identity,
            tokens: tokens.into_provider_tokens(),
        })
    }

    /// The app's token, verified like the code flow's; the name only from `post_body`, as
    /// Apple gives it to the app once (`ASAuthorizationAppleIDCredential.fullName`).
    #[tracing::instrument(skip_all, fields(provider = "apple"))]
    async fn sign_in_with_id_token(
        &self,
        input: IdTokenInput,
    ) -> Result<PresentedIdToken, ProviderError> {
        let presented = self
            .verifier
            .verify_presented(&input.id_token, input.nonce.as_ref())
            .await?;
        let name = post_body::name_in(input.post_body.as_ref());
        Ok(PresentedIdToken {
            identity: identity::to_identity(presented.claims, name.as_ref())?,
            usable_until: presented.usable_until,
        })
    }

    #[tracing::instrument(skip_all, fields(provider = "apple"))]
    async fn revoke(&self, grant: ProviderGrant) -> Result<Revoked, ProviderError> {
        revoke::revoke(&self.revocation, &self.secret, &grant).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use social_login_provider_core::{EndpointOverrides, ProblemField};
    use social_login_simulator::APPLE_TEST_KEY_PEM;

    fn settings() -> ProviderSettings {
        ProviderSettings {
            client_id: "com.example.web".into(),
            client_secret: SecretText::new(""),
            redirect_uri: "https://app.example.com/auth/callback/apple".into(),
            scopes: None,
            pkce: true,
            endpoints: EndpointOverrides::default(),
        }
    }

    fn service_fields(problems: &[SettingsProblem]) -> Vec<&'static str> {
        problems
            .iter()
            .filter_map(|problem| match problem.field {
                ProblemField::Service(field) => Some(field),
                ProblemField::Provider(_) => None,
            })
            .collect()
    }

    #[test]
    fn no_static_secret_is_needed_but_the_signing_settings_are() {
        let key = SecretText::new(APPLE_TEST_KEY_PEM);
        assert_eq!(
            AppleProvider::check_settings(&settings(), "T", "K", &key),
            []
        );
        let blank = AppleProvider::check_settings(&settings(), " ", "", &SecretText::new(""));
        assert_eq!(
            service_fields(&blank),
            ["apple_team_id", "apple_key_id", "apple_private_key_pem"]
        );
        assert!(blank.iter().all(|p| p.message == SIGNING_REQUIRED));
    }

    #[test]
    fn an_unusable_key_is_a_problem_with_its_reason_never_the_key() {
        let sec1 = SecretText::new(APPLE_TEST_KEY_PEM.replace("PRIVATE KEY", "EC PRIVATE KEY"));
        let problems = AppleProvider::check_settings(&settings(), "T", "K", &sec1);
        assert_eq!(service_fields(&problems), ["apple_private_key_pem"]);
        assert!(problems[0].message.contains("pkcs8"));
        assert!(!problems[0].message.contains("MIG"));
    }
}
